import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../test/emulator/server';
import { storeInterview } from '../core/export/library-fixture.test-kit';
import { openDatabase } from '../core/library/database';
import { Library } from '../core/library/library';
import { runCliProcess, startTypeScriptProcess } from './cli-process.test-kit';

/** What a person at a terminal reads when something is wrong: their words, and exit codes as the README says. */
const statement = resolve(import.meta.dirname, '../../../test/fixtures/press-statement.wav');
const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-messages-'));
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed: 200 });
  const db = openDatabase(join(dataDir, 'library.sqlite'));
  await storeInterview(new Library(db), 'ferry');
  db.close();
});
afterAll(() => emulator.close());

const environment = { VERBATIM_DATA_DIR: dataDir, VERBATIM_TIME_SCALE: '200' };
const cli = (args: string[], env: Record<string, string> = {}) =>
  runCliProcess(args, { ...environment, ...env });
const emulatorCli = (args: string[]) =>
  startTypeScriptProcess(resolve(import.meta.dirname, '../../../test/emulator/cli.ts'), args, environment)
    .finished;

describe('the command line speaks of environment variables, not Settings', () => {
  it('a refused transcription key names VERBATIM_API_KEY', async () => {
    const result = await cli(['transcribe', statement, '--wait'], {
      VERBATIM_API_KEY: 'wrong-key',
      VERBATIM_TRANSCRIPTION_URL: emulator.url,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Check VERBATIM_API_KEY.');
    expect(result.stdout + result.stderr).not.toContain('Settings');
  });

  it('a missing catalog key is bad input (2), like a missing transcription key', async () => {
    const catalog = await cli(['catalog', 'models'], { VERBATIM_CATALOG_URL: emulator.url });
    expect(catalog.code).toBe(2);
    expect(catalog.stderr).toContain('Set VERBATIM_CATALOG_KEY to your model catalog key.');
    const transcribe = await cli(['transcribe', statement]);
    expect(transcribe.code).toBe(2);
    expect(transcribe.stderr).toContain('Set VERBATIM_API_KEY');
  });

  it('a refused catalog key names VERBATIM_CATALOG_KEY', async () => {
    const result = await cli(['catalog', 'models'], {
      VERBATIM_CATALOG_URL: emulator.url,
      VERBATIM_CATALOG_KEY: 'wrong',
    });
    expect(result.stderr).toContain('VERBATIM_CATALOG_KEY');
    expect(result.stderr).not.toContain('Settings');
  });
});

describe('exit codes and usage', () => {
  it('an export into a folder that does not exist is bad input (2), not a folder "no longer there"', async () => {
    const result = await cli(['export', 'ferry', '--format', 'txt', '--out', '/no/such/folder/ferry.txt']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'verbatim: There is no folder /no/such/folder. Check the path, or choose a folder that exists.\n',
    );
  });

  it("an unknown option gets the command's own usage, not Node's parser text", async () => {
    const result = await cli(['export', 'ferry', '--format', 'txt', '--frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^verbatim: unknown option --frobnicate for export\n\nUsage: npm run cli -- export <id> --format /,
    );
    expect(result.stderr).not.toContain('positional argument');
    expect(result.stderr).not.toContain('catalog models'); // only export's usage
  });
});

describe('the emulator on the command line', () => {
  it('a bad option is a sentence and exit 2', async () => {
    const result = await emulatorCli(['--prot', '9']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^emulator: unknown option --prot\nUsage: npm run emulator/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('a busy port is a sentence and exit 1', async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolveListen) => busy.listen(0, '127.0.0.1', () => resolveListen()));
    const port = (busy.address() as { port: number }).port;
    try {
      const result = await emulatorCli(['--port', String(port)]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`emulator: port ${port} is already in use`);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    } finally {
      busy.close();
    }
  });
});
