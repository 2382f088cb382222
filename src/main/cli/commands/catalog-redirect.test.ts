import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type LoggedRequest, type RunningEmulator } from '../../../../test/emulator/server';
import { runCliProcess } from '../cli-process.test-kit';

// Issue #32, point 12: the catalog's address redirected to another origin, which (rightly) got
// no key and refused the request; the command said "No catalog key is set", though one was.
let emulator: RunningEmulator;
let redirector: Server;
let redirectorUrl: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  // Another port is another origin: every request is sent on to the emulator.
  redirector = createServer((req, res) => {
    res.writeHead(307, { Location: `${emulator.url}${req.url ?? '/'}` });
    res.end();
  });
  await new Promise<void>((resolveListening) => redirector.listen(0, '127.0.0.1', resolveListening));
  redirectorUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await emulator.close();
  await new Promise((resolveClosed) => redirector.close(resolveClosed));
});

function environment(key: string | undefined): Record<string, string | undefined> {
  return {
    VERBATIM_DATA_DIR: mkdtempSync(join(tmpdir(), 'verbatim-catalog-redirect-')),
    VERBATIM_CATALOG_KEY: key,
    VERBATIM_MANAGEMENT_KEY: undefined,
    VERBATIM_CATALOG_URL: redirectorUrl,
  };
}

async function requestLog(): Promise<LoggedRequest[]> {
  return ((await (await fetch(`${emulator.url}/__admin/requests`)).json()) as { requests: LoggedRequest[] })
    .requests;
}

describe('catalog models at an address that redirects to another origin', () => {
  it('says which address redirected where, and that the key is not sent there', async () => {
    await fetch(`${emulator.url}/__admin/requests`, { method: 'DELETE' });
    const run = await runCliProcess(['catalog', 'models'], environment(emulator.options.key));
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `verbatim: The model catalog at ${redirectorUrl}/api/v1/models/user redirected to ${emulator.url}/api/v1/models/user, another address, which refused the request: Verbatim does not send your key to another address. If the model catalog is now at ${emulator.url}, set VERBATIM_CATALOG_URL to it.\n`,
    );
    // The key never reached the other origin.
    const reached = (await requestLog()).filter((request) => request.path.startsWith('/api/v1/'));
    expect(reached.length).toBeGreaterThan(0);
    for (const request of reached) expect(request.authorization).toBe('none');
  });
});
