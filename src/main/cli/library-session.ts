import { join } from 'node:path';
import { VerbatimError } from '../../shared/errors';
import { damagedLibraryError } from '../core/library/database';
import { markDamaged } from '../core/library/library-damage';
import { upgradeSayingEachStep, waitingForUpgrade } from '../core/library/library-upgrade';
import type { Region } from '../../shared/library';
import { createCore, type Core } from '../core/app-core';
import { openLog } from '../core/log/open-log';
import { MemorySecrets } from '../core/secrets/secret-store';
import { acceleratedClock, systemClock } from '../base/clock';
import type { CliIo, TerminalIo } from './cli-io';
import { dataFolderOf, networkBoundsOf, regionOf, timeScaleOf } from './environment';
import { describeJob } from './job-lines';
import { inCommandLineTerms } from './command-line-wording';
import type { JobRecord } from '../core/library/library';
import type { Logger } from '../core/log/logger';

/** The library and scheduler of the data folder, as the commands that read or send jobs use them. */
export interface LibrarySession {
  core: Core;
  /** Where new jobs go (VERBATIM_REGION). */
  region: Region;
  /** The app's one log file, as this run writes to it. */
  logger: Logger;
  /**
   * Resolves or rejects as `work` does, unless a library write fails first (disk full, folder
   * read-only): then it rejects with a sentence saying so and what to do.
   */
  untilStorageFails<T>(work: Promise<T>): Promise<T>;
  /** Ends the progress line, if one is shown, so what follows starts on a line of its own. */
  endProgress(): void;
  close(): Promise<void>;
}

/**
 * Opens the data folder's library as the command line: progress on a terminal unless the output
 * is JSON, the scheduler's clock at VERBATIM_TIME_SCALE, and a library write that fails ending
 * the run with a word (the scheduler keeps the job where it was, so `resume` finishes it later).
 * It logs to the app's one log file (Help → Show Log File shows command-line runs too); with
 * --verbose also to standard error, never to standard output, so piped and --json output stays
 * what it was.
 */
export function openLibrarySession(
  io: TerminalIo,
  { showProgress, verbose }: { showProgress: boolean; verbose: boolean },
): LibrarySession {
  const dataDir = dataFolderOf(io.env);
  const keys = new MemorySecrets({ transcriptionKey: io.env.VERBATIM_API_KEY });
  const { logger } = openLog({
    dataDir,
    level: verbose ? 'debug' : io.env.VERBATIM_LOG_LEVEL,
    secrets: () => keys,
    echo: verbose ? { write: (text: string) => io.err(text) } : undefined,
    scope: 'cli',
  });
  let failStorage: (error: VerbatimError) => void = () => undefined;
  const storageFailed = new Promise<never>((_, reject) => (failStorage = reject));
  storageFailed.catch(() => undefined);
  const region = regionOf(io.env);
  const progress = io.isTty && showProgress ? io.progress : undefined;
  const timeScale = timeScaleOf(io.env);
  const core = createCore({
    dataDir,
    processDescription: 'a Verbatim command line',
    logger,
    // A library busy for a moment (another process writing) is waited out, not reported.
    onStorageFailure: (_id, message) => {
      if (!/locked|busy/i.test(message)) failStorage(libraryWriteError(dataDir, message));
    },
    onWaitingForUpgrade: () => io.err(`verbatim: ${waitingForUpgrade}\n`),
    clock: timeScale === 1 ? systemClock : acceleratedClock(timeScale),
    apiKey: () => io.env.VERBATIM_API_KEY,
    networkBounds: networkBoundsOf(io.env),
    transcriptionUrl: () => io.env.VERBATIM_TRANSCRIPTION_URL,
    onJob: progress ? (job) => progress(describeJob(job)) : undefined,
    onUploadProgress: progress
      ? (_id, sent, total) => progress(`uploading ${Math.round((sent / total) * 100)}%`)
      : undefined,
  });
  return {
    core,
    region,
    logger,
    untilStorageFails: (work) => Promise.race([work, storageFailed]),
    endProgress: () => {
      if (progress) io.err('\n');
    },
    close: async () => {
      // The next process on the folder takes its jobs over at once; uploads this one is sending
      // (often for other command lines) finish first, or that one would send them again.
      await core.handOver((uploads) =>
        io.err(
          `verbatim: finishing ${uploads === 1 ? 'an upload' : `${uploads} uploads`} already under way before exiting, so that no recording is sent twice.\n`,
        ),
      );
      await core.close();
    },
  };
}

