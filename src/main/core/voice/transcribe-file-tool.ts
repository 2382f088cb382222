import { basename, dirname, extname, join } from 'node:path';
import { z } from 'zod';
import type { JobRecord, Library } from '../library/library';
import type { LibraryTool } from '../library-tools/library-tools';
import { isMediaFile } from '../media/file-range';

/**
 * The voice agent's one tool that acts: "transcribe the council meeting from yesterday" starts
 * a transcription of a recording the reporter names, looked for in the folders their recent
 * transcripts came from (where new recordings of the same story usually land). Spoken names
 * are loose, so files are matched by words, tolerating a mistaken letter or two.
 */

export interface TranscribeFileDeps {
  /** File names in a folder (an unreadable folder gives none). */
  listFolder(folder: string): Promise<string[]>;
  /** Submits the file to the scheduler, as the app's "Transcribe" does. */
  submit(path: string): Promise<JobRecord>;
}

/** How many recent transcripts lend their folders to the search. */
const RECENT_JOBS = 20;
/** A file must match at least this share of the spoken words. */
const MIN_SCORE = 0.6;

const transcribeArgs = z.object({
  file_name: z
    .string()
    .min(1)
    .max(300)
    .describe('The recording as the reporter named it, e.g. "council meeting march".'),
});

export function transcribeFileTool(deps: TranscribeFileDeps): LibraryTool<typeof transcribeArgs> {
  return {
    name: 'transcribe_file',
    description:
      "Starts transcribing an audio or video file the reporter names, found in the folders of the library's recent recordings.",
    args: transcribeArgs,
    async run(library, { file_name: spoken }) {
      const folders = await recentFolders(library);
      if (folders.length === 0) {
        return { error: 'There are no recent recordings yet, so there is no folder to look in.' };
      }
      const files = (
        await Promise.all(
          folders.map(async (folder) =>
            (await deps.listFolder(folder).catch(() => []))
              .filter(isMediaFile)
              .map((name) => join(folder, name)),
          ),
        )
      ).flat();
      const ranked = files
        .map((path) => ({ path, score: matchScore(spoken, basename(path, extname(path))) }))
        .filter((candidate) => candidate.score >= MIN_SCORE)
        .sort((a, b) => b.score - a.score);
      const best = ranked[0];
      if (!best) {
        return { error: `No recording matching "${spoken}" in ${folders.join(', ')}.`, folders };
      }
      const tied = ranked.filter((candidate) => candidate.score === best.score);
      if (tied.length > 1) {
        return {
          error: `Several recordings match "${spoken}"; ask the reporter which one.`,
          candidates: tied.map((candidate) => basename(candidate.path)),
        };
      }
      const job = await deps.submit(best.path);
      return {
        started: {
          transcript_id: job.id,
          title: job.title,
          file: basename(best.path),
          folder: dirname(best.path),
        },
      };
    },
  };
}

/** Folders of the recent transcripts' recordings, newest first, each once. */
export async function recentFolders(library: Library): Promise<string[]> {
  const jobs = await library.list({ limit: RECENT_JOBS });
  const paths = jobs.map((job) => job.audioPath ?? (job.sourceKind === 'file' ? job.source : null));
  return [...new Set(paths.filter((path): path is string => path !== null).map((path) => dirname(path)))];
}

function words(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/([a-z])([0-9])/g, '$1 $2')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** Levenshtein distance, stopping early past `limit`. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}

function wordsMatch(spoken: string, written: string): boolean {
  if (spoken === written) return true;
  if (spoken.length >= 4 && written.startsWith(spoken)) return true;
  // One slip per three letters: "counsel" for "council", "marsh" for "march".
  const tolerance = Math.floor(Math.min(spoken.length, written.length) / 3);
  return tolerance > 0 && distance(spoken, written, tolerance) <= tolerance;
}

/**
 * Share of the spoken words found in the file name (0..1), with a small bonus for a name with
 * no extra words, so "council meeting" prefers council-meeting.wav to council-meeting-notes.wav.
 */
export function matchScore(spoken: string, fileName: string): number {
  const said = words(spoken).filter((word) => !FILLER.has(word));
  const written = words(fileName);
  if (said.length === 0 || written.length === 0) return 0;
  const found = said.filter((word) => written.some((candidate) => wordsMatch(word, candidate))).length;
  const extra = written.filter((candidate) => !said.some((word) => wordsMatch(word, candidate))).length;
  return found / said.length - extra * 0.01;
}

const FILLER = new Set([
  'the',
  'a',
  'an',
  'file',
  'recording',
  'audio',
  'video',
  'of',
  'from',
  'my',
  'called',
  'named',
]);
