import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { VerbatimError } from '../../../shared/errors';
import type { NewsroomTranscript } from '../../../shared/newsroom-search';
import { newsroomCopyId, type KeepOutcome, type Library } from '../library/library';
import type { NewsroomConnection } from './newsroom-connection';
import { openNewsroomTranscript } from './newsroom-search';

/**
 * "Keep in my library" (issue #35, point 6): a colleague's published transcript saved into the
 * reporter's own library as a read-only copy, with its recording when it was published with it,
 * so it plays, highlights and quotes offline like any transcript. Everything is read as the
 * reporter's own login, so row-level security decides what may be kept: one they may not see is
 * "not found", as in the newsroom reader.
 */

/** Where the recordings of copies kept from the newsroom are, in the data folder. */
export function keptNewsroomAudioDir(dataFolder: string): string {
  return join(dataFolder, 'newsroom-audio');
}

export interface KeepProgress {
  /** Bytes of the recording downloaded so far, and in all. */
  bytes: number;
  totalBytes: number;
}

export interface KeepOptions {
  /** The folder the copies' recordings are kept in (the data folder's newsroom-audio). */
  audioDir: string;
  onProgress?: (progress: KeepProgress) => void;
}

export interface KeptCopy {
  /** The copy's id in the library. */
  id: string;
  outcome: KeepOutcome;
  created: boolean;
  /** The newsroom revision the copy now holds, and its title. */
  revision: number;
  title: string;
  /** Whether the copy has its recording (false when it was published without it). */
  hasAudio: boolean;
}

const extensions: Record<string, string> = {
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/ogg': 'ogg',
  'audio/flac': 'flac',
  'audio/webm': 'webm',
};

export async function keepNewsroomTranscript(
  newsroom: NewsroomConnection,
  library: Library,
  ref: { reporter: string; transcriptId: string },
  options: KeepOptions,
): Promise<KeptCopy> {
  const transcript = await openNewsroomTranscript(newsroom, ref.reporter, ref.transcriptId);
  const id = newsroomCopyId(transcript.reporter, transcript.transcriptId);
  const existing = await library.newsroomOrigin(id);
  if (existing && existing.revision >= transcript.revision) {
    const job = await library.requireJob(id);
    return {
      id,
      outcome: 'unchanged',
      created: false,
      revision: existing.revision,
      title: job.title,
      hasAudio: job.audioPath !== null,
    };
  }
  let audio: { path: string; sha256: string } | null = null;
  let downloaded: string | null = null;
  if (transcript.hasAudio) {
    const job = existing ? await library.requireJob(id) : undefined;
    const held = await publishedRecordingOf(newsroom, transcript);
    if (held && existing?.audioSha256 === held.sha256 && job?.audioPath)
      // The newer revision kept the same recording: it is not downloaded again.
      audio = { path: job.audioPath, sha256: held.sha256 };
    else if (held) {
      downloaded = await downloadPublishedRecording(newsroom, transcript, held, id, options);
      audio = { path: downloaded, sha256: held.sha256 };
    }
  }
  try {
    const kept = await library.keepNewsroomCopy({
      reporter: transcript.reporter,
      transcriptId: transcript.transcriptId,
      desk: transcript.desk,
      revision: transcript.revision,
      title: transcript.title,
      recordedAt: transcript.recordedAt,
      languageCode: transcript.languageCode,
      durationMs: transcript.durationMs,
      speakers: transcript.speakers,
      sentences: transcript.sentences,
      paragraphs: transcript.paragraphs,
      checks: transcript.checkedParagraphs,
      audio,
    });
    if (kept.replacedAudioPath) await rm(kept.replacedAudioPath, { force: true });
    // Another keep of the same transcript stored this revision first: its recording is the one kept.
    if (kept.outcome === 'unchanged' && downloaded) await rm(downloaded, { force: true });
    return {
      id,
      outcome: kept.outcome,
      created: kept.outcome === 'created',
      revision: transcript.revision,
      title: transcript.title,
      hasAudio: audio !== null,
    };
  } catch (error) {
    if (downloaded) await rm(downloaded, { force: true });
    throw error;
  }
}

interface HeldRecording {
  sha256: string;
  bytes: number;
  mimeType: string;
}

/** What the archive says the revision's recording is: its checksum, length and type. */
async function publishedRecordingOf(
  newsroom: NewsroomConnection,
  transcript: NewsroomTranscript,
): Promise<HeldRecording | undefined> {
  const rows = await newsroom.query<{
    revision: number;
    audio_sha256: string | null;
    audio_bytes: string | null;
    audio_mime_type: string | null;
  }>(
    `SELECT revision, audio_sha256, audio_bytes, audio_mime_type FROM verbatim.published_transcripts
     WHERE reporter = $1 AND transcript_id = $2`,
    [transcript.reporter, transcript.transcriptId],
  );
  const row = rows[0];
  if (!row) throw notFoundAnyMore(transcript);
  if (row.revision !== transcript.revision) throw republished(transcript);
  if (row.audio_sha256 === null || row.audio_bytes === null) return undefined;
  return {
    sha256: row.audio_sha256,
    bytes: Number(row.audio_bytes),
    mimeType: row.audio_mime_type ?? 'application/octet-stream',
  };
}

