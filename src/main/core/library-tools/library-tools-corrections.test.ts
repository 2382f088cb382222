import { beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../library/database';
import { Library } from '../library/library';
import { completedTranscriptFromLines } from '../library/completed-transcript.test-kit';
import { runTool } from './library-tools';

/** The assistant's library tools read what the journalist corrected, never the words replaced. */
let library: Library;

beforeEach(async () => {
  library = new Library(openDatabase(':memory:'));
  await library.createJob({
    id: 'council',
    title: 'Harbour council',
    sourceKind: 'file',
    source: '/rec/council.wav',
    audioPath: null,
    region: 'us',
    options: {},
    status: 'fetching',
  });
  await library.saveCompleted(
    'council',
    completedTranscriptFromLines(
      [
        ['A', 'Mayor Brenan opened the meeting.', 0],
        ['A', 'Brenan is wrong about the ferry says the harbour master.', 3000],
      ],
      { sentenceMs: 2900, sentenceConfidence: 0.9, wordEveryMs: 250, wordMs: 200, wordConfidence: 0.9 },
      { transcript: { id: 'remote-council', audio_duration: 9 } },
    ),
  );
  await library.edit('council', {
    kind: 'replace',
    find: 'Brenan',
    replacement: 'Brennan',
    wholeWord: true,
    matchCase: true,
  });
  // The second sentence is someone else's: a new speaker, named.
  await library.edit('council', {
    kind: 'speaker',
    from: 1,
    count: 1,
    speaker: { newName: 'Harbour master' },
  });
});

describe('library tools on a corrected transcript', () => {
  it('search_library finds the corrected spelling and not the replaced one', async () => {
    const found = (await runTool(library, 'search_library', { query: 'Brennan' })) as {
      total: number;
      quotes: { quote: string; speaker: string | null }[];
    };
    expect(found.total).toBe(2);
    expect(found.quotes.map((q) => q.quote).sort()).toEqual([
      'Brennan is wrong about the ferry says the harbour master.',
      'Mayor Brennan opened the meeting.',
    ]);
    expect(found.quotes.map((q) => q.speaker).sort()).toEqual(['Harbour master', 'Speaker A']);
    expect(await runTool(library, 'search_library', { query: 'Brenan' })).toMatchObject({
      total: 0,
      quotes: [],
    });
  });

  it('read_passage reads the corrected words with the corrected speaker, and the machine words after undo', async () => {
    const passage = { transcript_id: 'council', start_ms: 0, end_ms: 9000 };
    expect(await runTool(library, 'read_passage', passage)).toMatchObject({
      sentences: [
        { speaker: 'Speaker A', text: 'Mayor Brennan opened the meeting.' },
        { speaker: 'Harbour master', text: 'Brennan is wrong about the ferry says the harbour master.' },
      ],
    });
    await library.undo('council');
    await library.undo('council');
    expect(await runTool(library, 'read_passage', passage)).toMatchObject({
      sentences: [
        { speaker: 'Speaker A', text: 'Mayor Brenan opened the meeting.' },
        { speaker: 'Speaker A', text: 'Brenan is wrong about the ferry says the harbour master.' },
      ],
    });
  });
});
