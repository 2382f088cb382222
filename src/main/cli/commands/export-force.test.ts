import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { storeInterview } from '../../core/export/library-fixture.test-kit';
import { openDatabase } from '../../core/library/database';
import { Library } from '../../core/library/library';
import { runCliProcess } from '../cli-process.test-kit';

const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-force-'));
const outDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-force-out-'));

beforeAll(async () => {
  const db = openDatabase(join(dataDir, 'library.sqlite'));
  const library = new Library(db);
  await storeInterview(library, 'ferry');
  const story = await library.createStory('Ferry contract');
  await library.addTextToStory(story.id, 'The council decided in March.');
  db.close();
});

function exportProcess(args: string[]) {
  return runCliProcess(['export', 'ferry', ...args], { VERBATIM_DATA_DIR: dataDir });
}

/** A file a colleague left where the command is told to write. */
function taken(name: string): string {
  const path = join(outDir, name);
  writeFileSync(path, 'the version the editor has');
  return path;
}

describe('verbatim export over an existing file', () => {
  it('refuses without --force, leaving the file; with --force replaces it and keeps its mode', async () => {
    const out = join(outDir, 'ferry.txt');
    writeFileSync(out, 'the version the editor has', { mode: 0o600 });
    const refused = await exportProcess(['--format', 'txt', '--out', out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `verbatim: ferry.txt already exists in ${outDir}. Choose another name, or add --force to replace it.\n`,
    );
    expect(readFileSync(out, 'utf8')).toBe('the version the editor has');

    const forced = await exportProcess(['--format', 'txt', '--out', out, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).not.toBe('the version the editor has');
    expect(statSync(out).mode & 0o777).toBe(0o600);
  }, 60_000);
});

describe('every command that writes a file names --force when the file is there', () => {
  it('story export', async () => {
    const out = taken('story.md');
    const run = await runCliProcess(['story', 'export', 'Ferry contract', '--format', 'md', '--out', out], {
      VERBATIM_DATA_DIR: dataDir,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `verbatim: story.md already exists in ${outDir}. Choose another name, or add --force to replace it.\n`,
    );
    expect(readFileSync(out, 'utf8')).toBe('the version the editor has');
  }, 60_000);

  it('glossary export', async () => {
    const out = taken('names.csv');
    const run = await runCliProcess(['glossary', 'export', out], { VERBATIM_DATA_DIR: dataDir });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `verbatim: names.csv already exists in ${outDir}. Choose another name, or add --force to replace it.\n`,
    );
    expect(readFileSync(out, 'utf8')).toBe('the version the editor has');
  }, 60_000);
});
