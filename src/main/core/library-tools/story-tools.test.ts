import { beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../library/database';
import { Library } from '../library/library';
import { completedTranscriptFromLines } from '../library/completed-transcript.test-kit';
import { runTool, toolDefinitions } from './library-tools';
import { storyTools } from './story-tools';

let library: Library;

beforeEach(async () => {
  library = new Library(openDatabase(':memory:'), () => 1_700_000_000_000);
  await library.createJob({
    id: 'ferry',
    title: 'Mayor on the ferry contract',
    sourceKind: 'file',
    source: '/rec/ferry.wav',
    audioPath: '/rec/ferry.wav',
    region: 'us',
    options: {},
    status: 'uploading',
  });
  await library.saveCompleted(
    'ferry',
    completedTranscriptFromLines(
      [
        ['A', 'Tell me about the ferry contract.', 0],
        ['B', 'The ferry contract was signed in March.', 5000],
      ],
      { sentenceMs: 4000, sentenceConfidence: 0.9, wordEveryMs: 200, wordMs: 150, wordConfidence: 0.9 },
      { transcript: { id: 'remote-ferry' } },
    ),
  );
  await library.renameSpeaker('ferry', 'B', 'Mayor Jones');
});

const run = (name: string, args: unknown): Promise<unknown> => runTool(library, name, args, storyTools);

describe('the assistant’s story tools', () => {
  it('are described to the model with their parameters', () => {
    expect(toolDefinitions(storyTools).map((tool) => tool.name)).toEqual([
      'read_story',
      'add_passage_to_story',
    ]);
  });

  it('adds the passage just read to a named story, creating it, and reads the story back', async () => {
    expect(
      await run('add_passage_to_story', {
        story: 'Ferry piece',
        transcript_id: 'ferry',
        start_ms: 5000,
        end_ms: 9000,
      }),
    ).toEqual({
      story: 'Ferry piece',
      created_story: true,
      quotes_in_story: 1,
      added: { speaker: 'Mayor Jones', time: '00:00:05', quote: 'The ferry contract was signed in March.' },
    });
    await run('add_passage_to_story', {
      story: 'ferry PIECE',
      transcript_id: 'ferry',
      start_ms: 0,
      end_ms: 700,
    });
    expect(await run('read_story', { story: 'Ferry Piece' })).toEqual({
      story: 'Ferry piece',
      quotes: [
        {
          speaker: 'Mayor Jones',
          transcript_title: 'Mayor on the ferry contract',
          time: '00:00:05',
          quote: 'The ferry contract was signed in March.',
          words_deleted: false,
        },
        {
          speaker: 'Speaker A',
          transcript_title: 'Mayor on the ferry contract',
          time: '00:00:00',
          quote: 'Tell me about the',
          words_deleted: false,
        },
      ],
    });
  });

  it('answers with an error the model can read, and creates no story for a silent passage', async () => {
    expect(await run('read_story', { story: 'Nothing' })).toEqual({
      error: 'There is no story called Nothing. The stories are: none yet.',
    });
    const silent = (await run('add_passage_to_story', {
      story: 'Ferry piece',
      transcript_id: 'ferry',
      start_ms: 4000,
      end_ms: 4900,
    })) as { error: string };
    expect(silent.error).toContain('Nothing is said between');
    expect(await library.storyList()).toEqual([]);
  });
});
