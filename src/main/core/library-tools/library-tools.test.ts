import { beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../library/database';
import { Library } from '../library/library';
import { completedTranscriptFromLines, type TranscriptLine } from '../library/completed-transcript.test-kit';
import { libraryTools, maxPassageMs, runTool, toolDefinitions } from './library-tools';

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

  it('answers the model with an error, never a throw, for bad calls', async () => {
    expect(await runTool(library, 'format_disk', {})).toEqual({
      error: 'There is no tool named format_disk.',
    });
    expect(await runTool(library, 'search_library', '{not json')).toEqual({
      error: 'The arguments for search_library are not valid JSON.',
    });
    const missingQuery = (await runTool(library, 'search_library', { limit: 3 })) as { error: string };
    expect(missingQuery.error).toMatch(/^Invalid arguments for search_library: query:/);
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
});
