import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import type { Region } from '../../shared/library';
import type { TextChoice } from '../../shared/redaction';
import { systemClock, type Clock } from '../base/clock';
import { HttpClient, type FetchLike } from './http/http-client';
import { clientPerAddress } from './http/client-per-address';
import type { NetworkBounds } from './http/network-bounds';
import { LibraryDatabase } from './library/library-database';
import { claimDataFolder, type FolderOwnership } from './library/folder-owner';
import type { Library, JobRecord } from './library/library';
import type { QuotesOnDelete } from '../../shared/highlights';
import { Glossaries } from './glossary/glossaries';
import { Notices } from './collaboration/notices';
import type { Recordings } from './library/recordings';
import { Scheduler } from './scheduler/scheduler';
import { RequestBudget } from './scheduler/request-budget';
import type { PollingPolicy } from './scheduler/polling-plan';
import { TranscriptionClient, defaultBaseUrls } from './transcription/transcription-client';
import { estimateRemoteDuration } from './transcription/remote-recording';
import { silentLogger, type Logger } from './log/logger';
import { ServiceRedactedAudio } from './media/service-redacted-audio';
import {
  type PlayableRecording,
  type RedactionLookup,
  libraryRedactions,
  playableRecordings,
} from './media/redacted-recording';
import { DisposableStore, disposableInterval } from '../base/lifecycle';

export interface CoreConfig {
  dataDir: string;
  /** Read at each request, so a key entered in Settings applies at once. */
  apiKey: () => string | undefined;
  /** An override of the service's address for a region, or undefined for the real one. */
  transcriptionUrl: (region: Region) => string | undefined;
  /** Paces polling and retries; tests and the demo run it faster than real time. */
  clock?: Clock;
  /**
   * Stamps what the library saves (created, updated, completed). Dates a journalist reads stay
   * on the wall clock even when `clock` runs fast, so a demo's recordings are not dated hours
   * ahead.
   */
  wallClock?: () => number;
  fetch?: FetchLike;
  /** How long a silent service is waited for; the defaults of network-bounds.ts unless set. */
  networkBounds?: NetworkBounds;
  polling?: PollingPolicy;
  requestsPerSecond?: number;
  transientRetryMs?: number;
  onJob?: (job: JobRecord) => void;
  onUploadProgress?: (id: string, bytesSent: number, bytesTotal: number) => void;
  /** The process's log: the core writes job ids, counts and failures, never content or keys. */
  logger?: Logger;
  onStorageFailure?: (jobId: string, message: string) => void;
  /** Called once when another process is upgrading the library and this one waits for it. */
  onWaitingForUpgrade?: () => void;
  /** Who this process is, for another process's "waiting for …" message ("the command line"). */
  processDescription?: string;
  /** The scheduler sends nothing before this settles (compose.ts: the settings are read). */
  ready?: Promise<unknown>;
}

export interface Core {
  /** The library file and the stores over it: the only way into the database. */
  database: LibraryDatabase;
  library: Library;
  /** The newsroom's glossaries (issue #21): in the same database as the library. */
  glossaries: Glossaries;
  /** What working together told the reporter (issue #36): kept until read. */
  notices: Notices;
  /** Recordings made in Verbatim (issue #23), registered as they start. */
  recordings: Recordings;
  scheduler: Scheduler;
  /** The service's redacted recordings (redact_pii_audio), kept in the data folder. */
  redactedAudio: ServiceRedactedAudio;
  /** How each transcript's recording is heard where its words are redacted (clips, players). */
  redactions: RedactionLookup;
  /** What a player is served for a transcript: redacted unless the original is asked for. */
  recordingOf(transcriptId: string, audio: TextChoice): Promise<PlayableRecording | undefined>;
  /**
   * Takes a transcript out of the library with the files kept for it alone: the service's
   * redacted recording, and a newsroom copy's downloaded recording (one's own recording is the
   * reporter's file and stays). The app and the command line delete through this one path.
   */
  deleteTranscript(job: JobRecord, options: { quotesInStories: QuotesOnDelete }): Promise<void>;
  clientFor(region: Region): TranscriptionClient;
  /** The address `clientFor(region)` sends to: an override, else the service's own. */
  transcriptionAddress(region: Region): string;
  /** Whether this process sends the folder's jobs, and who does otherwise. */
  ownership: FolderOwnership;
  /**
   * Lets another process take the folder's jobs over at once, finishing first the uploads this
   * one is sending (their addresses stored, so none is sent twice); `onFinishing` hears how
   * many, if any. For a command line that is done: the app quits without waiting on them.
   */
  handOver(onFinishing?: (uploads: number) => void): Promise<void>;
  close(): Promise<void>;
}

