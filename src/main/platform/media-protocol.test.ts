import { describe, expect, it, vi } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ElectronMock } from './electron-mock.test-kit';

vi.mock('electron', async () => (await import('./electron-mock.test-kit')).electronMock());

const electron = (await import('electron')) as unknown as ElectronMock;
const { handleMediaProtocol, mediaScheme, registerMediaScheme } = await import('./media-protocol');

describe('the recording protocol', () => {
  it('is registered as a streaming, secure scheme before the app is ready', () => {
    registerMediaScheme();
    expect(electron.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      { scheme: mediaScheme, privileges: expect.objectContaining({ stream: true, secure: true }) as object },
    ]);
  });

  it('serves a known transcript recording with ranges, and nothing else', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'verbatim-media-')), 'interview.wav');
    writeFileSync(path, 'RIFFdata0123456789');
    handleMediaProtocol((id) => Promise.resolve(id === 't 1' ? path : undefined));
    const handler = electron.protocol.handle.mock.calls.at(-1)![1] as (request: Request) => Promise<Response>;

    const ranged = await handler(
      new Request('verbatim-media://recording/t%201', { headers: { Range: 'bytes=4-7' } }),
    );
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe('bytes 4-7/18');
    expect(await ranged.text()).toBe('data');

    const whole = await handler(new Request('verbatim-media://recording/t%201'));
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('audio/wav');

    expect((await handler(new Request('verbatim-media://recording/other'))).status).toBe(404);
    expect((await handler(new Request('verbatim-media://elsewhere/t%201'))).status).toBe(404);
  });
});
