import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NewsroomSearchPage, NewsroomSearchQuery } from '../../../shared/newsroom-search';

const search = vi.fn<(query: NewsroomSearchQuery) => Promise<NewsroomSearchPage>>();
const settings = vi.fn<() => Promise<{ address: string; passwordSet: boolean }>>();
const watch = vi.fn<(input: { watcher: string; watching: boolean }) => Promise<{ watching: boolean }>>();
const listeners = new Map<string, () => void>();
const on = vi.fn((event: string, listener: () => void) => {
  listeners.set(event, listener);
  return () => listeners.delete(event);
});

vi.mock('../lib/api', () => ({ api: { newsroom: { search, settings, watch }, on } }));

const { newsroomSearch, newsroomDebounceMs } = await import('./newsroom-search.svelte');

function page(title: string): NewsroomSearchPage {
  return {
    hits: [
      {
        reporter: 'ana',
        desk: 'City',
        transcriptId: title,
        title,
        recordedAt: 0,
        sentence: { position: 0, startMs: 0, endMs: 1, speaker: 'A', speakerName: null, text: title },
        matches: [],
      },
    ],
    total: 1,
    totalCapped: false,
    nextCursor: null,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  settings.mockResolvedValue({ address: 'postgres://ana@127.0.0.1:5432/verbatim', passwordSet: true });
  watch.mockImplementation(({ watching }) => Promise.resolve({ watching }));
});
afterEach(() => {
  newsroomSearch.leave();
  newsroomSearch.setQuery('');
  vi.useRealTimers();
  vi.clearAllMocks();
});

describe('the newsroom search store', () => {
  it('waits for the typing to pause, and shows only the newest answer when an older one comes last', async () => {
    let answerFirst: (value: NewsroomSearchPage) => void = () => {};
    search.mockImplementationOnce(() => new Promise((resolve) => (answerFirst = resolve)));
    search.mockResolvedValueOnce(page('newer'));
    newsroomSearch.setQuery('h');
    newsroomSearch.setQuery('ha');
    newsroomSearch.setQuery('har');
    await vi.advanceTimersByTimeAsync(newsroomDebounceMs);
    expect(search.mock.calls.map(([query]) => query.text)).toEqual(['har']);
    newsroomSearch.setQuery('harbour');
    await vi.advanceTimersByTimeAsync(newsroomDebounceMs);
    answerFirst(page('older'));
    await vi.runAllTimersAsync();
    expect(newsroomSearch.hits.map((hit) => hit.title)).toEqual(['newer']);
    expect(newsroomSearch.answered).toBe('harbour');
  });

  it('keeps the query and shows the sentence when the newsroom cannot be reached', async () => {
    const { VerbatimError } = await import('../../../shared/errors');
    search.mockRejectedValueOnce(new VerbatimError('network', 'The newsroom cannot be reached.'));
    newsroomSearch.setQuery('harbour');
    await vi.runAllTimersAsync();
    expect(newsroomSearch.error?.message).toBe('The newsroom cannot be reached.');
    expect(newsroomSearch.query).toBe('harbour');
  });

  it('Retry asks again: the search after a failed one, the settings when they went unanswered', async () => {
    const { VerbatimError } = await import('../../../shared/errors');
    search.mockRejectedValueOnce(new VerbatimError('network', 'The newsroom cannot be reached.'));
    search.mockResolvedValueOnce(page('back'));
    newsroomSearch.setQuery('harbour');
    await vi.runAllTimersAsync();
    expect(newsroomSearch.error?.message).toBe('The newsroom cannot be reached.');
    await newsroomSearch.retry();
    expect(newsroomSearch.error).toBeUndefined();
    expect(newsroomSearch.hits.map((hit) => hit.title)).toEqual(['back']);

    newsroomSearch.setQuery('');
    newsroomSearch.configured = undefined;
    settings.mockRejectedValueOnce(new VerbatimError('storage', 'The settings could not be read.'));
    await newsroomSearch.enter();
    expect(newsroomSearch.error?.message).toBe('The settings could not be read.');
    await newsroomSearch.retry();
    expect(newsroomSearch.configured).toBe(true);
    expect(newsroomSearch.error).toBeUndefined();
  });

  it('watches while the scope is shown, searches again on a change, and stops watching when left', async () => {
    search.mockResolvedValue(page('harbour'));
    newsroomSearch.setQuery('harbour');
    await newsroomSearch.enter();
    expect(watch.mock.lastCall?.[0].watching).toBe(true);
    await vi.runAllTimersAsync();
    const before = search.mock.calls.length;
    listeners.get('newsroom.changed')?.();
    await vi.runAllTimersAsync();
    expect(search.mock.calls.length).toBe(before + 1);
    newsroomSearch.leave();
    expect(watch.mock.lastCall?.[0].watching).toBe(false);
    expect(listeners.has('newsroom.changed')).toBe(false);
  });

  it('with no newsroom in Settings, says so and neither watches nor searches', async () => {
    settings.mockResolvedValueOnce({ address: '', passwordSet: false });
    await newsroomSearch.enter();
    expect(newsroomSearch.configured).toBe(false);
    expect(watch).not.toHaveBeenCalled();
  });
});
