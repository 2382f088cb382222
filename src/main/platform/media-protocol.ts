import { protocol } from 'electron';
import { Readable } from 'node:stream';
import { serveFileRange } from '../core/media/file-range';

export const mediaScheme = 'verbatim-media';

/** Must run before the app is ready: lets <audio>/<video> stream and seek from the scheme. */
export function registerMediaScheme(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: mediaScheme,
      privileges: { standard: true, secure: true, stream: true, supportFetchAPI: true },
    },
  ]);
}

/**
 * verbatim-media://recording/<transcript id> serves that transcript's recording with range
 * requests, so seeking works; only files the library knows can be reached this way.
 */
export function handleMediaProtocol(
  audioPathOf: (transcriptId: string) => Promise<string | null | undefined>,
): void {
  protocol.handle(mediaScheme, async (request) => {
    const url = new URL(request.url);
    const id = decodeURIComponent(url.pathname.replace(/^\//, ''));
    const path = url.hostname === 'recording' ? await audioPathOf(id) : undefined;
    if (!path) return new Response('Not found', { status: 404 });
    const file = await serveFileRange(path, request.headers.get('range'));
    const body = file.body ? (Readable.toWeb(file.body) as ReadableStream<Uint8Array>) : null;
    return new Response(body, { status: file.status, headers: file.headers });
  });
}
