import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { VerbatimError, withoutFullStop } from '../../../shared/errors';
import type { FetchLike } from '../http/http-client';
import { sniffFormat } from '../transcription/recording-file';

/**
 * The recordings the service redacted (redact_pii_audio), one a transcript, kept in the data
 * folder beside the library.
 *
 * The spec does not show the redacted-audio operation; this follows the real service.
 * `GET /v2/transcript/{id}/redacted-audio` answers `{ status: "redacted_audio_ready",
 * redacted_audio_url }`, a pre-signed storage address fetched without the API key that works for
 * 24 hours only. So the file is downloaded when the finished transcript is fetched, not when it
 * is first played. It is MP3 unless redact_pii_audio_quality asked for WAV; the redacted words
 * are a beep, or silence with override_audio_redaction_method "silence".
 */

/** The formats the service writes, by what their first bytes say, and the name each is kept under. */
const extensions: Readonly<Record<string, string>> = { wav: 'wav', mp3: 'mp3' };

export class ServiceRedactedAudio {
  constructor(
    private readonly folder: string,
    private readonly fetch: FetchLike,
  ) {}

  private pathFor(transcriptId: string, extension: string): string {
    // Ids are the library's own, but a file name must never step out of the folder.
    return join(this.folder, `${encodeURIComponent(transcriptId)}.${extension}`);
  }

  /** Where the transcript's redacted recording is kept, or null when the service made none. */
  async pathOf(transcriptId: string): Promise<string | null> {
    for (const extension of Object.values(extensions)) {
      const path = this.pathFor(transcriptId, extension);
      if ((await stat(path).catch(() => undefined))?.isFile()) return path;
    }
    return null;
  }

  /** Downloads the redacted recording at `url` (the service's answer) and keeps it; answers its path. */
  async keep(transcriptId: string, url: string, signal?: AbortSignal): Promise<string> {
    let response: Response;
    try {
      response = await this.fetch(url, { method: 'GET', ...(signal ? { signal } : {}) });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new VerbatimError(
        'network',
        `The redacted recording could not be downloaded from the service: ${withoutFullStop(error instanceof Error ? error.message : String(error))}.`,
      );
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new VerbatimError(
        'service',
        `The service did not hand over the redacted recording (it answered ${response.status}); the redacted words are silenced in the original recording instead.`,
        { status: response.status },
      );
    }
    await mkdir(this.folder, { recursive: true });
    const partial = this.pathFor(transcriptId, 'part');
    try {
      // fetch's body is Node's own web stream; the DOM typings a browser test compiles with differ.
      const body = response.body as NodeReadableStream<Uint8Array>;
      await pipeline(Readable.fromWeb(body), createWriteStream(partial), { signal });
      const format = sniffFormat(await firstBytes(partial));
      const extension = format === undefined ? undefined : extensions[format];
      if (!extension)
        throw new VerbatimError(
          'service',
          `The service's redacted recording is ${format ? format.toUpperCase() : 'not a recording Verbatim recognises'}, not the MP3 or WAV it makes.`,
        );
      await this.remove(transcriptId);
      const path = this.pathFor(transcriptId, extension);
      await rename(partial, path);
      return path;
    } catch (error) {
      await rm(partial, { force: true });
      if (error instanceof VerbatimError || signal?.aborted) throw error;
      throw new VerbatimError(
        'storage',
        `The redacted recording could not be saved in the data folder: ${withoutFullStop(error instanceof Error ? error.message : String(error))}.`,
      );
    }
  }

  /** Forgets the transcript's redacted recording, as when the transcript is deleted. */
  async remove(transcriptId: string): Promise<void> {
    await Promise.all(
      Object.values(extensions).map((extension) =>
        rm(this.pathFor(transcriptId, extension), { force: true }),
      ),
    );
  }
}

async function firstBytes(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(64);
    const { bytesRead } = await handle.read(head, 0, 64, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
