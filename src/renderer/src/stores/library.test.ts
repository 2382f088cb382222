import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SearchPage, SearchRequest, TranscriptSummary } from '../../../shared/library';

const search = vi.fn<(request: SearchRequest) => Promise<SearchPage>>();
const setTags = vi.fn<(input: { id: string; tags: string[] }) => Promise<TranscriptSummary>>();

vi.mock('../lib/api', () => ({
  api: { library: { search }, transcripts: { setTags } },
}));

const { library } = await import('./library.svelte');

function page(text: string): SearchPage {
  return {
    hits: [
      {
        transcriptId: 't1',
        transcriptTitle: 'Interview',
        sentencePosition: 0,
        startMs: 13_058,
        endMs: 20_592,
        speaker: 'A',
        speakerName: null,
        snippet: [{ text, match: true }],
        rank: -1,
      },
    ],
    total: 1,
    totalIsLowerBound: false,
    ranking: 'relevance',
    limit: 20,
    offset: 0,
  };
}

function summary(id: string, tags: string[]): TranscriptSummary {
  return {
    id,
    remoteId: null,
    region: 'us',
    title: id,
    sourceKind: 'file',
    source: '/a.wav',
    audioPath: '/a.wav',
    status: 'completed',
    error: null,
    languageCode: 'en',
    audioDurationMs: 1000,
    createdAt: 1,
    updatedAt: 1,
    completedAt: 1,
    tags,
    speakers: [],
    bytesTotal: null,
    bytesSent: 0,
    corrections: 0,
    review: { checked: 0, paragraphs: 0 },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  search.mockReset();
  setTags.mockReset();
});
afterEach(() => {
  library.setQuery('');
  vi.useRealTimers();
});

describe('library search', () => {
  it('asks at every keystroke, as one searcher, with the filters, and shows the newest answer', async () => {
    search.mockImplementation((request: { query: string }) => Promise.resolve(page(request.query)));
    library.setFilter('speaker', 'B');
    library.setQuery('f');
    library.setQuery('fe');
    library.setQuery('ferry');
    await vi.advanceTimersByTimeAsync(0);
    expect(search.mock.calls.map(([request]) => (request as { query: string }).query)).toEqual([
      'f',
      'fe',
      'ferry',
    ]);
    // One window is one searcher: main starts only the newest of its waiting searches.
    const searchers = new Set(
      search.mock.calls.map(([request]) => (request as { searcher: string }).searcher),
    );
    expect(searchers.size).toBe(1);
    expect(search.mock.calls[2]![0]).toMatchObject({ query: 'ferry', filters: { speaker: 'B' }, offset: 0 });
    expect(library.hits[0]!.snippet[0]!.text).toBe('ferry');
    library.clearFilters();
  });

  it('drops an older answer that arrives after a newer one', async () => {
    let answerSlow: (value: SearchPage) => void = () => undefined;
    search
      .mockImplementationOnce(() => new Promise((resolve) => (answerSlow = resolve)))
      .mockResolvedValueOnce(page('ferry contract'));
    library.setQuery('ferry');
    await vi.advanceTimersByTimeAsync(120);
    library.setQuery('ferry contract');
    await vi.advanceTimersByTimeAsync(120);
    expect(library.hits[0]!.snippet[0]!.text).toBe('ferry contract');
    answerSlow(page('ferry'));
    await vi.advanceTimersByTimeAsync(0);
    expect(library.hits[0]!.snippet[0]!.text).toBe('ferry contract');
    expect(library.answered).toBe('ferry contract');
  });

  it('an emptied box shows no hits, even if an answer was on its way', async () => {
    let answer: (value: SearchPage) => void = () => undefined;
    search.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    library.setQuery('ferry');
    await vi.advanceTimersByTimeAsync(120);
    library.setQuery('');
    answer(page('ferry'));
    await vi.advanceTimersByTimeAsync(0);
    expect(library.hits).toEqual([]);
  });
});

describe('tagging transcripts', () => {
  it('adds the tag to each chosen transcript and keeps their other tags', async () => {
    library.items = [summary('a', ['council']), summary('b', []), summary('c', [])];
    setTags.mockImplementation(({ id, tags }) => Promise.resolve(summary(id, tags)));
    await library.tagTranscripts(['a', 'b'], ' ferry ');
    expect(setTags.mock.calls.map(([input]) => input)).toEqual([
      { id: 'a', tags: ['council', 'ferry'] },
      { id: 'b', tags: ['ferry'] },
    ]);
    expect(library.items.find((item) => item.id === 'c')!.tags).toEqual([]);
    expect(library.announcement).toBe('Tagged 2 transcripts “ferry”.');
  });
});

describe('loading more hits', () => {
  it('appends the next page without repeating a sentence already shown', async () => {
    search.mockResolvedValueOnce({ ...page('ferry'), total: 2 });
    library.setQuery('ferry');
    await vi.advanceTimersByTimeAsync(120);
    expect(library.hasMore).toBe(true);
    const second = page('the ferry');
    second.hits.push({ ...second.hits[0]!, sentencePosition: 5 });
    search.mockResolvedValueOnce({ ...second, total: 2, offset: 1 });
    await library.loadMore();
    expect(search.mock.calls[1]![0]).toMatchObject({ offset: 1 });
    expect(library.hits.map((hit) => hit.sentencePosition)).toEqual([0, 5]);
    expect(library.hasMore).toBe(false);
  });
});
