import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { storeInterview } from '../core/export/library-fixture.test-kit';
import { Glossaries } from '../core/glossary/glossaries';
import { openDatabase } from '../core/library/database';
import { Library } from '../core/library/library';
import { Recordings } from '../core/library/recordings';
import { runCliProcess } from './cli-process.test-kit';
import { GlossaryStore } from '../core/library/glossary-store';
import { actedOnByTerminal } from './terminal-controls.test-kit';

/**
 * A title, a file name, a note or a name that carries terminal escapes (colour, a window title,
 * clear screen, a C1 CSI, a right-to-left override) is shown by every command, never acted on
 * by the reporter's terminal; --json keeps it exactly as stored.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-terminal-escapes-'));
const env = { VERBATIM_DATA_DIR: dataDir };
const hostile = 'Ferry \x1b[31mALERT\x1b]0;owned\x07 \x1b[2J\u009b2J \u202eevil\u2066 \r';

beforeAll(async () => {
  const db = openDatabase(join(dataDir, 'library.sqlite'));
  const library = new Library(db);
  await storeInterview(library, 'ferry', hostile);
  await library.createHighlight({ transcriptId: 'ferry', startMs: 8000, endMs: 10_500, note: hostile });
  await library.createStory(`Story ${hostile}`);
  const glossaries = new Glossaries(new GlossaryStore(db));
  const glossary = await glossaries.named('Newsroom', { create: true });
  await glossaries.add(glossary.id, { term: 'Alvarez', note: hostile });
  await new Recordings(db).start(join(dataDir, `interview ${hostile}.wav`), {
    sampleRate: 16_000,
    channels: 1,
  });
  db.close();
});

describe('terminal escapes in what the library holds', () => {
  it.each([
    ['jobs', ['jobs']],
    ['show', ['show', 'ferry']],
    ['search', ['search', 'ferry']],
    ['highlights', ['highlights']],
    ['story list', ['story', 'list']],
    ['glossary list', ['glossary', 'list']],
    ['recordings', ['recordings']],
  ])(
    '%s shows them as escapes, never as controls',
    async (_name, args) => {
      const run = await runCliProcess(args, env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout + run.stderr).not.toMatch(actedOnByTerminal);
      expect(run.stdout).toContain('\\u001b[31mALERT\\u001b]0;owned\\u0007');
    },
    30_000,
  );

  it('a message naming the title neutralises it too', async () => {
    const run = await runCliProcess(['show', `no-such-${hostile}`], env);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toMatch(actedOnByTerminal);
    expect(run.stderr).toContain('\\u001b[2J');
  }, 30_000);

  it('--json keeps the title exactly as stored', async () => {
    const run = await runCliProcess(['jobs', '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(actedOnByTerminal);
    expect((JSON.parse(run.stdout) as { title: string }[]).map((job) => job.title)).toEqual([hostile]);
  }, 30_000);
});
