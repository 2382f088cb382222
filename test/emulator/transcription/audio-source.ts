import { readFile } from 'node:fs/promises';
import type { EmulatorApp, Region } from '../types';
import type { TranscriptionState } from './transcription-state';
import { UPLOAD_PATH } from './upload-routes';

/** Why the audio could not be fetched; its message is the transcript's `error`. */
export class AudioDownloadError extends Error {}

function unreachable(audioUrl: string): AudioDownloadError {
  // The wording of the real service's download failure.
  return new AudioDownloadError(
    `Download error, unable to download ${audioUrl}. Please make sure the file exists and is accessible from the internet.`,
  );
}

/**
 * The bytes behind a transcript's audio_url: an upload of the emulator itself (read from disk,
 * and only in the region it was uploaded to, as the real service keeps uploads per region) or
 * any other http(s) URL, fetched.
 */
export async function loadAudio(
  app: EmulatorApp,
  state: TranscriptionState,
  region: Region,
  audioUrl: string,
  signal: AbortSignal,
): Promise<Uint8Array> {
  const url = new URL(audioUrl);
  const uploadId = UPLOAD_PATH.exec(url.pathname)?.groups?.uploadId;
  if (uploadId !== undefined) {
    const regions: Region[] = region === 'us' ? ['us', 'eu'] : ['eu', 'us'];
    const owner = regions.find((candidate) => new URL(app.baseUrl(candidate)).origin === url.origin);
    if (owner === region) {
      const upload = state.uploads(region).get(uploadId);
      if (!upload) throw unreachable(audioUrl);
      return readFile(upload.path);
    }
    if (owner) throw unreachable(audioUrl);
  }

  let response: Response;
  try {
    response = await fetch(url, { signal });
  } catch {
    throw unreachable(audioUrl);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new AudioDownloadError(
      `Download error: ${response.status} ${response.statusText || 'error'} for url ${audioUrl}`,
    );
  }
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * The real service's message for a file it cannot decode names the file type it detected;
 * a rough sniff of the first bytes stands in for its detector.
 */
export function transcodingFailedMessage(bytes: Uint8Array): string {
  return `Transcoding failed. File does not appear to contain audio. File type is ${sniffFileType(bytes)}.`;
}

function sniffFileType(bytes: Uint8Array): string {
  const head = Buffer.from(bytes.subarray(0, 512)).toString('latin1');
  if (bytes.length === 0) return 'application/x-empty (empty)';
  if (/^\s*<(!doctype html|html)/i.test(head)) return 'text/html (HTML document, ASCII text)';
  if (/^\s*[[{]/.test(head)) return 'application/json (JSON data)';
  if (head.startsWith('RIFF')) return 'audio/x-wav (RIFF data, unreadable WAVE contents)';
  // EBML's magic number opens every WebM and Matroska file.
  if (head.startsWith('\x1a\x45\xdf\xa3')) return 'video/webm (WebM)';
  // Printable ASCII (plus whitespace) throughout the sample reads as text.
  if (/^[\t\n\r\x20-\x7e]*$/.test(head)) return 'text/plain (ASCII text)';
  return 'application/octet-stream (data)';
}
