import { open } from 'node:fs/promises';
import { type TextChoice, showsRedaction } from '../../../shared/redaction';
import type { Word } from '../../../shared/library';
import type { Library } from '../library/library';
import { type TimeSpan, type WavLayout, inspectWav, silenceOver } from '../export/wav-clip';
import { sniffFormat } from '../transcription/recording-file';
import type { ByteRewrite } from './file-range';
import type { ServiceRedactedAudio } from './service-redacted-audio';

/**
 * Wherever a transcript's words are shown redacted, its recording is heard redacted too: a
 * clip, a quote or a story played, the reader (unless the journalist chose the original words).
 * That is the service's redacted recording where it made one (redact_pii_audio), and otherwise
 * the recording with silence over every redacted word: a word the service wrote with its marks
 * ("###-####", "[PHONE_NUMBER]"), or one the journalist's corrections still show so.
 */

/** How a transcript's recording is to be heard redacted; null for a transcript without redaction. */
export interface RecordingRedaction {
  /** The spans of its redacted words, sorted by start. */
  spans: TimeSpan[];
  /** The service's redacted recording in the data folder, when it made one. */
  serviceRecording: string | null;
}

type TimedWord = Pick<Word, 'start' | 'end' | 'text'>;

const isTimedWord = (value: unknown): value is TimedWord =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as TimedWord).start === 'number' &&
  typeof (value as TimedWord).end === 'number' &&
  typeof (value as TimedWord).text === 'string';

/**
 * The spans of a redacted transcript's redacted words: the service's words as it sent them (a
 * correction that retyped "[PHONE_NUMBER]" does not make the number unsaid) and the words as
 * corrected now. None for a transcript the service did not redact.
 */
export function redactedWordSpans(
  transcript: Record<string, unknown> | null | undefined,
  words: readonly TimedWord[],
): TimeSpan[] {
  if (transcript?.redact_pii !== true) return [];
  const serviceWords = Array.isArray(transcript.words) ? transcript.words.filter(isTimedWord) : [];
  const spans = new Map<string, TimeSpan>();
  for (const word of [...serviceWords, ...words])
    if (showsRedaction(word.text) && word.end > word.start)
      spans.set(`${word.start}-${word.end}`, { start: word.start, end: word.end });
  return [...spans.values()].sort((a, b) => a.start - b.start || a.end - b.end);
}

export type RedactionLookup = (transcriptId: string) => Promise<RecordingRedaction | null>;

/** How many transcripts' redacted spans are remembered between a player's requests. */
const rememberedTranscripts = 16;

/** How the library's transcripts are to be heard redacted. */
export function libraryRedactions(
  library: Pick<Library, 'get' | 'transcriptJson' | 'sentences'>,
  serviceAudio: Pick<ServiceRedactedAudio, 'pathOf'>,
): RedactionLookup {
  // A player asks again at every seek: a three-hour transcript's words are read again only once
  // it changed (a correction, a relink), not for every range of its recording.
  const remembered = new Map<string, { updatedAt: number; spans: TimeSpan[] | null }>();
  const spansOf = async (transcriptId: string): Promise<TimeSpan[] | null> => {
    const job = await library.get(transcriptId);
    // The service redacts only what was asked for it: a transcript whose request did not is not
    // read (a three-hour transcript's service JSON costs a reader's open twice over).
    if (job?.options.redact_pii !== true) return null;
    const known = remembered.get(transcriptId);
    if (known?.updatedAt === job.updatedAt) return known.spans;
    const transcript = await library.transcriptJson(transcriptId);
    const spans =
      transcript?.redact_pii === true
        ? redactedWordSpans(
            transcript,
            (await library.sentences(transcriptId)).flatMap((sentence) => sentence.words),
          )
        : null;
    remembered.delete(transcriptId);
    remembered.set(transcriptId, { updatedAt: job.updatedAt, spans });
    if (remembered.size > rememberedTranscripts) remembered.delete(remembered.keys().next().value ?? '');
    return spans;
  };
  return async (transcriptId) => {
    const spans = await spansOf(transcriptId);
    return spans ? { spans, serviceRecording: await serviceAudio.pathOf(transcriptId) } : null;
  };
}

/** A recording as a player may hear it: a file, with the bytes of its redacted words silenced. */
export type PlayableRecording =
  | { kind: 'file'; path: string; rewrite?: ByteRewrite }
  /** A redacted transcript's recording that cannot be silenced here; the reason is a sentence. */
  | { kind: 'refused'; reason: string };

/** The layout of a WAV file; 'other' for any other file, 'missing' for one that is not there. */
async function wavLayoutOf(path: string): Promise<WavLayout | 'other' | 'missing'> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return 'missing';
  }
  try {
    const head = Buffer.alloc(64);
    await handle.read(head, 0, 64, 0);
    if (sniffFormat(head) !== 'wav') return 'other';
    const inspected = await inspectWav(handle, (await handle.stat()).size);
    return inspected.ok ? inspected.layout : 'other';
  } finally {
    await handle.close();
  }
}

/**
 * What a player of the library is served for a transcript: its recording as it is for a
 * transcript without redaction or when the journalist asks for the original; otherwise the
 * service's redacted recording, or the recording with its redacted words silenced. Undefined
 * when there is no recording to play.
 */
export function playableRecordings(
  library: Pick<Library, 'get'>,
  redactionOf: RedactionLookup,
): (transcriptId: string, audio: TextChoice) => Promise<PlayableRecording | undefined> {
  return async (transcriptId, audio) => {
    const job = await library.get(transcriptId);
    if (!job) return undefined;
    const redaction = audio === 'original' ? null : await redactionOf(transcriptId);
    if (redaction?.serviceRecording) return { kind: 'file', path: redaction.serviceRecording };
    if (!job.audioPath) return undefined;
    if (!redaction || redaction.spans.length === 0) return { kind: 'file', path: job.audioPath };
    const layout = await wavLayoutOf(job.audioPath);
    // A file that is gone is served as gone: the player says it was moved or deleted.
    if (layout === 'missing') return { kind: 'file', path: job.audioPath };
    if (layout === 'other')
      return {
        kind: 'refused',
        reason:
          'This transcript is redacted, and Verbatim can silence its redacted words only in a WAV recording. Transcribe it again with “Also produce a redacted recording” to hear it.',
      };
    return { kind: 'file', path: job.audioPath, rewrite: silenceOver(layout, redaction.spans) };
  };
}
