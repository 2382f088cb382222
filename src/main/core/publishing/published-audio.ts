import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { VerbatimError } from '../../../shared/errors';
import type { TextChoice } from '../../../shared/redaction';
import { checkRecording, type RecordingLookup } from '../export/story-clips';
import { cutWav } from '../export/wav-clip';
import { fillRanges, type ByteRewrite } from '../media/file-range';
import type { PlayableRecording } from '../media/redacted-recording';
import type { AudioClip, AudioChunk, AudioProgress } from '../newsroom/newsroom-archive';
import type { Publication } from '../newsroom/publication';
import { sniffFormat } from '../transcription/recording-file';

/**
 * The audio that goes with a publication (issue #35, point 4): the recording as published when
 * the reporter asks for it, and each highlight's clip always. Both are heard as the transcript
 * reads: a redacted transcript's recording is the one its player plays (the service's redacted
 * copy, or silence over the redacted words), and its clips are cut as a story's clips are
 * (story-clips.ts), so an editor checks a quote against exactly what an export would give.
 */

/** Where the library's recordings are found, as the player and the story clips find them. */
export interface PublishedAudioSources {
  recordingOf: (transcriptId: string, audio: TextChoice) => Promise<PlayableRecording | undefined>;
  findRecording: RecordingLookup;
}

/** The archive's audio calls, as the sender uses them (NewsroomArchive implements them). */
export interface NewsroomAudioWriter {
  putAudioChunk(chunk: AudioChunk): Promise<void>;
  audioProgress(transcriptId: string, revision: number, clip: AudioClip): Promise<AudioProgress>;
  /** The checksum and length of what the archive holds of the clip, read back as the reporter. */
  audioDigest(transcriptId: string, revision: number, clip: AudioClip): Promise<AudioDigest>;
}

export interface AudioDigest {
  sha256: string | null;
  bytes: number;
}

/** How much audio goes in one chunk: small enough for one statement, large enough to be few. */
export const defaultAudioChunkBytes = 1024 * 1024;

const mimeTypes: Record<string, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  mp4: 'audio/mp4',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  webm: 'audio/webm',
};

/** The recording as published, opened for positional reads: its bytes with redaction applied. */
export interface PublishedRecordingFile {
  byteLength: number;
  mimeType: string;
  read: (position: number, length: number) => Promise<Uint8Array<ArrayBuffer>>;
  close(): Promise<void>;
}

/** The recording as published, or a sentence saying why there is none to send. */
export type PublishedRecordingOpen = { ok: true; file: PublishedRecordingFile } | { ok: false; why: string };

export async function openPublishedRecording(
  sources: PublishedAudioSources,
  transcriptId: string,
  title: string,
): Promise<PublishedRecordingOpen> {
  const playable = await sources.recordingOf(transcriptId, 'redacted');
  if (!playable)
    return {
      ok: false,
      why: `"${title}" was published without its recording: it is not on this computer (it was transcribed from a link).`,
    };
  if (playable.kind === 'refused')
    return {
      ok: false,
      why: `"${title}" was published without its recording: ${lowerFirst(playable.reason)}`,
    };
  let handle: FileHandle;
  try {
    handle = await open(playable.path, 'r');
  } catch {
    return {
      ok: false,
      why: `"${title}" was published without its recording: it is no longer at ${playable.path} (moved, renamed or on a drive that is not connected); relink it and publish again with its audio.`,
    };
  }
  const byteLength = (await handle.stat()).size;
  const head = Buffer.alloc(64);
  await handle.read(head, 0, 64, 0);
  const rewrite: ByteRewrite | undefined = playable.rewrite;
  return {
    ok: true,
    file: {
      byteLength,
      mimeType: mimeTypes[sniffFormat(head) ?? ''] ?? 'application/octet-stream',
      read: async (position, length) => {
        const bytes = Buffer.alloc(Math.max(0, Math.min(length, byteLength - position)));
        const { bytesRead } = await handle.read(bytes, 0, bytes.length, position);
        const read = bytes.subarray(0, bytesRead);
        if (rewrite) fillRanges(read, position, rewrite);
        return new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
      },
      close: () => handle.close(),
    },
  };
}

