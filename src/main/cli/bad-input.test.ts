import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliProcess } from './cli-process.test-kit';
import { storeInterview } from '../core/export/library-fixture.test-kit';
import { openDatabase } from '../core/library/database';
import { Library } from '../core/library/library';

const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-bad-input-'));
const outDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-bad-input-out-'));
const statement = resolve(import.meta.dirname, '../../../test/fixtures/press-statement.wav');

beforeAll(async () => {
  const db = openDatabase(join(dataDir, 'library.sqlite'));
  await storeInterview(new Library(db), 'ferry');
  db.close();
});

function cli(args: string[]) {
  // Nothing here may reach a service: the address is a closed loopback port.
  return runCliProcess(args, {
    VERBATIM_DATA_DIR: dataDir,
    VERBATIM_API_KEY: 'key',
    VERBATIM_TRANSCRIPTION_URL: 'http://127.0.0.1:9',
  });
}

describe('input the command line refuses with a sentence and exit code 2, creating nothing', () => {
  it('an address it cannot fetch (ftp://) is not taken for a file name', async () => {
    const run = await cli(['transcribe', 'ftp://archive.example/interview.mp3']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '"ftp://archive.example/interview.mp3" is not an address Verbatim can fetch: give an http:// or https:// link, or a file on this computer.',
    );
    expect(run.stderr).not.toContain('was not found');
  });

  it('a title longer than the app allows (300 characters)', async () => {
    const run = await cli(['transcribe', statement, '--title', 'a'.repeat(10_000)]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('A title can be at most 300 characters long; this one has 10000.');
    const jobs = await runCliProcess(['jobs', '--json'], { VERBATIM_DATA_DIR: dataDir });
    expect((JSON.parse(jobs.stdout) as { id: string }[]).map((job) => job.id)).toEqual(['ferry']);
  });

  it('an export range past the end of the recording writes no empty file', async () => {
    const out = join(outDir, 'late.txt');
    const run = await cli(['export', 'ferry', '--format', 'txt', '--out', out, '--range', '10:00-11:00']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /Nothing was said between 00:10:00 and 00:11:00 \(the recording is \d\d:\d\d:\d\d long\); nothing was written\./,
    );
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(outDir)).toEqual([]);
  });
});

describe('an id that names no transcript', () => {
  it('is said the same way by every command that takes one, never as a transcript since deleted', async () => {
    const runs = await Promise.all(
      [
        ['show', 'nowhere'],
        ['export', 'nowhere', '--format', 'txt', '--out', join(outDir, 'nowhere.txt')],
        ['highlight', 'nowhere', '--from', '0', '--to', '5'],
        ['delete', 'nowhere'],
        ['edit', 'nowhere', '--replace', 'a=b'],
      ].map((args) => cli(args)),
    );
    for (const run of runs) {
      expect(run.stderr).toBe('verbatim: No transcript with id nowhere.\n');
      expect(run.code).toBe(runs[0]?.code);
    }
    expect(runs[0]?.code).not.toBe(0);
    expect(readdirSync(outDir)).not.toContain('nowhere.txt');
  }, 120_000);
});

describe('a service address with a password in it', () => {
  it('is refused before any request, and the password is never printed', async () => {
    const run = await runCliProcess(['catalog', 'models'], {
      VERBATIM_DATA_DIR: dataDir,
      VERBATIM_CATALOG_KEY: 'key',
      VERBATIM_CATALOG_URL: 'https://reporter:hunter2@127.0.0.1:9/api',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'VERBATIM_CATALOG_URL: Leave the user name and password out of the address: keys have their own variables.',
    );
    expect(run.stderr + run.stdout).not.toContain('hunter2');
  });
});
