import { beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openDatabase } from '../library/database';
import { Library } from '../library/library';
import { completedTranscriptFromLines, type TranscriptLine } from '../library/completed-transcript.test-kit';
import {
  libraryTools,
  maxPassageMs,
  runTool,
  speakersCalled,
  toolDefinitions,
  toolResultText,
} from './library-tools';

let library: Library;
let now = 1_700_000_000_000;

async function addTranscript(id: string, title: string, lines: TranscriptLine[]): Promise<void> {
  now += 1000;
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
      lines,
      { sentenceMs: 4000, sentenceConfidence: 0.9, wordEveryMs: 200, wordMs: 150, wordConfidence: 0.9 },
      { transcript: { id: `remote-${id}`, audio_duration: 600 } },
    ),
  );
}

beforeEach(async () => {
  library = new Library(openDatabase(':memory:'), () => now);
  await addTranscript('ferry', 'Mayor on the ferry contract', [
    ['A', 'Tell me about the ferry contract.', 0],
    ['B', 'The ferry contract was signed in March.', 5000],
    ['A', 'Who signed it?', 70_000],
  ]);
  await addTranscript('budget', 'Budget briefing', [['A', 'The budget grows by four percent.', 1000]]);
  await library.renameSpeaker('ferry', 'B', 'Mayor Jones');
});

describe('tool definitions', () => {
  it('describes every tool with a JSON Schema object of its parameters', () => {
    const definitions = toolDefinitions();
    expect(definitions.map((d) => d.name)).toEqual([
      'search_library',
      'read_passage',
      'list_recent_transcripts',
    ]);
    const passage = definitions.find((d) => d.name === 'read_passage');
    expect(passage?.parameters).toMatchObject({
      type: 'object',
      required: ['transcript_id', 'start_ms', 'end_ms'],
      properties: { start_ms: { type: 'integer' } },
    });
    expect(passage?.parameters).not.toHaveProperty('$schema');
    expect(libraryTools.every((t) => t.description.length > 20)).toBe(true);
  });
});

