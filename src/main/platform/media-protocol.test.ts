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
    handleMediaProtocol((id) => Promise.resolve(id === 't 1' ? { kind: 'file', path } : undefined));
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

  it('asks for the redacted recording unless the page asks for the original, and says why one is refused', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'verbatim-media-')), 'interview.wav');
    writeFileSync(path, 'RIFF0000WAVEdata');
    const asked: string[] = [];
    handleMediaProtocol((id, audio) => {
      asked.push(audio);
      return Promise.resolve(
        audio === 'original'
          ? { kind: 'file', path }
          : { kind: 'file', path, rewrite: { ranges: [{ from: 12, to: 16 }], fill: 0 } },
      );
    });
    const handler = electron.protocol.handle.mock.calls.at(-1)![1] as (request: Request) => Promise<Response>;
    const redacted = await handler(new Request('verbatim-media://recording/t1'));
    expect(Buffer.from(await redacted.arrayBuffer())).toEqual(Buffer.from('RIFF0000WAVE\0\0\0\0'));
    const original = await handler(new Request('verbatim-media://recording/t1?audio=original'));
    expect(await original.text()).toBe('RIFF0000WAVEdata');
    expect(asked).toEqual(['redacted', 'original']);

    handleMediaProtocol(() => Promise.resolve({ kind: 'refused', reason: 'Not a WAV.' }));
    const refusing = electron.protocol.handle.mock.calls.at(-1)![1] as (
      request: Request,
    ) => Promise<Response>;
    const refused = await refusing(new Request('verbatim-media://recording/t1'));
    expect(refused.status).toBe(403);
    expect(await refused.text()).toBe('Not a WAV.');
  });
});