function lowerFirst(sentence: string): string {
  return sentence.charAt(0).toLowerCase() + sentence.slice(1);
}

/** The publication's `audio`: what the archive will hold of the recording as published. */
export async function describePublishedRecording(
  file: PublishedRecordingFile,
  chunkBytes = defaultAudioChunkBytes,
): Promise<NonNullable<Publication['audio']>> {
  const hash = createHash('sha256');
  for (let position = 0; position < file.byteLength; position += chunkBytes)
    hash.update(await file.read(position, chunkBytes));
  return { byteLength: file.byteLength, sha256: hash.digest('hex'), mimeType: file.mimeType };
}

/** Each highlight's clip, cut as a story's clip of the same span is, and the ones that could not be. */
export interface HighlightClips {
  clips: { highlight: number; bytes: Uint8Array }[];
  /** Sentences: why a highlight's sound is not sent. */
  skipped: string[];
}

export async function cutHighlightClips(
  sources: PublishedAudioSources,
  publication: Pick<Publication, 'transcriptId' | 'highlights'>,
): Promise<HighlightClips> {
  if (publication.highlights.length === 0) return { clips: [], skipped: [] };
  const checked = await checkRecording(publication.transcriptId, sources.findRecording);
  if (!checked.ok) return { clips: [], skipped: [`The highlights' audio was not sent: ${checked.why}.`] };
  const { handle, layout, silence } = checked.recording;
  const lengthMs = (layout.frames * 1000) / layout.sampleRate;
  const clips: HighlightClips['clips'] = [];
  const skipped: string[] = [];
  try {
    for (const [highlight, span] of publication.highlights.entries()) {
      if (span.startMs >= lengthMs || span.endMs <= span.startMs) {
        skipped.push(
          `The audio of highlight ${highlight + 1} was not sent: its time is past the end of the recording.`,
        );
        continue;
      }
      clips.push({ highlight, bytes: await cutWav(handle, layout, span.startMs, span.endMs, silence) });
    }
  } finally {
    await handle.close();
  }
  return { clips, skipped };
}

/**
 * Sends the chunks of a clip the archive does not hold yet, read as they go (`read`), so an
 * interrupted upload resumes where it stopped and no chunk goes twice.
 */
export async function uploadClip(
  writer: NewsroomAudioWriter,
  target: { transcriptId: string; revision: number; clip: AudioClip },
  byteLength: number,
  read: (position: number, length: number) => Promise<Uint8Array<ArrayBuffer>>,
  chunkBytes = defaultAudioChunkBytes,
): Promise<void> {
  const { transcriptId, revision, clip } = target;
  const held = new Set((await writer.audioProgress(transcriptId, revision, clip)).chunkIndexes);
  const chunks = Math.ceil(byteLength / chunkBytes);
  for (let chunkIndex = 0; chunkIndex < chunks; chunkIndex++) {
    if (held.has(chunkIndex)) continue;
    const bytes = await read(chunkIndex * chunkBytes, chunkBytes);
    await writer.putAudioChunk({ transcriptId, revision, clip, chunkIndex, bytes });
  }
}

/** Checks what the archive holds of the recording against what was published, after its last chunk. */
export async function verifyUploadedRecording(
  writer: NewsroomAudioWriter,
  publication: Publication,
): Promise<void> {
  const expected = publication.audio;
  if (!expected) return;
  const held = await writer.audioDigest(publication.transcriptId, publication.revision, 'recording');
  if (held.sha256 !== expected.sha256 || held.bytes !== expected.byteLength)
    throw new VerbatimError(
      'conflict',
      `The recording the newsroom holds of "${publication.title}" is not the one published (${held.bytes.toLocaleString('en')} of ${expected.byteLength.toLocaleString('en')} bytes, another checksum): the file may have changed since; publish it again with its audio.`,
    );
}
