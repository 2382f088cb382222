import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../core/library/database';
import { Library } from '../../core/library/library';
import {
  completedTranscriptFromLines,
  misheardTimings,
  storeFinished,
} from '../../core/library/completed-transcript.test-kit';
import { passwordOf } from '../../core/newsroom/newsroom-archive.test-kit';
import type { NewsroomServer } from '../../core/newsroom/newsroom-server.test-kit';
import { runCliProcess, startCliProcess, type CliRun, type StartedCliProcess } from '../cli-process.test-kit';

/**
 * Test support for publishing from the command line against a real newsroom: a reporter's data
 * folder holding finished interviews, and `newsroom …` run in it as that reporter.
 */
export interface ReporterFolder {
  dataDir: string;
  /** The folder's library, opened beside the command line's processes. */
  library: Library;
  ids: string[];
  /** How many sentences interview `id` has. */
  sentencesOf(id: string): number;
}

/**
 * `count` finished interviews, `<prefix>0`…, the k-th with k + 2 sentences. The archive keys a
 * transcript by reporter and id: each test takes its own prefix.
 */
export async function reporterFolder(count: number, prefix: string): Promise<ReporterFolder> {
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-publish-'));
  const library = new Library(openDatabase(join(dataDir, 'library.sqlite')));
  const ids = Array.from({ length: count }, (_, k) => `${prefix}${k}`);
  for (const [k, id] of ids.entries()) {
    const lines = Array.from(
      { length: k + 2 },
      (_, n) => [n % 2 === 0 ? 'A' : 'B', `The harbour ${id} line ${n} opens.`, n * 3000] as const,
    );
    await storeFinished(
      library,
      id,
      `Harbour interview ${id}`,
      completedTranscriptFromLines(lines, misheardTimings, {
        transcript: { id: `remote-${id}`, language_code: 'en' },
      }),
    );
  }
  return { dataDir, library, ids, sentencesOf: (id) => ids.indexOf(id) + 2 };
}

/** The environment of `user` publishing from `folder` to `url` (the server's unless given). */
export function reporterEnv(
  server: NewsroomServer,
  folder: ReporterFolder,
  user: string,
  url = server.urlFor(user),
): Record<string, string> {
  return {
    VERBATIM_DATA_DIR: folder.dataDir,
    VERBATIM_NEWSROOM_URL: url,
    VERBATIM_NEWSROOM_PASSWORD: passwordOf(user),
  };
}

export function newsroomRun(args: string[], env: Record<string, string>): Promise<CliRun> {
  return runCliProcess(['newsroom', ...args], env);
}

export function startNewsroomRun(args: string[], env: Record<string, string>): StartedCliProcess {
  return startCliProcess(['newsroom', ...args], env);
}

/**
 * What the archive holds of `reporter`'s transcripts, read behind the app: per transcript, its
 * revision and how many sentence and highlight rows it has.
 */
export async function archiveRows(
  server: NewsroomServer,
  reporter: string,
): Promise<Map<string, { revision: number; sentences: number }>> {
  const { rows } = await server.pool.query<{ transcript_id: string; revision: number; sentences: string }>(
    `SELECT t.transcript_id, t.revision,
            (SELECT count(*) FROM verbatim.published_sentences s
              WHERE s.reporter = t.reporter AND s.transcript_id = t.transcript_id) AS sentences
       FROM verbatim.published_transcripts t WHERE t.reporter = $1`,
    [reporter],
  );
  return new Map(
    rows.map((row) => [row.transcript_id, { revision: row.revision, sentences: Number(row.sentences) }]),
  );
}

/** Each transcript's newest revision asked for in the library, and that nothing waits. */
export async function newestRevisions(folder: ReporterFolder): Promise<Map<string, number>> {
  const revisions = new Map<string, number>();
  for (const id of folder.ids) {
    const publication = await folder.library.newsroomPublication(id);
    if (publication) revisions.set(id, publication.revisionRequested);
  }
  return revisions;
}

/** The bytes the archive holds of one of `reporter`'s clips ('recording' or 'highlight N'), read behind the app. */
export async function archivedAudio(
  server: NewsroomServer,
  reporter: string,
  transcriptId: string,
  clip: string,
): Promise<Buffer> {
  const { rows } = await server.pool.query<{ bytes: Buffer }>(
    `SELECT bytes FROM verbatim.published_audio_chunks
      WHERE reporter = $1 AND transcript_id = $2 AND clip = $3 ORDER BY chunk_index`,
    [reporter, transcriptId, clip],
  );
  return Buffer.concat(rows.map((row) => row.bytes));
}

/**
 * Records every chunk any process tries to store (a BEFORE INSERT trigger fires for a row that
 * ON CONFLICT then drops), so a test can see that no chunk was sent twice; returns how many
 * tries each (transcript, clip, chunk) had.
 */
export async function countChunkTries(server: NewsroomServer): Promise<() => Promise<Map<string, number>>> {
  await server.pool.query(`
    CREATE TABLE IF NOT EXISTS public.audio_chunk_tries (transcript_id text, clip text, chunk_index int);
    CREATE OR REPLACE FUNCTION public.note_audio_chunk_try() RETURNS trigger
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
      BEGIN
        INSERT INTO public.audio_chunk_tries VALUES (NEW.transcript_id, NEW.clip, NEW.chunk_index);
        RETURN NEW;
      END $$;
    CREATE OR REPLACE TRIGGER note_audio_chunk_try BEFORE INSERT ON verbatim.published_audio_chunks
      FOR EACH ROW EXECUTE FUNCTION public.note_audio_chunk_try();`);
  return async () => {
    const { rows } = await server.pool.query<{ key: string; tries: string }>(
      `SELECT transcript_id || ' ' || clip || ' ' || chunk_index AS key, count(*) AS tries
         FROM public.audio_chunk_tries GROUP BY 1`,
    );
    return new Map(rows.map((row) => [row.key, Number(row.tries)]));
  };
}
