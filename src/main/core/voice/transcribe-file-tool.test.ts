import { beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../library/database';
import { Library, type JobRecord } from '../library/library';
import { runTool, toolDefinitions } from '../library-tools/library-tools';
import { assistantConfig, assistantTools, defaultAssistantPreferences } from './voice-assistant';
import { matchScore, recentFolders } from './transcribe-file-tool';

let library: Library;
let now = 1_700_000_000_000;
const folders: Record<string, string[]> = {
  '/rec/march': [
    'council-meeting-march.wav',
    'council-meeting-notes.txt',
    'ferry_interview_2.mp3',
    'notes.wav',
  ],
  '/rec/april': ['Mayor Press Conference.m4a', 'budget-briefing-1.wav', 'budget-briefing-2.wav'],
  '/rec/old': ['harbour-tour.wav'],
};
let submitted: string[];

async function addJob(id: string, audioPath: string): Promise<void> {
  now += 1000;
  await library.createJob({
    id,
    title: id,
    sourceKind: 'file',
    source: audioPath,
    audioPath,
    region: 'us',
    options: {},
    status: 'uploading',
  });
}

function tools() {
  return assistantTools({
    listFolder: (folder) =>
      folders[folder] ? Promise.resolve(folders[folder]) : Promise.reject(new Error('ENOENT')),
    submit: (path) => {
      submitted.push(path);
      return Promise.resolve({ id: 'job-new', title: 'council-meeting-march' } as JobRecord);
    },
  });
}

beforeEach(async () => {
  library = new Library(openDatabase(':memory:'), () => now);
  submitted = [];
  await addJob('a', '/rec/march/ferry.wav');
  await addJob('b', '/rec/april/mayor.wav');
  await addJob('c', '/rec/march/other.wav');
  await addJob('d', '/rec/gone/x.wav');
});

describe('transcribe_file', () => {
  it('is offered to the agent beside the library tools, in the same JSON Schema shape', () => {
    const definitions = toolDefinitions(tools());
    expect(definitions.map((definition) => definition.name)).toEqual([
      'search_library',
      'read_passage',
      'list_recent_transcripts',
      'read_story',
      'add_passage_to_story',
      'transcribe_file',
    ]);
    expect(definitions[5]?.parameters).toMatchObject({
      type: 'object',
      properties: { file_name: { type: 'string' } },
      required: ['file_name'],
    });
    const config = assistantConfig(defaultAssistantPreferences, tools());
    expect(config.tools).toEqual(definitions);
  });

  it('finds the folders of recent recordings, newest first, each once', async () => {
    expect(await recentFolders(library)).toEqual(['/rec/gone', '/rec/march', '/rec/april']);
  });

  it('starts transcribing the recording whose name sounds like what was said', async () => {
    const result = await runTool(
      library,
      'transcribe_file',
      { file_name: 'the counsel meeting from march' },
      tools(),
    );
    expect(submitted).toEqual(['/rec/march/council-meeting-march.wav']);
    expect(result).toEqual({
      started: {
        transcript_id: 'job-new',
        title: 'council-meeting-march',
        file: 'council-meeting-march.wav',
        folder: '/rec/march',
      },
    });
  });

  it('matches names with spaces, capitals and numbers', async () => {
    await runTool(library, 'transcribe_file', { file_name: 'mayor press conference' }, tools());
    await runTool(library, 'transcribe_file', { file_name: 'ferry interview 2' }, tools());
    expect(submitted).toEqual(['/rec/april/Mayor Press Conference.m4a', '/rec/march/ferry_interview_2.mp3']);
  });

  it('asks which one when several match equally, and says so when none does', async () => {
    const ambiguous = await runTool(library, 'transcribe_file', { file_name: 'budget briefing' }, tools());
    expect(ambiguous).toMatchObject({ candidates: ['budget-briefing-1.wav', 'budget-briefing-2.wav'] });
    const none = await runTool(library, 'transcribe_file', { file_name: 'harbour tour' }, tools());
    expect(none).toMatchObject({
      error: expect.stringMatching(/No recording matching "harbour tour"/) as unknown,
    });
    expect(submitted).toEqual([]);
  });

  it('says there is nowhere to look in an empty library', async () => {
    library = new Library(openDatabase(':memory:'), () => now);
    expect(await runTool(library, 'transcribe_file', { file_name: 'anything' }, tools())).toMatchObject({
      error: expect.stringMatching(/no recent recordings/) as unknown,
    });
  });
});

describe('matchScore', () => {
  it('scores shared words, tolerates slips and prefers names without extra words', () => {
    expect(matchScore('council meeting', 'council-meeting')).toBe(1);
    expect(matchScore('council meeting', 'council-meeting-notes')).toBeCloseTo(0.99);
    expect(matchScore('counsel meeting', 'council-meeting')).toBe(1);
    expect(matchScore('ferry', 'budget-briefing')).toBeLessThan(0);
    expect(matchScore('', 'x')).toBe(0);
  });
});
