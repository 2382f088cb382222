import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeServices } from '../compose';
import { MemorySecrets } from '../core/secrets/secret-store';
import { createLogger } from '../core/log/logger';
import { completedTranscriptFromLines, misheardTimings } from '../core/library/completed-transcript.test-kit';
import { createDispatcher, type Dispatch } from './dispatcher';
import { createHandlers } from './create-handlers';
import { wireEvents } from './events';
import type { EventName } from '../../shared/ipc/contract';
import type { Highlight, Story } from '../../shared/highlights';
import { unwrap } from '../../shared/ipc/envelope';

let services: ReturnType<typeof composeServices>;
let dispatch: Dispatch;
const events: { event: EventName; payload: unknown }[] = [];

async function storeInterview(id: string, title: string): Promise<void> {
  const { library } = services.core;
  await library.createJob({
    id,
    title,
    sourceKind: 'file',
    source: `/rec/${id}.wav`,
    audioPath: `/rec/${id}.wav`,
    region: 'us',
    options: {},
    status: 'uploading',
  });
  await library.saveCompleted(
    id,
    completedTranscriptFromLines(
      [
        ['A', 'Mayor Brenan opened the meeting.', 0],
        ['B', 'Brenan is wrong about the ferry.', 3000],
      ],
      misheardTimings,
      { transcript: { id: `remote-${id}` } },
    ),
  );
}

beforeAll(async () => {
  services = composeServices({
    dataDir: mkdtempSync(join(tmpdir(), 'verbatim-highlights-ipc-')),
    appInfo: { name: 'Verbatim', version: '0', platform: 'linux' },
    secrets: new MemorySecrets(),
    logger: createLogger({ sinks: [] }),
  });
  dispatch = createDispatcher(createHandlers(services));
  wireEvents(services, (event, payload) => events.push({ event, payload }));
  await storeInterview('ferry', 'Ferry interview');
  await storeInterview('harbour', 'Harbour interview');
});
afterAll(() => services.close());

const call = async <T>(method: string, input?: unknown): Promise<T> =>
  unwrap(await dispatch(method, input)) as T;
const announced = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('the highlights and stories handlers', () => {
  it('highlight a span over the contract, answer first, then tell every window', async () => {
    events.length = 0;
    const highlight = await call<Highlight>('highlights.create', {
      transcriptId: 'ferry',
      startMs: 100,
      endMs: 700,
    });
    expect(highlight).toMatchObject({ startMs: 0, endMs: 750, text: 'Mayor Brenan', note: '' });
    expect(events).toEqual([]);
    await announced();
    expect(events).toEqual([{ event: 'highlights.changed', payload: { transcriptIds: ['ferry'] } }]);
    expect(await call<Highlight[]>('highlights.list', { transcriptId: 'ferry' })).toHaveLength(1);
  });

  it('refuse what the contract does not allow, and a span without words, with a message for the journalist', async () => {
    await expect(
      call('highlights.create', { transcriptId: 'ferry', startMs: 900, endMs: 100 }),
    ).rejects.toThrow('A highlight must end after it starts.');
    await expect(
      call('highlights.create', { transcriptId: 'ferry', startMs: 2000, endMs: 2900 }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(call('stories.create', { name: '   ' })).rejects.toThrow('A story needs a name.');
  });

  it('build a story, search the Quotes view, and ask before deleting a transcript with quotes', async () => {
    const ferryQuote = await call<Highlight>('highlights.create', {
      transcriptId: 'ferry',
      startMs: 3000,
      endMs: 5500,
      note: 'contested',
    });
    const harbourQuote = await call<Highlight>('highlights.create', {
      transcriptId: 'harbour',
      startMs: 0,
      endMs: 2000,
    });
    const story = await call<Story>('stories.create', { name: 'Ferry piece' });
    await call('stories.addQuote', { storyId: story.id, highlightId: ferryQuote.id });
    await call('stories.addQuote', { storyId: story.id, highlightId: harbourQuote.id });
    const withText = await call<Story>('stories.addText', { storyId: story.id, text: 'Two views', index: 0 });
    expect(withText.items.map((item) => item.kind)).toEqual(['text', 'quote', 'quote']);
    expect(await call('quotes.list', { query: 'contest' })).toMatchObject({
      total: 1,
      quotes: [{ id: ferryQuote.id }],
    });

    expect(await call('stories.quotesOf', { transcriptId: 'ferry' })).toEqual({
      quotes: 1,
      stories: ['Ferry piece'],
    });
    events.length = 0;
    await call('transcripts.delete', { id: 'ferry' });
    await announced();
    expect(events).toContainEqual({ event: 'stories.changed', payload: { storyIds: [story.id] } });
    const kept = await call<Story>('stories.get', { id: story.id });
    expect(kept.items[1]).toMatchObject({
      kind: 'quote',
      highlightId: null,
      text: 'Brenan is wrong about the ferry.',
    });

    await call('transcripts.delete', { id: 'harbour', quotesInStories: 'remove' });
    expect((await call<Story>('stories.get', { id: story.id })).items.map((item) => item.kind)).toEqual([
      'text',
      'quote',
    ]);
  });
});
