import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeServices, type ComposedServices } from '../compose';
import { MemorySecrets } from '../core/secrets/secret-store';
import { createLogger, MemorySink } from '../core/log/logger';
import { heldSecrets } from '../core/log/open-log';
import { createDispatcher } from './dispatcher';
import { createHandlers } from './create-handlers';
import { unwrap } from '../../shared/ipc/envelope';

const opened: ComposedServices[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((services) => services.close()));
});

function renderer(): { sink: MemorySink; call: (input: unknown) => Promise<unknown> } {
  const sink = new MemorySink();
  const secrets = new MemorySecrets({ transcriptionKey: 'stored-transcription-key-1' });
  const services = composeServices({
    dataDir: mkdtempSync(join(tmpdir(), 'verbatim-log-write-')),
    appInfo: { name: 'Verbatim', version: '0', platform: 'linux' },
    secrets,
    logger: createLogger({ sinks: [sink], secrets: () => heldSecrets(secrets) }),
  });
  opened.push(services);
  const dispatch = createDispatcher(createHandlers(services));
  return { sink, call: async (input) => unwrap(await dispatch('log.write', input)) };
}

describe('log.write: the renderer’s line in main’s log', () => {
  it('writes at the level asked, marked as the renderer’s', async () => {
    const { sink, call } = renderer();
    expect(
      await call({ level: 'error', message: 'the reader failed to open', details: 'at Reader' }),
    ).toEqual({});
    await call({ level: 'info', message: 'library opened with 12 transcripts' });
    expect(
      sink.records.map(({ level, scope, message, details }) => ({ level, scope, message, details })),
    ).toEqual([
      { level: 'error', scope: 'renderer', message: 'the reader failed to open', details: 'at Reader' },
      { level: 'info', scope: 'renderer', message: 'library opened with 12 transcripts', details: undefined },
    ]);
  });

  it('scrubs what the page sends: no stored key, no transcript text', async () => {
    const { sink, call } = renderer();
    await call({
      level: 'warn',
      message: 'request with stored-transcription-key-1 failed',
      details: JSON.stringify({ id: 'tr-1', text: 'The minister signed the ferry contract' }),
    });
    const text = sink.text();
    expect(text).not.toContain('stored-transcription-key-1');
    expect(text).not.toContain('minister');
    expect(text).toContain('"id":"tr-1"');
  });

  it('refuses a level it does not take and a message over 2,000 characters', async () => {
    const { sink, call } = renderer();
    await expect(call({ level: 'debug', message: 'x' })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(call({ level: 'info', message: 'x'.repeat(2001) })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(call({ level: 'info', message: 'x', details: 'y'.repeat(20_001) })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    expect(sink.records).toEqual([]);
  });
});