/**
 * Downloads the revision's recording chunk by chunk into `audioDir`, hashing as it goes, and
 * keeps it only when it is exactly what the colleague published (length and SHA-256): a
 * recording still on its way, or changed, is refused in words and nothing is left behind. A
 * download that was interrupted (the connection lost, the app quit) leaves its partial file,
 * and the next keep of the same revision goes on after its last whole chunk.
 */
async function downloadPublishedRecording(
  newsroom: NewsroomConnection,
  transcript: NewsroomTranscript,
  held: HeldRecording,
  id: string,
  options: KeepOptions,
): Promise<string> {
  await mkdir(options.audioDir, { recursive: true });
  const path = join(
    options.audioDir,
    `${id}-r${transcript.revision}.${extensions[held.mimeType] ?? 'audio'}`,
  );
  const partial = `${path}.part`;
  const key = [transcript.reporter, transcript.transcriptId, transcript.revision];
  // Their lengths, not their bytes: where each chunk ends in the file tells which are there already.
  const chunks = await newsroom.query<{ chunk_index: number; byte_length: number }>(
    `SELECT chunk_index, octet_length(bytes) AS byte_length FROM verbatim.published_audio_chunks
     WHERE reporter = $1 AND transcript_id = $2 AND revision = $3 AND clip = 'recording' ORDER BY chunk_index`,
    key,
  );
  const resumed = chunksDownloaded(chunks, await partialLength(partial));
  const hash = createHash('sha256');
  let bytes = resumed.bytes;
  if (bytes > 0) {
    // A chunk half written when it stopped is read again: the file ends at the last whole one.
    await truncate(partial, bytes);
    for await (const piece of createReadStream(partial)) hash.update(piece as Buffer);
  }
  const file = await open(partial, bytes > 0 ? 'a' : 'w');
  try {
    options.onProgress?.({ bytes, totalBytes: held.bytes });
    for (const { chunk_index: chunkIndex } of chunks.slice(resumed.chunks)) {
      const found = await newsroom.query<{ bytes: Buffer }>(
        `SELECT bytes FROM verbatim.published_audio_chunks
         WHERE reporter = $1 AND transcript_id = $2 AND revision = $3 AND clip = 'recording' AND chunk_index = $4`,
        [...key, chunkIndex],
      );
      const chunk = found[0]?.bytes;
      // The colleague republished meanwhile: this revision's chunks went with it, and so does the part.
      if (!chunk) {
        await file.close();
        await rm(partial, { force: true });
        throw republished(transcript);
      }
      hash.update(chunk);
      await file.write(chunk);
      bytes += chunk.byteLength;
      options.onProgress?.({ bytes, totalBytes: held.bytes });
    }
  } finally {
    // Closed, not removed, when it stopped: the next keep goes on from it.
    await file.close().catch(() => undefined);
  }
  const sha256 = hash.digest('hex');
  if (sha256 !== held.sha256 || bytes !== held.bytes) {
    await rm(partial, { force: true });
    throw new VerbatimError(
      'conflict',
      `The newsroom holds ${bytes.toLocaleString('en')} of the ${held.bytes.toLocaleString('en')} bytes of the recording of "${transcript.title}", and they are not the recording ${transcript.reporter} published: it may still be on its way. Keep it again later, or ask ${transcript.reporter} to publish it again with its audio.`,
    );
  }
  await rename(partial, path);
  return path;
}

/** The length of an interrupted download's partial file; 0 when there is none. */
async function partialLength(partial: string): Promise<number> {
  try {
    return (await stat(partial)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}

/**
 * How many of the chunks, in order, a partial file of `length` bytes holds whole, and their
 * bytes. What follows the last whole chunk is dropped and read again.
 */
function chunksDownloaded(
  chunks: readonly { byte_length: number }[],
  length: number,
): { chunks: number; bytes: number } {
  let count = 0;
  let bytes = 0;
  for (const chunk of chunks) {
    if (bytes + chunk.byte_length > length) break;
    bytes += chunk.byte_length;
    count++;
  }
  return { chunks: count, bytes };
}

function republished(transcript: NewsroomTranscript): VerbatimError {
  return new VerbatimError(
    'conflict',
    `${transcript.reporter} published a new revision of "${transcript.title}" while you kept it: keep it again to have the newest.`,
  );
}

function notFoundAnyMore(transcript: NewsroomTranscript): VerbatimError {
  return new VerbatimError(
    'not_found',
    `${transcript.reporter} took "${transcript.title}" out of the newsroom while you kept it: it is no longer there to keep.`,
  );
}
