import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openDatabase } from '../../core/library/database';
import { runCliProcess } from '../cli-process.test-kit';

const statement = resolve(import.meta.dirname, '../../../../test/fixtures/press-statement.wav');

describe('transcribe with a language that is not a code', () => {
  it('refuses "english" before anything is stored or sent, naming the code to use (exit 2)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-language-'));
    // Port 9 (discard) is never listened on here: had anything been sent, the job would fail
    // differently and a job row would exist.
    const run = await runCliProcess(
      ['transcribe', statement, '--options-json', '{"language_code": "english"}'],
      {
        VERBATIM_DATA_DIR: dataDir,
        VERBATIM_API_KEY: 'key',
        VERBATIM_TRANSCRIPTION_URL: 'http://127.0.0.1:9',
      },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"english" is not a language code the service knows. For English use "en".');
    const db = openDatabase(join(dataDir, 'library.sqlite'));
    try {
      expect(db.prepare('SELECT count(*) AS n FROM transcripts').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});
