import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseWebPort } from './web-port';
import { startTypeScriptProcess } from '../main/cli/cli-process.test-kit';

describe("the web host port (VERBATIM_WEB_PORT, the demo's --port)", () => {
  it('takes a whole number from 0 to 65535, and nothing as 0: a free port', () => {
    expect(parseWebPort('5173', '--port')).toBe(5173);
    expect(parseWebPort(' 0 ', '--port')).toBe(0);
    expect(parseWebPort(undefined, '--port')).toBe(0);
    expect(parseWebPort('', 'VERBATIM_WEB_PORT')).toBe(0);
    for (const text of ['abc', '65536', '-1', '80.5', '0x50'])
      expect(() => parseWebPort(text, 'VERBATIM_WEB_PORT')).toThrow(
        `VERBATIM_WEB_PORT must be a port number from 0 to 65535 (0 picks a free one), not "${text}".`,
      );
  });

  it('npm run start:web refuses a VERBATIM_WEB_PORT that is no port, in a sentence, exit code 2', async () => {
    const run = await startTypeScriptProcess(resolve(import.meta.dirname, 'start.ts'), [], {
      VERBATIM_WEB_PORT: 'eighty',
      VERBATIM_DATA_DIR: mkdtempSync(join(tmpdir(), 'verbatim-web-port-')),
    }).finished;
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      'verbatim: VERBATIM_WEB_PORT must be a port number from 0 to 65535 (0 picks a free one), not "eighty".',
    );
  });
});
