import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './database';
import { Library, type CompletedTranscript } from './library';
import { completedTranscriptFromLines, misheardTimings } from './completed-transcript.test-kit';
import { VerbatimError } from '../../../shared/errors';

let folder: string;
let db: Db;
let library: Library;
let clock = 1_000;

function interview(): CompletedTranscript {
  return completedTranscriptFromLines(
    [
      ['A', 'Mayor Brenan opened the meeting.', 0],
      ['A', 'The ferry contract was signed.', 3000],
      ['B', 'Brenan is wrong about the ferry.', 6000],
    ],
    misheardTimings,
    {
      transcript: { id: 'remote-1', language_code: 'en', audio_duration: 9 },
      paragraphs: [
        { text: 'first', start: 0, end: 5500, confidence: 0.9 },
        { text: 'second', start: 6000, end: 8500, confidence: 0.9 },
      ],
    },
  );
}

async function open(): Promise<void> {
  db = openDatabase(join(folder, 'library.db'));
  library = new Library(db, () => clock++);
}

beforeEach(async () => {
  folder = mkdtempSync(join(tmpdir(), 'verbatim-corrections-'));
  await open();
  await library.createJob({
    id: 't1',
    title: 'Ferry interview',
    sourceKind: 'file',
    source: '/rec/t1.wav',
    audioPath: '/rec/t1.wav',
    region: 'us',
    options: {},
    status: 'fetching',
  });
  await library.saveCompleted('t1', interview());
});

afterEach(() => {
  db.close();
  rmSync(folder, { recursive: true, force: true });
});

const texts = async (): Promise<string[]> => (await library.sentences('t1')).map((s) => s.text);
const hits = async (query: string): Promise<number> => (await library.search(query)).total;
/** Replaces every whole word `find` in t1. */
const replaceWord = (find: string, replacement: string, matchCase: boolean): ReturnType<Library['edit']> =>
  library.edit('t1', { kind: 'replace', find, replacement, wholeWord: true, matchCase });

