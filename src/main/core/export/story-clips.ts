import { existsSync } from 'node:fs';
import { type FileHandle, mkdir, open, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { VerbatimError, isVerbatimError } from '../../../shared/errors';
import type { Story, StoryItem } from '../../../shared/highlights';
import type { AtomicWriteOps } from '../../base/fs';
import { sniffFormat } from '../transcription/recording-file';
import { writeExportFile } from './export-file';
import type { RecordingRedaction } from '../media/redacted-recording';
import { hhmmss } from './export-model';
import { type TimeSpan, type WavLayout, cutWav, inspectWav } from './wav-clip';

/**
 * A folder of audio clips, one per quote of a story, cut from the recordings in the library.
 *
 * Only uncompressed WAV can be cut here (there is no decoder for MP3, M4A and the rest), so
 * every quote's source is checked before anything is written: a quote that cannot be cut is
 * reported in a sentence and the others are still written. The export never stops halfway
 * because of a source; a failed write removes the clips this run wrote and says why.
 *
 * A story shows a redacted transcript's quotes redacted (their words are the redacted words), so
 * their clips are redacted too: cut from the service's redacted recording when it made one as
 * WAV, or else from the recording with silence over every redacted word.
 */

type QuoteItem = Extract<StoryItem, { kind: 'quote' }>;

/**
 * How the library finds a transcript's recording (its title names it in messages), and how it is
 * to be heard redacted (null for a transcript without redaction).
 */
export type RecordingLookup = (
  transcriptId: string,
) => Promise<{ audioPath: string | null; title: string; redaction: RecordingRedaction | null }>;

export interface WrittenClip {
  /** The quote's place among the story's quotes, from 1. */
  number: number;
  path: string;
}

export interface SkippedClip {
  number: number;
  /** A whole sentence: which quote, and why it could not be cut. */
  reason: string;
}

export interface StoryClipsResult {
  folder: string;
  written: WrittenClip[];
  skipped: SkippedClip[];
}

export interface StoryClipsOptions {
  /** Replace clips already in the folder under the same names; otherwise the export is refused. */
  replace: boolean;
  ops?: AtomicWriteOps;
}

// Long enough to recognise the quote, short enough for every file system's 255-byte limit.
const nameWordsMaxChars = 60;

/** Characters Windows, macOS or Linux refuse (or read specially) in a file name. */
const unsafeInName = /[<>:"/\\|?*\p{Cc}]/gu;

/**
 * "03 Mayor Elena Alvarez - We signed the ferry contract.wav": numbered so the folder sorts in
 * story order, named by the speaker and the quote's opening words, safe on every OS. The number
 * comes first, so no name can be one Windows reserves (CON, NUL…) or start with a dot.
 */
export function clipFileName(number: number, total: number, item: QuoteItem): string {
  const digits = Math.max(2, String(total).length);
  const clean = (s: string): string =>
    s.normalize('NFC').replace(unsafeInName, ' ').replace(/\s+/g, ' ').trim();
  const speaker = clean(item.speakerName ?? '');
  const chars = Array.from(clean(item.text));
  let words = chars.slice(0, nameWordsMaxChars).join('');
  // Cut at a word boundary when the quote is longer, so the name does not end mid-word.
  if (chars.length > nameWordsMaxChars && words.includes(' ')) words = words.slice(0, words.lastIndexOf(' '));
  const label = [speaker, words.replace(/[. ]+$/, '')].filter((part) => part !== '').join(' - ');
  return `${String(number).padStart(digits, '0')}${label ? ` ${label}` : ''}.wav`;
}

/** "MP3" for the reader, from what the file's first bytes say it is (or its extension). */
function formatName(path: string, head: Buffer): string {
  const sniffed = sniffFormat(head);
  if (sniffed === 'mp4') return 'M4A/MP4';
  if (sniffed) return sniffed.toUpperCase();
  const extension = /\.([A-Za-z0-9]{1,5})$/.exec(path)?.[1];
  return extension ? extension.toUpperCase() : 'unrecognised';
}

export interface OpenRecording {
  handle: FileHandle;
  layout: WavLayout;
  /** The spans to silence in every clip cut from it: the redacted words, when it is the original. */
  silence: readonly TimeSpan[];
}

/** A recording checked once, however many quotes come from it: open and cuttable, or why not. */
export type RecordingCheck =
  { ok: true; recording: OpenRecording; title: string } | { ok: false; why: string };

/**
 * The transcript's recording opened to cut quotes from, as they are heard (redacted where its
 * words are), or why it cannot be: the newsroom's highlight clips are cut from it as a story's are.
 * The caller closes an open one's handle.
 */
export async function checkRecording(
  transcriptId: string,
  findRecording: RecordingLookup,
): Promise<RecordingCheck> {
  let found: Awaited<ReturnType<RecordingLookup>>;
  try {
    found = await findRecording(transcriptId);
  } catch (error) {
    if (isVerbatimError(error) && error.code === 'not_found')
      return { ok: false, why: 'its transcript is no longer in the library' };
    throw error;
  }
  const service = found.redaction?.serviceRecording;
  if (service) {
    // The service's own redacted recording, when it is a WAV that can be cut; an MP3 cannot.
    const redacted = await openWav(service);
    if (redacted) return { ok: true, recording: { ...redacted, silence: [] }, title: found.title };
  }
  const checked = await checkOriginal(found);
  return checked.ok
    ? { ...checked, recording: { ...checked.recording, silence: found.redaction?.spans ?? [] } }
    : checked;
}

/** The service's redacted recording opened to be cut, or undefined when it is not a WAV to cut. */
async function openWav(path: string): Promise<Omit<OpenRecording, 'silence'> | undefined> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (!handle) return undefined;
  const inspected = await inspectWav(handle, (await handle.stat()).size);
  if (inspected.ok) return { handle, layout: inspected.layout };
  await handle.close();
  return undefined;
}

type OriginalCheck =
  { ok: true; recording: Omit<OpenRecording, 'silence'>; title: string } | { ok: false; why: string };

async function checkOriginal(found: { audioPath: string | null; title: string }): Promise<OriginalCheck> {
  const title = `"${found.title}"`;
  if (!found.audioPath)
    return {
      ok: false,
      why: `the recording of ${title} is not on this computer (it was transcribed from a link)`,
    };
  let handle: FileHandle;
  let size: number;
  try {
    handle = await open(found.audioPath, 'r');
    size = (await handle.stat()).size;
  } catch {
    return {
      ok: false,
      why: `the recording of ${title} is no longer at ${found.audioPath} (moved, renamed or on a drive that is not connected)`,
    };
  }
  const head = Buffer.alloc(64);
  await handle.read(head, 0, 64, 0);
  if (sniffFormat(head) !== 'wav') {
    await handle.close();
    const format = formatName(found.audioPath, head);
    return {
      ok: false,
      why: `the recording of ${title} is ${format}, and Verbatim can cut clips only from WAV recordings (it has no ${format} decoder); convert ${basename(found.audioPath)} to WAV to cut this quote`,
    };
  }
  const inspected = await inspectWav(handle, size);
  if (!inspected.ok) {
    await handle.close();
    return { ok: false, why: `the recording of ${title} cannot be cut: ${inspected.reason}` };
  }
  return { ok: true, recording: { handle, layout: inspected.layout }, title: found.title };
}

interface PlannedClip {
  number: number;
  item: QuoteItem;
  recording: OpenRecording;
  path: string;
}

function opening(item: QuoteItem): string {
  const words = item.text.trim().split(/\s+/);
  return words.length > 6 ? `${words.slice(0, 6).join(' ')}…` : item.text.trim();
}

/**
 * Cuts every quote of the story it can into `folder`. All sources are checked (and every target
 * name, unless replacing) before the first clip is written.
 */
export async function exportStoryClips(
  story: Story,
  folder: string,
  findRecording: RecordingLookup,
  options: StoryClipsOptions,
): Promise<StoryClipsResult> {
  const quotes = story.items.filter((item): item is QuoteItem => item.kind === 'quote');
  const checks = new Map<string, Promise<RecordingCheck>>();
  const planned: PlannedClip[] = [];
  const skipped: SkippedClip[] = [];
  try {
    for (const [index, item] of quotes.entries()) {
      const number = index + 1;
      const skip = (why: string): void => {
        skipped.push({ number, reason: `Quote ${number} ("${opening(item)}") was not cut: ${why}.` });
      };
      if (item.transcriptId === null) {
        skip('its transcript was deleted from the library');
        continue;
      }
      if (item.missing) {
        skip('its words were deleted in the transcript');
        continue;
      }
      let check = checks.get(item.transcriptId);
      if (!check) {
        check = checkRecording(item.transcriptId, findRecording);
        checks.set(item.transcriptId, check);
      }
      const checked = await check;
      if (!checked.ok) {
        skip(checked.why);
        continue;
      }
      const { layout } = checked.recording;
      const lengthMs = (layout.frames * 1000) / layout.sampleRate;
      if (item.startMs >= lengthMs || item.endMs <= item.startMs) {
        skip(
          `its time (${hhmmss(item.startMs)}) is past the end of the recording of "${checked.title}" (${hhmmss(lengthMs)})`,
        );
        continue;
      }
      planned.push({
        number,
        item,
        recording: checked.recording,
        path: join(folder, clipFileName(number, quotes.length, item)),
      });
    }

    if (planned.length > 0) await prepareFolder(folder, planned, options.replace);
    const written: WrittenClip[] = [];
    try {
      for (const clip of planned) {
        const bytes = await cutWav(
          clip.recording.handle,
          clip.recording.layout,
          clip.item.startMs,
          clip.item.endMs,
          clip.recording.silence,
        );
        await writeExportFile(clip.path, bytes, {
          replace: options.replace,
          ...(options.ops ? { ops: options.ops } : {}),
        });
        written.push({ number: clip.number, path: clip.path });
      }
    } catch (error) {
      // A full disk halfway through: take back this run's clips so the folder is not half a story.
      await Promise.all(written.map((clip) => rm(clip.path, { force: true })));
      throw error;
    }
    return { folder, written, skipped };
  } finally {
    for (const check of checks.values()) {
      const checked = await check.catch(() => undefined);
      if (checked?.ok) await checked.recording.handle.close();
    }
  }
}

/** Makes the clips folder if needed and refuses, before writing, clips that would replace files. */
async function prepareFolder(folder: string, planned: PlannedClip[], replace: boolean): Promise<void> {
  const existing = await stat(folder).catch(() => undefined);
  if (existing && !existing.isDirectory())
    throw new VerbatimError(
      'invalid_input',
      `${folder} is a file, not a folder. Choose a folder for the clips.`,
      {
        path: folder,
      },
    );
  if (!existing) {
    try {
      await mkdir(folder, { recursive: true });
    } catch (error) {
      throw new VerbatimError(
        'storage',
        `Verbatim could not make the folder ${folder} for the clips: ${error instanceof Error ? error.message : String(error)}`,
        { path: folder },
      );
    }
  }
  if (replace) return;
  const taken = planned.filter((clip) => existsSync(clip.path)).map((clip) => basename(clip.path));
  if (taken.length > 0)
    throw new VerbatimError(
      'conflict',
      `${folder} already has ${taken.length === 1 ? 'a clip' : 'clips'} named ${taken.join(', ')}. Choose another folder, or say to replace them.`,
      { path: folder, files: taken },
    );
}
