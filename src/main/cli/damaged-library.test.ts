import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { startEmulator, type RunningEmulator } from '../../../test/emulator/server';
import { storeInterview } from '../core/export/library-fixture.test-kit';
import { openDatabase } from '../core/library/database';
import { Library } from '../core/library/library';
import { runCliProcess, type CliRun } from './cli-process.test-kit';

/**
 * A page of the library written over (a failing disk, a sync program), for real: a copy of a
 * library with an interview, a highlight and a story has one b-tree page overwritten with
 * random-looking bytes, then each command a journalist runs meets it as a real child process.
 */
const recording = resolve(import.meta.dirname, '../../../test/fixtures/press-statement.wav');
const seedDir = mkdtempSync(join(tmpdir(), 'verbatim-damage-seed-'));
const seedLibrary = join(seedDir, 'library.sqlite');
let emulator: RunningEmulator;
let highlightId = 0;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  const db = openDatabase(seedLibrary);
  const library = new Library(db);
  // Enough transcripts that the transcripts table spans many pages.
  for (let n = 0; n < 60; n++) await storeInterview(library, `other-${n}`, `Council meeting ${n}`);
  await storeInterview(library, 'ferry', 'Interview about the ferry contract');
  highlightId = (await library.createHighlight({ transcriptId: 'ferry', startMs: 8000, endMs: 10_500 })).id;
  await library.createStory('Ferry piece');
  db.close();
}, 120_000);
afterAll(() => emulator.close());

/** A data folder holding a copy of the library with `page` written over. */
function damagedCopy(page: (db: Database.Database) => number): { dataDir: string; library: string } {
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-damaged-'));
  const library = join(dataDir, 'library.sqlite');
  copyFileSync(seedLibrary, library);
  const db = new Database(library, { readonly: true });
  const pageNumber = page(db);
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  const bytes = readFileSync(library);
  let noise = pageNumber * 7919;
  for (let at = (pageNumber - 1) * pageSize; at < pageNumber * pageSize; at++) {
    noise = (noise * 1103515245 + 12345) % 2147483648;
    bytes[at] = 0x80 | ((noise >> 16) % 0x40); // never a valid page type (2, 5, 10 or 13)
  }
  writeFileSync(library, bytes);
  return { dataDir, library };
}

function rootPageOf(name: string): (db: Database.Database) => number {
  return (db) =>
    (db.prepare('SELECT rootpage FROM sqlite_schema WHERE name = ?').get(name) as { rootpage: number })
      .rootpage;
}

/** A leaf in the middle of a table: not on the first or last row's path, so opening reads past it. */
function middleLeafOf(name: string): (db: Database.Database) => number {
  return (db) => {
    const leaves = db
      .prepare("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY path")
      .all(name) as { pageno: number }[];
    expect(leaves.length).toBeGreaterThan(4);
    return leaves[Math.floor(leaves.length / 2)]!.pageno;
  };
}

async function serviceRequests(): Promise<{ method: string; path: string }[]> {
  const log = (await (await fetch(`${emulator.url}/__admin/requests`)).json()) as {
    requests: { method: string; path: string }[];
  };
  return log.requests;
}

function commandsOn(dataDir: string): string[][] {
  return [
    ['jobs'],
    ['show', 'ferry'],
    ['search', 'ferry'],
    ['edit', 'ferry', '--replace', 'ferry=bridge'],
    ['export', 'ferry', '--format', 'txt', '--out', join(dataDir, 'ferry.txt')],
    ['highlight', 'ferry', '--from', '8', '--to', '10'],
    ['delete', 'ferry'],
    ['history', 'ferry'],
    ['revert', 'ferry'],
    ['story', 'add', 'Ferry piece', String(highlightId)],
    ['transcribe', recording],
  ];
}

function run(args: string[], dataDir: string): Promise<CliRun> {
  return runCliProcess(args, {
    VERBATIM_DATA_DIR: dataDir,
    VERBATIM_API_KEY: emulator.options.key,
    VERBATIM_TRANSCRIPTION_URL: emulator.url,
  });
}