describe('corrections in the library', () => {
  it('stores an edit so that search finds the new spelling and not the old, at once', async () => {
    const result = await library.edit('t1', {
      kind: 'text',
      from: 0,
      count: 2,
      text: 'Mayor Brennan opened the meeting. The ferry contract was signed.',
    });
    expect(result.steps).toHaveLength(1);
    expect(result.state).toMatchObject({
      revision: 1,
      applied: 1,
      undo: 'Changed “Brenan” to “Brennan”',
      redo: null,
    });
    expect(await texts()).toEqual([
      'Mayor Brennan opened the meeting.',
      'The ferry contract was signed.',
      'Brenan is wrong about the ferry.',
    ]);
    expect(await hits('Brennan')).toBe(1);
    expect(await hits('Brenan')).toBe(1); // only the sentence not yet corrected
    const word = (await library.sentences('t1'))[0]?.words[1];
    expect(word).toMatchObject({ text: 'Brennan', start: 400, end: 750, confidence: 1, corrected: true });
    expect((await library.requireJob('t1')).corrections).toBe(1);
  });

  it('never overwrites the service words: the machine copy and the stored JSON stay as they were', async () => {
    await replaceWord('Brenan', 'Brennan', true);
    expect((await library.machineSentences('t1')).map((s) => s.text)).toEqual(
      interview().sentences.map((s) => s.text),
    );
    expect((await library.transcriptJson('t1'))?.text).toBe(interview().transcript.text);
  });

  it('undoes and redoes every kind of edit, also after the library is closed and opened again', async () => {
    const original = await texts();
    await replaceWord('brenan', 'Brennan', false);
    await library.edit('t1', { kind: 'split', position: 1, word: 1, speaker: { newName: 'Harbour master' } });
    await library.edit('t1', { kind: 'merge', position: 2 });
    const edited = await library.sentences('t1');
    db.close();
    await open();
    expect(await library.sentences('t1')).toEqual(edited);
    expect((await library.correctionState('t1')).undo).toBe('Merged two turns');
    await library.undo('t1');
    await library.undo('t1');
    await library.undo('t1');
    expect(await texts()).toEqual(original);
    expect(await hits('Brennan')).toBe(0);
    db.close();
    await open();
    const redone = await library.redo('t1');
    expect(redone.state.redo).toBe('Split the turn: Harbour master from “ferry”');
    await library.redo('t1');
    await library.redo('t1');
    expect(await library.sentences('t1')).toEqual(edited);
    await expect(library.redo('t1')).rejects.toThrow(/nothing to redo/);
    expect((await library.history('t1')).map((h) => [h.kind, h.undone])).toEqual([
      ['replace', false],
      ['split', false],
      ['merge', false],
    ]);
  });

  it('joins typing that continues an edit into one undo step', async () => {
    const first = await library.edit('t1', {
      kind: 'text',
      from: 0,
      count: 1,
      text: 'Mayor Bren opened the meeting.',
    });
    await library.edit(
      't1',
      { kind: 'text', from: 0, count: 1, text: 'Mayor Brennan opened the meeting.' },
      { continues: first.editId ?? undefined },
    );
    expect((await library.history('t1')).length).toBe(1);
    await library.undo('t1');
    expect((await texts())[0]).toBe('Mayor Brenan opened the meeting.');
  });

  it('refuses an edit made against an older revision, changing nothing', async () => {
    await library.edit('t1', { kind: 'text', from: 0, count: 1, text: 'Mayor Brennan opened the meeting.' });
    await expect(
      library.edit(
        't1',
        { kind: 'text', from: 0, count: 1, text: 'Something else.' },
        { expectedRevision: 0 },
      ),
    ).rejects.toMatchObject({ code: 'conflict' });
    expect((await texts())[0]).toBe('Mayor Brennan opened the meeting.');
  });

  it('a new edit after an undo ends the redo history', async () => {
    await library.edit('t1', { kind: 'text', from: 0, count: 1, text: 'One.' });
    await library.undo('t1');
    await library.edit('t1', { kind: 'text', from: 0, count: 1, text: 'Two.' });
    expect((await library.correctionState('t1')).redo).toBeNull();
    expect((await library.history('t1')).map((h) => h.summary)).toEqual([
      'Changed “Mayor Brenan opened the meeting.” to “Two.”',
    ]);
  });

  it('keeps the corrections when the service transcript is fetched again', async () => {
    await replaceWord('Brenan', 'Brennan', true);
    await library.saveCompleted('t1', interview());
    expect(await texts()).toEqual([
      'Mayor Brennan opened the meeting.',
      'The ferry contract was signed.',
      'Brennan is wrong about the ferry.',
    ]);
    await library.undo('t1');
    expect((await texts())[0]).toBe('Mayor Brenan opened the meeting.');
  });

  it('reverts one paragraph to the machine words as an undoable edit', async () => {
    await replaceWord('ferry', 'boat', false);
    await library.edit('t1', { kind: 'revert', paragraph: 1 });
    expect(await texts()).toEqual([
      'Mayor Brenan opened the meeting.',
      'The boat contract was signed.',
      'Brenan is wrong about the ferry.',
    ]);
    await library.undo('t1');
    expect((await texts())[2]).toBe('Brenan is wrong about the boat.');
  });

  it('stamps paragraphs as checked, with the time, and counts them in the summary', async () => {
    const state = await library.setParagraphChecked('t1', 1, true);
    expect(state.checks).toEqual([
      { paragraph: 1, checkedAt: expect.any(Number) as number, checkedBy: null },
    ]);
    expect((await library.requireJob('t1')).review).toEqual({ checked: 1, paragraphs: 2 });
    await library.setParagraphChecked('t1', 1, false);
    expect((await library.requireJob('t1')).review).toEqual({ checked: 0, paragraphs: 2 });
    await expect(library.setParagraphChecked('t1', 5, true)).rejects.toThrow(/no paragraph 6/);
  });

  it('says plainly when an edit points past the transcript or names an unknown speaker', async () => {
    await expect(library.edit('t1', { kind: 'text', from: 2, count: 5, text: 'x' })).rejects.toBeInstanceOf(
      VerbatimError,
    );
    await expect(
      library.edit('t1', { kind: 'speaker', from: 0, count: 1, speaker: { label: 'Z' } }),
    ).rejects.toThrow('There is no speaker Z in this transcript.');
    await expect(library.undo('t1')).rejects.toThrow('There is nothing to undo in this transcript.');
  });

  it('deletes the corrections with the transcript', async () => {
    await library.edit('t1', { kind: 'text', from: 0, count: 1, text: 'Gone.' });
    await library.setParagraphChecked('t1', 0, true);
    await library.delete('t1');
    for (const table of ['transcript_edits', 'machine_sentences', 'paragraph_checks'])
      expect(db.prepare(`SELECT count(*) AS n FROM ${table}`).get()).toEqual({ n: 0 });
  });
});