/** The transcription pipeline assembled from plain-Node parts: shared by the app, web host and CLI. */
export function createCore(config: CoreConfig): Core {
  mkdirSync(config.dataDir, { recursive: true });
  const clock = config.clock ?? systemClock;
  const log = config.logger ?? silentLogger;
  // Everything the core opens that must be closed with it (its timers).
  const lifetime = new DisposableStore();
  const libraryPath = join(config.dataDir, 'library.sqlite');
  const ownership = claimDataFolder(config.dataDir, config.processDescription ?? 'Verbatim');
  const database = LibraryDatabase.open(libraryPath, { onWaitingForUpgrade: config.onWaitingForUpgrade });
  // A daily copy of the library, so "restore from a backup" is always possible.
  const dailyBackup = database
    .backupIfDue(libraryPath)
    .catch((error: unknown) => log.warn('the daily library backup failed', error));
  const wallClock = config.wallClock ?? ((): number => Date.now());
  const library = database.library(wallClock);
  const glossaries = new Glossaries(database.glossaryStore(wallClock));
  const notices = new Notices(database.noticeStore(wallClock));
  const recordings = database.recordings(wallClock);
  const budget = new RequestBudget(clock, config.requestsPerSecond ?? 5, 10);
  const fetchLike: FetchLike = config.fetch ?? ((input, init) => fetch(input, init));

  const clientAt = clientPerAddress(
    (baseUrl) =>
      new TranscriptionClient(
        new HttpClient({
          service: 'transcription service',
          baseUrl,
          apiKey: config.apiKey,
          authStyle: 'raw',
          fetch: fetchLike,
          sleep: (ms, signal) => clock.sleep(ms, signal),
          now: () => clock.now(),
          random: Math.random,
          bounds: config.networkBounds,
          onRetry: ({ status, delayMs }) => {
            if (status === 429) budget.pause(delayMs);
          },
        }),
      ),
  );
  const transcriptionAddress = (region: Region): string =>
    config.transcriptionUrl(region) || defaultBaseUrls[region];
  const clientFor = (region: Region): TranscriptionClient => clientAt(transcriptionAddress(region));
  const redactedAudio = new ServiceRedactedAudio(join(config.dataDir, 'redacted-audio'), fetchLike);
  const redactions = libraryRedactions(library, redactedAudio);

  const scheduler = new Scheduler({
    library,
    clientFor,
    clock,
    newId: randomUUID,
    budget,
    polling: config.polling,
    transientRetryMs: config.transientRetryMs,
    estimateUrlDuration: (url) => estimateRemoteDuration(fetchLike, url),
    onJob: config.onJob,
    // A transcript of a recording made in Verbatim is linked to it however it was sent.
    onFileJob: (jobId, audioPath) => recordings.linkFile(audioPath, jobId),
    onUploadProgress: config.onUploadProgress,
    logger: log.child('scheduler'),
    onStorageFailure: config.onStorageFailure,
    ownsFolder: () => ownership.owned,
    ready: config.ready,
    redactedAudio,
  });
  lifetime.add(scheduler);
  // The owner picks up jobs other processes stored; the others take over when it ends.
  const adoption = lifetime.add(
    disposableInterval(
      () => {
        if (ownership.owned)
          void scheduler
            .adoptNewJobs()
            .catch((error: unknown) => log.error('adopting new jobs failed', error));
        else if (ownership.tryClaim()) {
          log.info("this process now sends the data folder's jobs");
          void scheduler.resumeAll().catch((error: unknown) => log.error('resuming jobs failed', error));
        }
      },
      1000,
      { unref: true },
    ),
  );

  return {
    database,
    library,
    glossaries,
    notices,
    recordings,
    scheduler,
    redactedAudio,
    redactions,
    recordingOf: playableRecordings(library, redactions),
    deleteTranscript: async (job, options) => {
      await library.delete(job.id, options);
      await redactedAudio.remove(job.id);
      if (job.fromNewsroom && job.audioPath) await rm(job.audioPath, { force: true });
    },
    clientFor,
    transcriptionAddress,
    ownership,
    handOver: async (onFinishing) => {
      // Not claimed back by this process's own adoption turn.
      adoption.dispose();
      if (!ownership.owned) return;
      ownership.release();
      await scheduler.finishUploads(onFinishing);
    },
    close: async () => {
      lifetime.dispose();
      await scheduler.stop();
      await dailyBackup;
      database.close();
      ownership.release();
    },
  };
}
