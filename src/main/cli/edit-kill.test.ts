import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../core/library/database';
import { Library } from '../core/library/library';
import { runCliProcess, startCliProcess, type CliRun } from './cli-process.test-kit';

/**
 * "A SIGKILL of the CLI loses at most the word being typed": many `edit` commands, several at
 * once, against one library, each killed at a random moment (starting up, reading, planning,
 * inside the write, printing). Afterwards the library opens; every edit whose command said it
 * was made is there; no edit is half there (an --all edit changes both of its sentences or
 * neither); the sentences, the search index and the history agree; and undo still takes every
 * edit back to the service's words.
 */
const edits = 32;
/** Sentences around the ones edited, so reading and planning an edit takes a while to kill. */
const filler = 12_000;

/** Edit k's word, twice in the transcript: in sentences 2k and 2k+1 (no word is the start of another, as search matches prefixes). */
const misheard = (k: number): string => `alpha${k}x`;
const corrected = (k: number): string => `Omega${k}z`;
/** Even edits replace both occurrences (--all), odd ones the first only. */
const replacesAll = (k: number): boolean => k % 2 === 0;

async function storeLongInterview(library: Library): Promise<void> {
  await library.createJob({
    id: 'long',
    title: 'Long council meeting',
    sourceKind: 'file',
    source: '/recordings/long.wav',
    audioPath: null,
    region: 'us',
    options: {},
    status: 'fetching',
  });
  const texts = [
    ...Array.from(
      { length: edits * 2 },
      (_, i) => `The member said ${misheard(Math.floor(i / 2))} again today.`,
    ),
    ...Array.from({ length: filler }, (_, i) => `Item ${i} of the budget was read out slowly.`),
  ];
  const sentences = texts.map((text, index) => ({
    text,
    start: index * 2000,
    end: index * 2000 + 1900,
    confidence: 0.9,
    speaker: index % 3 === 0 ? 'B' : 'A',
    words: text.split(' ').map((word, position) => ({
      text: word,
      start: index * 2000 + position * 200,
      end: index * 2000 + position * 200 + 180,
      confidence: 0.9,
      speaker: index % 3 === 0 ? 'B' : 'A',
    })),
  }));
  await library.saveCompleted('long', {
    transcript: { id: 'remote-long', text: 'long', language_code: 'en', audio_duration: texts.length * 2 },
    sentences,
    paragraphs: [{ text: 'long', start: 0, end: texts.length * 2000, confidence: 0.9 }],
  });
}

function editArgs(k: number): string[] {
  return [
    'edit',
    'long',
    '--replace',
    `${misheard(k)}=${corrected(k)}`,
    '--whole-word',
    '--json',
    ...(replacesAll(k) ? ['--all'] : []),
  ];
}

/** Whether the run told its caller the edit was made: its report reached standard output whole. */
function reportedSuccess(run: CliRun): boolean {
  try {
    return (JSON.parse(run.stdout) as { editId?: unknown }).editId !== undefined;
  } catch {
    return false;
  }
}