/**
 * Upgrades a library an older Verbatim left, its steps on standard error; a library at the
 * latest format, or none yet, is left as it is at once.
 */
export function upgradeOldLibrary(io: TerminalIo): Promise<void> {
  return upgradeSayingEachStep(join(dataFolderOf(io.env), 'library.sqlite'), (sentence) =>
    io.err(`verbatim: ${sentence}\n`),
  );
}

/** What a journalist reads when the library could not be written, and what to do about it. */
export function libraryWriteError(dataDir: string, message: string): VerbatimError {
  if (/malformed|not a database/i.test(message)) {
    const library = join(dataDir, 'library.sqlite');
    markDamaged(library);
    return damagedLibraryError(library);
  }
  const cause = /full/i.test(message)
    ? 'the disk is full'
    : /readonly|read-only/i.test(message)
      ? 'the library cannot be written to'
      : message;
  return new VerbatimError(
    'storage',
    `Could not save to the library in ${dataDir}: ${cause}. Nothing is lost: the service keeps the work. Free some space (or make the folder writable), then run "npm run cli -- resume".`,
  );
}

/**
 * After jobs were sent or retried: with --wait, until each has finished; without, until each
 * has reached the service (when this process sends the folder's jobs) or the sending process
 * has been named.
 */
export async function followJobs(
  session: LibrarySession,
  io: CliIo,
  ids: string[],
  { wait }: { wait: boolean },
): Promise<void> {
  const { core } = session;
  if (wait) await session.untilStorageFails(core.scheduler.settled(ids, () => io.err(waitingForOwner(core))));
  else if (core.ownership.owned) await session.untilStorageFails(waitUntilSubmitted(core, ids));
  else io.err(waitingForOwner(core, false));
}

async function waitUntilSubmitted(core: Core, ids: string[]): Promise<void> {
  for (;;) {
    const jobs = await Promise.all(ids.map((id) => core.library.get(id)));
    // A job stopped with its reason (a silent or unreachable service), or deleted meanwhile,
    // is not waited on.
    if (
      jobs.every(
        (job) => !job || (job.status !== 'uploading' && job.status !== 'submitting') || job.error !== null,
      )
    )
      return;
    await new Promise((resolveWait) => setTimeout(resolveWait, 100));
  }
}

/**
 * Says on standard error why each job that stopped short of finishing stopped (a silent or
 * unreachable service): its state is kept for `resume`, and the run must not look like a
 * success. Returns whether any did.
 */
export function reportStoppedJobs(io: CliIo, jobs: JobRecord[]): boolean {
  const stopped = jobs.filter(
    (job) => job.error !== null && !['completed', 'error', 'cancelled'].includes(job.status),
  );
  for (const job of stopped)
    io.err(`verbatim: ${job.id} stopped while ${job.status}: ${inCommandLineTerms(job.error ?? '')}\n`);
  return stopped.length > 0;
}

/** Another process on this data folder sends its jobs: say who, and what happens now. */
export function waitingForOwner(core: Core, waiting = true): string {
  const owner = core.ownership.ownerDescription() ?? 'another Verbatim';
  return waiting
    ? `verbatim: ${owner} is sending this folder's jobs; waiting for it to finish them…\n`
    : `verbatim: ${owner} is sending this folder's jobs; it will send these too.\n`;
}