function expectDamageSaid(result: CliRun, library: string, where: string): void {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(
    new RegExp(
      `^verbatim: The library file ${library} is damaged${where}, so Verbatim will not write to it\\. Quit Verbatim and run "npm run cli -- library repair" to rebuild what can be rebuilt, or restore it from a backup`,
    ),
  );
  expect(result.stderr).not.toMatch(/SqliteError|malformed|\n\s+at /);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
}

const damagedTables = [
  ['transcripts', 'transcripts', ' \\(in its transcripts table\\)'],
  ['sentences', 'sentences', ' \\(in its sentences table\\)'],
  ['the search index', 'sentences_fts_data', ' \\(in its search index\\)'],
  ["the stories' index", 'story_items_by_story', ' \\(in an index of its story_items table\\)'],
] as const;

describe('a library with a page written over', () => {
  it.each(damagedTables)(
    'damaged in %s: every command says so in a sentence, exits 1, and no paid job is sent',
    async (_what, btree, where) => {
      const { dataDir, library } = damagedCopy(rootPageOf(btree));
      const before = readFileSync(library);
      const requestsBefore = (await serviceRequests()).length;
      const results = await Promise.all(commandsOn(dataDir).map((args) => run(args, dataDir)));
      for (const result of results) expectDamageSaid(result, library, where);
      expect((await serviceRequests()).length).toBe(requestsBefore);
      expect(readFileSync(library).equals(before)).toBe(true);
    },
    300_000,
  );

  it('met deeper in a table by a command: said once, and from then on every open checks it whole', async () => {
    const { dataDir, library } = damagedCopy(middleLeafOf('transcripts'));
    const listed = await run(['jobs'], dataDir);
    expectDamageSaid(listed, library, '');
    const requestsBefore = (await serviceRequests()).length;
    // The transcript sent next would be written into the damaged table: refused at the door.
    const sent = await run(['transcribe', recording], dataDir);
    expectDamageSaid(sent, library, ' \\(in its transcripts table\\)');
    expect((await serviceRequests()).length).toBe(requestsBefore);
  }, 120_000);

  it('library repair rebuilds a damaged search index from the sentences, and search finds them again', async () => {
    const { dataDir, library } = damagedCopy(rootPageOf('sentences_fts_data'));
    expectDamageSaid(await run(['search', 'ferry'], dataDir), library, ' \\(in its search index\\)');

    const repaired = await run(['library', 'repair'], dataDir);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stdout).toMatch(
      new RegExp(
        `^Repaired the library ${library}: it was rebuilt from what could be read, and passes its check\\. The damaged file is kept as ${dataDir}/library-damaged-\\d{8}T\\d{6}\\.sqlite\\.\\n$`,
      ),
    );
    // Every interview says "The ferry contract was signed in March.": each is found again.
    const found = await run(['search', 'ferry', '--json', '--limit', '200'], dataDir);
    expect(found.code, found.stderr).toBe(0);
    const hits = (JSON.parse(found.stdout) as { hits: { transcriptId: string }[] }).hits;
    expect(new Set(hits.map((hit) => hit.transcriptId))).toEqual(
      new Set(['ferry', ...Array.from({ length: 60 }, (_, n) => `other-${n}`)]),
    );
    const story = await run(['story', 'add', 'Ferry piece', String(highlightId)], dataDir);
    expect(story.code, story.stderr).toBe(0);
    expect(existsSync(`${library}.damaged`)).toBe(false);
  }, 120_000);

  it('library repair refuses to rebuild a table of work, changes nothing, and names the backup', async () => {
    const { dataDir, library } = damagedCopy(rootPageOf('transcripts'));
    mkdirSync(join(dataDir, 'backups'));
    const backup = join(dataDir, 'backups', 'library-20261101T000000-daily.sqlite');
    copyFileSync(seedLibrary, backup);
    const before = readFileSync(library);
    const refused = await run(['library', 'repair'], dataDir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `verbatim: The transcripts table of the library ${library} is damaged, and it holds work that cannot be rebuilt from elsewhere. Restore it from a backup (copy a file from ${join(dataDir, 'backups')} over it), or move it away to start a new library. The newest automatic backup is ${backup}. Verbatim changed nothing.\n`,
    );
    expect(readFileSync(library).equals(before)).toBe(true);
  }, 120_000);
});
