import { protocol } from 'electron';
import { Readable } from 'node:stream';
import { serveFileRange } from '../core/media/file-range';
import type { PlayableRecording } from '../core/media/redacted-recording';
import type { TextChoice } from '../../shared/redaction';

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
 * requests, so seeking works; only files the library knows can be reached this way. It is the
 * redacted recording where the transcript's words are redacted, unless `?audio=original` asks
 * for the original (the reader's "Show unredacted text").
 */
export function handleMediaProtocol(
  recordingOf: (transcriptId: string, audio: TextChoice) => Promise<PlayableRecording | undefined>,
): void {
  protocol.handle(mediaScheme, async (request) => {
    const url = new URL(request.url);
    const id = decodeURIComponent(url.pathname.replace(/^\//, ''));
    const audio = url.searchParams.get('audio') === 'original' ? 'original' : 'redacted';
    const recording = url.hostname === 'recording' ? await recordingOf(id, audio) : undefined;
    if (!recording) return new Response('Not found', { status: 404 });
    if (recording.kind === 'refused') return new Response(recording.reason, { status: 403 });
    const file = await serveFileRange(recording.path, request.headers.get('range'), recording.rewrite);
    const body = file.body ? (Readable.toWeb(file.body) as ReadableStream<Uint8Array>) : null;
    return new Response(body, { status: file.status, headers: file.headers });
  });
}
