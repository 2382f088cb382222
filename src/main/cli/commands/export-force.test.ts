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
  await storeInterview(new Library(db), 'ferry');
  db.close();
});

function exportProcess(args: string[]) {
  return runCliProcess(['export', 'ferry', ...args], { VERBATIM_DATA_DIR: dataDir });
}

describe('verbatim export over an existing file', () => {
  it('refuses without --force, leaving the file; with --force replaces it and keeps its mode', async () => {
    const out = join(outDir, 'ferry.txt');
    writeFileSync(out, 'the version the editor has', { mode: 0o600 });
    const refused = await exportProcess(['--format', 'txt', '--out', out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`ferry.txt already exists in ${outDir}`);
    expect(readFileSync(out, 'utf8')).toBe('the version the editor has');

    const forced = await exportProcess(['--format', 'txt', '--out', out, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).not.toBe('the version the editor has');
    expect(statSync(out).mode & 0o777).toBe(0o600);
  });
});