describe('runTool', () => {
  it('searches the library and names the speaker as the reporter renamed them', async () => {
    const result = (await runTool(library, 'search_library', { query: 'ferry contract signed' })) as {
      quotes: { transcript_id: string; speaker: string; start_ms: number; time: string; quote: string }[];
    };
    expect(result.quotes[0]).toMatchObject({
      transcript_id: 'ferry',
      speaker: 'Mayor Jones',
      start_ms: 5000,
      time: '00:00:05',
      quote: 'The ferry contract was signed in March.',
    });
  });

  it('accepts arguments as a JSON string, as the gateway sends them', async () => {
    const result = (await runTool(library, 'search_library', '{"query":"budget","limit":1}')) as {
      quotes: unknown[];
    };
    expect(result.quotes).toHaveLength(1);
  });

  it('reads only the sentences that overlap the passage', async () => {
    const result = (await runTool(library, 'read_passage', {
      transcript_id: 'ferry',
      start_ms: 3000,
      end_ms: 60_000,
    })) as { transcript_title: string; sentences: { speaker: string; text: string }[] };
    expect(result.transcript_title).toBe('Mayor on the ferry contract');
    expect(result.sentences).toEqual([
      expect.objectContaining({ speaker: 'Speaker A', text: 'Tell me about the ferry contract.' }),
      expect.objectContaining({ speaker: 'Mayor Jones', text: 'The ferry contract was signed in March.' }),
    ]);
  });

  it('lists recent transcripts newest first', async () => {
    const result = (await runTool(library, 'list_recent_transcripts', {})) as {
      transcripts: { id: string; status: string; duration: string }[];
    };
    expect(result.transcripts.map((t) => t.id)).toEqual(['budget', 'ferry']);
    expect(result.transcripts[0]).toMatchObject({ status: 'completed', duration: '00:10:00' });
  });

  it('answers the model with an error sentence it can act on, never a throw, for bad calls', async () => {
    expect(await runTool(library, 'format_disk', {})).toEqual({
      error:
        'There is no tool named format_disk. The tools are: search_library, read_passage, list_recent_transcripts.',
    });
    expect(await runTool(library, 'search_library', '{not json')).toEqual({
      error: 'The arguments for search_library are not valid JSON. Send them again as a JSON object.',
    });
    expect(await runTool(library, 'search_library', { limit: 3 })).toEqual({
      error: 'search_library was not run: query is missing. Call it again with corrected arguments.',
    });
    // The demo's agent once sent read_passage no times at all (both 0).
    expect(
      await runTool(library, 'read_passage', { transcript_id: 'ferry', start_ms: 0, end_ms: 0 }),
    ).toEqual({
      error:
        'read_passage was not run: end_ms must be at least 1; end_ms must be after start_ms. Call it again with corrected arguments.',
    });
    expect(await runTool(library, 'search_library', { query: 'ferry', limit: 1.5, speaker: '' })).toEqual({
      error:
        'search_library was not run: speaker must not be empty; limit must be a whole number. Call it again with corrected arguments.',
    });
    const tooLong = (await runTool(library, 'read_passage', {
      transcript_id: 'ferry',
      start_ms: 0,
      end_ms: maxPassageMs + 1,
    })) as { error: string };
    expect(tooLong.error).toContain('a passage can be at most 10 minutes long');
    expect(
      await runTool(library, 'read_passage', { transcript_id: 'gone', start_ms: 0, end_ms: 1000 }),
    ).toEqual({
      error: 'There is no transcript with id gone in the library.',
    });
  });

  it('gives the model, whatever the arguments, a JSON result or one plain sentence, never a JSON error', async () => {
    const word = fc.stringMatching(/^[a-z]{1,8}$/);
    const value = fc.oneof(
      word,
      fc.integer({ min: -1000, max: 700_000 }),
      fc.double({ noNaN: true }),
      fc.boolean(),
      fc.constant(null),
      fc.array(word, { maxLength: 2 }),
    );
    const names = ['query', 'speaker', 'limit', 'transcript_id', 'start_ms', 'end_ms'];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...libraryTools.map((tool) => tool.name)),
        fc.dictionary(fc.constantFrom(...names), value, { maxKeys: 4 }),
        fc.boolean(),
        async (name, args, asText) => {
          const result = await runTool(library, name, asText ? JSON.stringify(args) : args);
          const text = toolResultText(result);
          if ('error' in (result as object)) {
            expect(text).toBe((result as { error: string }).error);
            expect(text).toMatch(/^[A-Z_a-z].*[^.]\.$/s);
            expect(text).not.toMatch(/[{}[\]]|\.\./);
          } else {
            expect(JSON.parse(text)).toEqual(result);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('search_library', () => {
  it('narrows to a speaker named as the reporter says it: "the mayor" is Mayor Jones', async () => {
    const result = (await runTool(library, 'search_library', { query: 'ferry', speaker: 'the mayor' })) as {
      total: number;
      quotes: { speaker: string; quote: string }[];
    };
    expect(result.total).toBe(1);
    expect(result.quotes).toEqual([
      expect.objectContaining({ speaker: 'Mayor Jones', quote: 'The ferry contract was signed in March.' }),
    ]);
    const bySpeakerLabel = (await runTool(library, 'search_library', {
      query: 'ferry',
      speaker: 'speaker a',
    })) as {
      quotes: { speaker: string }[];
    };
    expect(bySpeakerLabel.quotes.map((quote) => quote.speaker)).toEqual(['Speaker A']);
    expect(await runTool(library, 'search_library', { query: 'ferry', speaker: 'the governor' })).toEqual({
      error:
        'No speaker in the library is called the governor. Search again without a speaker, or with a name the reporter gave one.',
    });
  });

  it('when no sentence has every word said, gives those with the most of them and says so', async () => {
    const result = (await runTool(library, 'search_library', { query: 'ferry budget signed' })) as {
      total: number;
      note: string;
      quotes: { quote: string }[];
    };
    expect(result.note).toBe('No quote has every word of "ferry budget signed"; these have some of them.');
    expect(result.quotes.map((quote) => quote.quote)).toEqual([
      'The ferry contract was signed in March.',
      'Tell me about the ferry contract.',
      'The budget grows by four percent.',
      'Who signed it?',
    ]);
    expect(await runTool(library, 'search_library', { query: 'lighthouse keeper' })).toEqual({
      total: 0,
      quotes: [],
    });
  });

  it('matches every word said of a speaker, bar articles, against the names given', () => {
    const names = ['Mayor Elena Alvarez', 'Daniel Reyes', 'Deputy Mayor Ortiz'];
    expect(speakersCalled('the mayor', names)).toEqual(['Mayor Elena Alvarez', 'Deputy Mayor Ortiz']);
    expect(speakersCalled('Mayor Alvarez', names)).toEqual(['Mayor Elena Alvarez']);
    expect(speakersCalled('Speaker B', names)).toEqual(['B']);
    expect(speakersCalled('the', names)).toEqual([]);
    expect(speakersCalled('Reyes Daniel', names)).toEqual(['Daniel Reyes']);
  });
});
