import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeServices } from '../compose';
import { MemorySecrets } from '../core/secrets/secret-store';
import { createDispatcher } from './dispatcher';
import { createHandlers } from './create-handlers';
import { unwrap } from '../../shared/ipc/envelope';

/** A server someone typed (or planted) as the service's address: it records what reaches it. */
let stranger: Server;
let strangerUrl: string;
const seen: (string | undefined)[] = [];

beforeAll(async () => {
  stranger = createServer((request, response) => {
    seen.push(request.headers.authorization);
    response
      .writeHead(200, { 'Content-Type': 'application/json' })
      .end('{"transcripts":[],"page_details":{}}');
  });
  await new Promise<void>((resolve) => stranger.listen(0, '127.0.0.1', resolve));
  const address = stranger.address();
  strangerUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => stranger.close(() => resolve())));

function app(keys: { transcriptionKey?: string }) {
  const services = composeServices({
    dataDir: mkdtempSync(join(tmpdir(), 'verbatim-key-destinations-')),
    appInfo: { name: 'Verbatim', version: '0', platform: 'linux' },
    secrets: new MemorySecrets(keys),
  });
  const dispatch = createDispatcher(createHandlers(services));
  return {
    services,
    call: async <T>(method: string, input?: unknown) => unwrap(await dispatch(method, input)) as T,
  };
}

describe('a stored key and a new service address', () => {
  it('is not saved, nor the key sent there, until the journalist says yes; then Test connection uses it', async () => {
    const { services, call } = app({ transcriptionKey: 'the-reporters-key' });
    seen.length = 0;
    const refused = await call('settings.set', { transcriptionUrlUs: strangerUrl }).catch(
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({
      code: 'forbidden',
      message: `Verbatim would send your transcription key to ${strangerUrl}. Use this address only if you trust that server.`,
      details: { origin: strangerUrl, field: 'transcriptionUrlUs' },
    });
    expect((await services.settings.get()).transcriptionUrlUs).toBe('');
    expect(seen).toEqual([]);

    const saved = await call<{ transcriptionUrlUs: string }>('settings.set', {
      transcriptionUrlUs: strangerUrl,
      sendKeysTo: [strangerUrl],
    });
    expect(saved.transcriptionUrlUs).toBe(strangerUrl);
    await call('connection.test', { region: 'us' });
    expect(seen).toEqual(['the-reporters-key']);
    await services.close();
  });

  it('asks nothing when no key is stored, or when the address stays on the same server', async () => {
    const noKey = app({});
    expect(await noKey.call('settings.set', { gatewayUrl: strangerUrl })).toMatchObject({
      gatewayUrl: strangerUrl,
    });
    await noKey.services.close();

    const { services, call } = app({ transcriptionKey: 'k' });
    await call('settings.set', { gatewayUrl: `${strangerUrl}/v1`, sendKeysTo: [strangerUrl] });
    expect(await call('settings.set', { gatewayUrl: `${strangerUrl}/v2` })).toMatchObject({
      gatewayUrl: `${strangerUrl}/v2`,
    });
    await services.close();
  });
});