describe('edit killed at random points', () => {
  it('loses no edit it reported, leaves none half applied, and undo still works', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-edit-kill-'));
    const env = { VERBATIM_DATA_DIR: dataDir };
    const seeded = openDatabase(join(dataDir, 'library.sqlite'));
    await storeLongInterview(new Library(seeded));
    seeded.close();

    // One unhurried edit first: how long a whole run takes, so the kills spread over all of it.
    const started = performance.now();
    const first = await runCliProcess(editArgs(0), env);
    const runMs = performance.now() - started;
    expect(first.code, first.stderr).toBe(0);

    let random = 19;
    const nextRandom = (): number => {
      random = (random * 1103515245 + 12345) % 2 ** 31;
      return random / 2 ** 31;
    };
    const reported = new Set<number>([0]);
    const killedAt: number[] = [];
    const killed = new Set<number>();
    // Runs at once slow each other down: the kills spread over twice a lone run's time.
    const parallel = 3;
    for (let wave = 1; wave < edits; wave += parallel) {
      const ks = Array.from({ length: Math.min(parallel, edits - wave) }, (_, i) => wave + i);
      await Promise.all(
        ks.map(async (k) => {
          const { child, finished } = startCliProcess(editArgs(k), env);
          const delay = Math.floor(nextRandom() * runMs * 2.2);
          const timer = setTimeout(() => child.kill('SIGKILL'), delay);
          const run = await finished;
          clearTimeout(timer);
          if (run.code === null) {
            killedAt.push(delay);
            killed.add(k);
          } else expect(run.code, run.stderr).toBe(0);
          if (reportedSuccess(run)) reported.add(k);
        }),
      );
    }
    expect(killedAt.length).toBeGreaterThanOrEqual(8);
    expect(reported.size).toBeGreaterThanOrEqual(4);

    // The command line still opens the library after all of that.
    const shown = await runCliProcess(['show', 'long', '--json'], env);
    expect(shown.code, shown.stderr).toBe(0);

    const db = openDatabase(join(dataDir, 'library.sqlite'));
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const library = new Library(db);
      const sentences = await library.sentences('long');
      expect(sentences).toHaveLength(edits * 2 + filler);
      sentences.forEach((sentence, position) => {
        expect(sentence.position).toBe(position);
        expect(sentence.words.map((word) => word.text).join(' ')).toBe(sentence.text);
      });
      const has = (position: number, word: string): boolean =>
        sentences[position]!.words.some((w) => w.text === word);
      const history = await library.history('long');
      const inForce = history.filter((entry) => !entry.undone);
      expect(inForce).toHaveLength(history.length);

      const applied: number[] = [];
      for (let k = 0; k < edits; k++) {
        const first = has(2 * k, corrected(k));
        const second = has(2 * k + 1, corrected(k));
        // Whole or not at all: --all changes both sentences, a first-only edit the first alone.
        expect([first, second], `edit ${k}`).toEqual(first ? [true, replacesAll(k)] : [false, false]);
        expect(has(2 * k, misheard(k)), `edit ${k}`).toBe(!first);
        expect(has(2 * k + 1, misheard(k)), `edit ${k}`).toBe(!second);
        if (first) applied.push(k);
        if (reported.has(k)) expect(first, `edit ${k} was reported made`).toBe(true);
        // The search index says what the sentences say.
        expect((await library.search(corrected(k))).total, `search ${corrected(k)}`).toBe(
          Number(first) + Number(second),
        );
        expect((await library.search(misheard(k))).total, `search ${misheard(k)}`).toBe(
          Number(!first) + Number(!second),
        );
        // The history holds exactly one edit for each one in the sentences.
        const entries = inForce.filter((entry) => entry.summary.startsWith(`Replaced “${misheard(k)}”`));
        expect(entries, `history of edit ${k}`).toHaveLength(first ? 1 : 0);
      }
      expect(inForce).toHaveLength(applied.length);
      const madeThenKilled = applied.filter((k) => killed.has(k) && !reported.has(k)).length;
      console.log(
        `edit kill test: ${killedAt.length} of ${edits - 1} runs killed (a lone run takes ${Math.round(runMs)} ms); ${reported.size} edits reported made, ${applied.length} in the library (${madeThenKilled} made by a run killed before it could say so), ${edits - applied.length} never made`,
      );
      expect((await library.correctionState('long')).applied).toBe(applied.length);

      // Undo takes every edit back, to the service's words, and search follows.
      for (let i = 0; i < applied.length; i++) await library.undo('long');
      await expect(library.undo('long')).rejects.toThrow('There is nothing to undo in this transcript.');
      expect((await library.sentences('long')).map((s) => s.text)).toEqual(
        (await library.machineSentences('long')).map((s) => s.text),
      );
      for (const k of applied) {
        expect((await library.search(misheard(k))).total).toBe(2);
        expect((await library.search(corrected(k))).total).toBe(0);
      }
      expect(await library.hasCorrections('long')).toBe(false);
    } finally {
      db.close();
    }
  }, 240_000);
});
