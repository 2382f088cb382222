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
