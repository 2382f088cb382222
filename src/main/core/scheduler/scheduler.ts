import { VerbatimError } from '../../../shared/errors';
import { titleMaxLength, type JobStatus, type Region } from '../../../shared/library';
import { checkTranscriptionOptions } from '../../../shared/transcription/request-options';
import { systemClock, type Clock } from '../../base/clock';
import { ServiceError, isUnreachable } from '../http/service-error';
import type { JobRecord, Library } from '../library/library';
import type { TranscriptionClient } from '../transcription/transcription-client';
import type { Transcript } from '../transcription/schemas';
import { inspectRecording, uploadSource } from '../transcription/recording-file';
import { RequestBudget } from './request-budget';
import { silentLogger, type Logger } from '../log/logger';
import type { IDisposable } from '../../base/lifecycle';
import {
  defaultPollingPolicy,
  firstCheckDelay,
  nextCheckDelay,
  queuedCheckDelay,
  type PollingPolicy,
} from './polling-plan';
import { CreateAdoptGate } from './create-adopt-gate';

export type JobSource = { kind: 'file'; path: string } | { kind: 'url'; url: string };

export interface NewTranscription {
  source: JobSource;
  title?: string;
  options: Record<string, unknown>;
  region: Region;
}

export interface SchedulerOptions {
  library: Library;
  clientFor: (region: Region) => TranscriptionClient;
  clock: Clock;
  newId: () => string;
  budget?: RequestBudget;
  polling?: PollingPolicy;
  maxConcurrentUploads?: number;
  /** After a transient failure that survived the HTTP layer's retries, wait this long. */
  transientRetryMs?: number;
  /** Estimates the length of a recording at a URL (see estimateRemoteDuration). */
  estimateUrlDuration?: (url: string) => Promise<number | undefined>;
  onJob?: (job: JobRecord) => void;
  /**
   * Told of each new job made from a local file, once it is stored: a recording made in
   * Verbatim links its transcript here, whichever way the file was sent.
   */
  onFileJob?: (jobId: string, audioPath: string) => Promise<unknown>;
  onUploadProgress?: (id: string, bytesSent: number, bytesTotal: number) => void;
  /** Where the scheduler says what it did and what went wrong: job ids and counts, never content. */
  logger?: Logger;
  /**
   * Whether this process owns the data folder's jobs (see folder-owner.ts). Only the owner
   * sends anything; another process stores its jobs and the owner picks them up.
   */
  ownsFolder?: () => boolean;
  /** How many times in a row an unreachable or silent address is tried before the step stops (5). */
  unreachableTries?: number;
  /**
   * Nothing is sent before this settles: the settings that name the service's address. A job
   * resumed at start-up would otherwise go to the default address. If it rejects, every job
   * stops where it is (nothing stored changes) and resumes at the next start.
   */
  ready?: Promise<unknown>;
  /** A job's step could not be saved to the library; it is tried again, never failed for it. */
  onStorageFailure?: (jobId: string, message: string) => void;
  /** Where the service's redacted recording of a finished job is kept (redact_pii_audio). */
  redactedAudio?: { keep(jobId: string, url: string, signal?: AbortSignal): Promise<unknown> };
  /**
   * How long a lease on sending a recording lasts unless renewed (20 s; renewed four times as
   * often). A process that took the folder over waits this long at most after a sender died
   * before it sends the recording again.
   */
  uploadLeaseMs?: number;
  /**
   * Real time, for what other processes read (an upload's lease) and wait on, however fast
   * `clock` runs.
   */
  wallClock?: Clock;
}

const finished: readonly JobStatus[] = ['completed', 'error', 'cancelled'];

/**
 * Moves every job from a recording to a stored transcript without a webhook. Each job is
 * written to the library before any network call and every step is a stored state, so a
 * crash at any point resumes where it stopped. After a crash between creating the remote
 * transcript and saving its id, the job is found again through the list endpoint (by its
 * audio_url, among the transcripts no other job holds) instead of being created twice; that
 * search waits for the creations of the same recording on their way (create-adopt-gate.ts).
 */
export class Scheduler implements IDisposable {
  private readonly budget: RequestBudget;
  private readonly polling: PollingPolicy;
  private readonly drives = new Map<string, { controller: AbortController; done: Promise<void> }>();
  /** Every job this scheduler has driven or been told about, so adoption takes only new ones. */
  private readonly known = new Set<string>();
  private uploadSlots: number;
  private readonly uploadQueue: (() => void)[] = [];
  private readonly log: Logger;
  /** Aborted for good by dispose(): every wait ends and no job is driven again. */
  private readonly lifetime = new AbortController();
  /** Who this scheduler is in the upload leases of the library (unique to it). */
  private readonly holder: string;
  private readonly wallClock: Clock;
  /** The jobs whose recording this scheduler is sending now, under its lease. */
  private readonly sending = new Set<string>();
  /** The jobs another process is sending, already said in the log. */
  private readonly sentElsewhere = new Set<string>();
  private readonly createAdoptGate = new CreateAdoptGate();

  constructor(private readonly options: SchedulerOptions) {
    this.log = options.logger ?? silentLogger;
    this.budget = options.budget ?? new RequestBudget(options.clock);
    this.polling = options.polling ?? defaultPollingPolicy;
    this.uploadSlots = options.maxConcurrentUploads ?? 2;
    this.holder = options.newId();
    this.wallClock = options.wallClock ?? systemClock;
  }

  /** Checks the request, stores the job, and starts it. Bad input fails before a job exists. */
  async submit(request: NewTranscription): Promise<JobRecord> {
    const title = request.title?.trim() ?? '';
    if (title.length > titleMaxLength) {
      throw new VerbatimError(
        'invalid_input',
        `A title can be at most ${titleMaxLength} characters long; this one has ${title.length}.`,
      );
    }
    const audioUrl =
      request.source.kind === 'url' ? request.source.url : 'https://upload.invalid/placeholder';
    const checked = checkTranscriptionOptions({ ...request.options, audio_url: audioUrl });
    if (!checked.ok) {
      throw new VerbatimError(
        'invalid_input',
        checked.problems.map((problem) => problem.message).join('; '),
        { problems: checked.problems },
      );
    }
    const { audio_url: _ignored, ...options } = checked.options;
    let job: JobRecord;
    if (request.source.kind === 'file') {
      const info = await inspectRecording(request.source.path);
      job = await this.options.library.createJob({
        id: this.options.newId(),
        title: request.title?.trim() || info.name.replace(/\.[^.]+$/, ''),
        sourceKind: 'file',
        source: info.path,
        audioPath: info.path,
        region: request.region,
        options,
        status: 'uploading',
        bytesTotal: info.size,
      });
      if (info.estimatedDurationMs)
        job = await this.options.library.updateJob(job.id, { audioDurationMs: info.estimatedDurationMs });
    } else {
      job = await this.options.library.createJob({
        id: this.options.newId(),
        title: request.title?.trim() || titleFromUrl(request.source.url),
        sourceKind: 'url',
        source: request.source.url,
        audioPath: null,
        region: request.region,
        options,
        status: 'submitting',
      });
      const estimate = await this.options.estimateUrlDuration?.(request.source.url);
      if (estimate) job = await this.options.library.updateJob(job.id, { audioDurationMs: estimate });
    }
    this.options.onJob?.(job);
    // Before the job runs, so a transcript that comes back at once finds its recording linked.
    // A failure there is logged, not thrown: the job is stored and runs, and a caller told it
    // failed would send the file again.
    if (job.audioPath !== null)
      await this.options
        .onFileJob?.(job.id, job.audioPath)
        .catch((error: unknown) => this.log.error(`job ${job.id}: linking its recording failed`, error));
    this.drive(job.id, false);
    return job;
  }

  /** Picks up every unfinished job, as at the start of the app. Returns how many. */
  async resumeAll(): Promise<number> {
    const jobs = await this.options.library.unfinishedJobs();
    for (const job of jobs) this.drive(job.id, true);
    return jobs.length;
  }

  /**
   * The owner takes on unfinished jobs it is not driving: those another process on the same
   * folder stored, or retried. A job this scheduler stopped (an unreachable address, its
   * message still on it) waits for `resume`.
   */
  async adoptNewJobs(): Promise<number> {
    if (!this.owns()) return 0;
    const deleting = await this.options.library.remoteDeletionsRequested();
    const fresh = (await this.options.library.unfinishedJobs()).filter(
      (job) =>
        !this.drives.has(job.id) && (job.error === null || !this.known.has(job.id) || deleting.has(job.id)),
    );
    for (const job of fresh) this.drive(job.id, true);
    return fresh.length;
  }

  /**
   * Resolves when each of these jobs has finished, or stopped with a reason, whichever process
   * drives them; `onWaiting` hears once that another process is doing the work. A job deleted
   * meanwhile (deleted on the service as asked) is settled too, and not among those returned.
   */
  async settled(ids: string[], onWaiting?: () => void): Promise<JobRecord[]> {
    let told = false;
    for (;;) {
      await Promise.all(ids.flatMap((id) => this.drives.get(id)?.done ?? []));
      const jobs = (await Promise.all(ids.map((id) => this.options.library.get(id)))).filter(
        (job): job is JobRecord => job !== undefined,
      );
      const open = jobs.filter((job) => !finished.includes(job.status) && job.error === null);
      if (open.length === 0) return jobs;
      if (this.owns() && open.every((job) => !this.drives.has(job.id))) {
        for (const job of open) this.drive(job.id, true);
        continue;
      }
      if (!told) onWaiting?.();
      told = true;
      await this.options.clock.sleep(500, this.lifetime.signal);
    }
  }

  private owns(): boolean {
    return this.options.ownsFolder?.() ?? true;
  }

  async cancel(id: string): Promise<JobRecord> {
    const job = await this.requireJob(id);
    if (finished.includes(job.status)) return job;
    this.drives.get(id)?.controller.abort();
    await this.drives.get(id)?.done;
    return this.update(id, { status: 'cancelled', nextCheckAt: null });
  }

  /** Starts a failed or cancelled job again from the last step that can be trusted. */
  async retry(id: string): Promise<JobRecord> {
    const job = await this.requireJob(id);
    if (job.status !== 'error' && job.status !== 'cancelled') return job;
    const status: JobStatus = job.remoteId
      ? 'queued'
      : job.uploadUrl || job.sourceKind === 'url'
        ? 'submitting'
        : 'uploading';
    const updated = await this.update(id, {
      status,
      error: null,
      nextCheckAt: this.options.clock.now(),
      checks: 0,
    });
    // A job that failed after being created remotely is asked about, not created again.
    this.drive(id, job.remoteId === null && job.uploadUrl !== null);
    return updated;
  }

  /** Resolves when no job is being driven (every job finished, or stopped). */
  async idle(): Promise<void> {
    while (this.drives.size > 0) await Promise.all([...this.drives.values()].map((drive) => drive.done));
  }

  /**
   * Once this process no longer owns the folder (it let go of its claim so another takes over at
   * once): stops every step except the uploads being sent, which finish under their lease and
   * store their upload address, so the next owner creates those transcripts instead of sending
   * the recordings again. `onFinishing` hears how many there are, if any; resolves once done.
   */
  async finishUploads(onFinishing?: (uploads: number) => void): Promise<void> {
    for (const [id, drive] of this.drives) if (!this.sending.has(id)) drive.controller.abort();
    if (this.sending.size > 0) onFinishing?.(this.sending.size);
    await this.idle();
  }

  /** Stops driving without changing any stored state: what was running resumes next start. */
  async stop(): Promise<void> {
    for (const drive of this.drives.values()) drive.controller.abort();
    await this.idle();
  }

  /**
   * Ends the scheduler's lifetime at once: every job's wait (a status check's delay, a retry's
   * back-off, a turn of the request budget, an upload slot) is abandoned and nothing is driven
   * again. Stored state is untouched, so the next start resumes every job. `idle()` resolves
   * once the abandoned steps have unwound.
   */
  dispose(): void {
    if (this.lifetime.signal.aborted) return;
    this.lifetime.abort();
    for (const drive of this.drives.values()) drive.controller.abort();
  }

  private drive(id: string, resumed: boolean): void {
    if (this.drives.has(id) || !this.owns() || this.lifetime.signal.aborted) return;
    this.log.debug(`job ${id}: ${resumed ? 'resumed' : 'started'}`);
    this.known.add(id);
    const controller = new AbortController();
    const done = this.run(id, resumed, controller.signal)
      .catch((error: unknown) => this.log.error(`job ${id} stopped`, error))
      .finally(() => this.drives.delete(id));
    this.drives.set(id, { controller, done });
  }

  private async run(id: string, resumed: boolean, signal: AbortSignal): Promise<void> {
    await this.options.ready;
    let mayExistRemotely = resumed;
    let lastSeen: Transcript | undefined;
    let unreachable = 0;
    // A job stopped earlier by an address that did not work starts again without that message.
    const start = await this.requireJob(id);
    if (start.error !== null && !finished.includes(start.status)) await this.update(id, { error: null });
    // A process that let go of the folder stops after the step it is on (finishUploads).
    while (!signal.aborted && this.owns()) {
      const job = await this.requireJob(id);
      const deleting = (await this.options.library.remoteDeletionsRequested()).has(id);
      if (finished.includes(job.status) && !deleting) return;
      try {
        if (deleting) {
          const outcome = await this.deleteWhenAllowed(job, mayExistRemotely, signal);
          if (outcome === 'deleted') return;
          if (outcome === 'adopted') continue;
        }
        switch (job.status) {
          case 'uploading':
            if (job.uploadUrl) {
              await this.update(id, { status: 'submitting' });
              break;
            }
            await this.upload(job, signal);
            break;
          case 'submitting':
            if (mayExistRemotely && (await this.adoptExisting(job, signal))) break;
            mayExistRemotely = true;
            await this.create(job, signal);
            break;
          case 'queued':
          case 'processing':
            lastSeen = await this.check(job, signal);
            break;
          case 'fetching':
            await this.fetchAndStore(job, lastSeen?.id === job.remoteId ? lastSeen : undefined, signal);
            break;
        }
        unreachable = 0;
      } catch (error) {
        // A process that let go of the folder leaves what failed to the next owner.
        if (signal.aborted || !this.owns()) return;
        if (deleting && !isTransient(error) && !isLibraryWriteFailure(error)) {
          // The deletion asked for cannot be done now: say why, and stop rather than ask again.
          this.log.warn(`job ${id}: the deletion on the service failed`, error);
          await this.update(id, {
            error: `Deleting it on the service failed: ${error instanceof Error ? error.message : String(error)}`,
            nextCheckAt: null,
          });
          return;
        }
        if (job.status === 'uploading' && isTimeout(error)) {
          // A service that took the recording and went silent (or stopped taking it): sending
          // it again at once would spend the same time and bytes on the same silence. The job
          // keeps its state and says why it stopped; the next start or `resume` sends it again.
          this.log.warn(`job ${id}: the upload ended by a bound`, error);
          await this.update(id, {
            error: `${error.message} The recording is kept; it will be sent again at the next start or resume.`,
            nextCheckAt: null,
          });
          return;
        }
        if (
          (isUnreachable(error) || isTimeout(error)) &&
          ++unreachable >= (this.options.unreachableTries ?? 5)
        ) {
          // The address cannot work as set (nothing listens, no such host): stop this step with
          // the reason instead of retrying forever. The job keeps its stored state, so the next
          // start or `resume` carries on once the address is mended.
          this.log.warn(
            `job ${id}: the service cannot be reached or does not answer; stopped after ${unreachable} tries`,
            error,
          );
          await this.update(id, {
            error: `${error.message} Tried ${unreachable} times; it will be tried again at the next start or resume.`,
            nextCheckAt: null,
          });
          return;
        }
        await this.handleFailure(job, error, signal);
      }
    }
  }

  /**
   * A job the journalist deleted while the service was making it: deleted there as soon as the
   * service allows, which is once it has finished (it refuses while it works), then here. Until
   * then the job is followed as any other, but its words are never fetched.
   */
  private async deleteWhenAllowed(
    job: JobRecord,
    mayExistRemotely: boolean,
    signal: AbortSignal,
  ): Promise<'deleted' | 'adopted' | 'waiting'> {
    if (job.remoteId === null) {
      // Made on the service just before a crash? Then it is found, and deleted once it may be.
      if (job.status === 'submitting' && mayExistRemotely && (await this.adoptExisting(job, signal)))
        return 'adopted';
      // Nothing was made on the service: nothing to delete there, and nothing will be sent.
      await this.options.library.delete(job.id);
      this.log.info(`job ${job.id}: deleted before it was made on the service`);
      return 'deleted';
    }
    if (job.status === 'queued' || job.status === 'processing') return 'waiting';
    if (job.status === 'cancelled') {
      // Cancelled here, but still at work on the service: follow it until it may be deleted.
      await this.update(job.id, { status: 'queued', error: null, nextCheckAt: this.options.clock.now() });
      return 'adopted';
    }
    await this.budget.take(signal);
    try {
      await this.options.clientFor(job.region).delete(job.remoteId, signal);
    } catch (error) {
      // Already gone from the service: what was asked is done.
      if (!(error instanceof ServiceError && error.code === 'not_found')) throw error;
    }
    await this.options.library.delete(job.id);
    this.log.info(`job ${job.id}: deleted on the service once it had finished, and here`);
    return 'deleted';
  }

  /**
   * Sends the recording under a lease in the library, renewed while it is sent: a process that
   * takes the folder over meanwhile waits for it instead of sending it again, unless the lease
   * goes stale (its sender died).
   */
  private async upload(job: JobRecord, signal: AbortSignal): Promise<void> {
    const leaseMs = this.options.uploadLeaseMs ?? 20_000;
    await this.acquireUploadSlot(signal);
    let leased = false;
    // `ended` stops the renewals; `lost` is aborted if another process took the lease over.
    const ended = new AbortController();
    const lost = new AbortController();
    try {
      leased = await this.options.library.claimUploadLease(job.id, this.holder, leaseMs);
      if (leased) {
        this.sending.add(job.id);
        this.sentElsewhere.delete(job.id);
        void this.renewLease(job.id, leaseMs, ended.signal, lost);
        await this.send(job, AbortSignal.any([signal, lost.signal]), () => !lost.signal.aborted);
      }
    } catch (error) {
      // Another process sends it now: nothing failed here.
      if (!lost.signal.aborted || signal.aborted) throw error;
    } finally {
      ended.abort();
      this.sending.delete(job.id);
      this.releaseUploadSlot();
      if (leased)
        await this.options.library
          .releaseUploadLease(job.id, this.holder)
          .catch((error: unknown) =>
            this.log.warn(`job ${job.id}: its upload lease was not released`, error),
          );
    }
    if (!leased || lost.signal.aborted) {
      // Sent by another process (one that owned the folder before): it stores the upload
      // address when done, or its lease goes stale if it died, and this one sends it then.
      if (!this.sentElsewhere.has(job.id))
        this.log.info(`job ${job.id}: another process is sending its recording; waiting for it`);
      this.sentElsewhere.add(job.id);
      await this.wallClock.sleep(Math.min(1000, leaseMs), signal);
    }
  }

  /** Renews the lease until `ended`; aborts `lost` if another process has taken it over. */
  private async renewLease(
    id: string,
    leaseMs: number,
    ended: AbortSignal,
    lost: AbortController,
  ): Promise<void> {
    for (;;) {
      try {
        await this.wallClock.sleep(leaseMs / 4, ended);
      } catch {
        return;
      }
      try {
        if (await this.options.library.renewUploadLease(id, this.holder, leaseMs)) continue;
        this.log.warn(`job ${id}: another process took its upload over; this one stops sending it`);
        lost.abort();
        return;
      } catch (error) {
        // A library busy for a moment: the lease has time left, and the next renewal follows.
        this.log.warn(`job ${id}: its upload lease was not renewed`, error);
      }
    }
  }

  /** Sends the recording and stores its upload address, if `stillOurs` when it is done. */
  private async send(job: JobRecord, signal: AbortSignal, stillOurs: () => boolean): Promise<void> {
    const info = await inspectRecording(job.source);
    let lastReported = 0;
    const body = uploadSource(info, {
      signal,
      onProgress: (sent, total) => {
        this.options.onUploadProgress?.(job.id, sent, total);
        if (sent - lastReported >= total / 20 || sent === total) {
          lastReported = sent;
          void this.options.library.updateJob(job.id, { bytesSent: sent }).catch(() => undefined);
        }
      },
    });
    await this.budget.take(signal);
    const uploadUrl = await this.options.clientFor(job.region).upload(body, { signal });
    if (!stillOurs()) return;
    await this.update(job.id, {
      uploadUrl,
      status: 'submitting',
      bytesSent: info.size,
      bytesTotal: info.size,
    });
  }

  private async create(job: JobRecord, signal: AbortSignal): Promise<void> {
    const audioUrl = job.sourceKind === 'url' ? job.source : job.uploadUrl;
    if (!audioUrl) throw new VerbatimError('internal', 'The upload finished but its address was lost.');
    await this.budget.take(signal);
    // Its remote id is saved before a search for a lost transcript of the same recording may
    // look at the service's list (create-adopt-gate.ts).
    await this.createAdoptGate.creating(recordingKey(job.region, audioUrl), async () => {
      const transcript = await this.options
        .clientFor(job.region)
        .create({ ...job.options, audio_url: audioUrl }, signal);
      await this.update(job.id, {
        remoteId: transcript.id,
        status: transcript.status === 'processing' ? 'processing' : 'queued',
        nextCheckAt: this.options.clock.now() + firstCheckDelay(job.audioDurationMs, this.polling),
        checks: 0,
      });
    });
  }

  /** After a restart: was this job already created on the service? Adopt it if so. */
  private async adoptExisting(job: JobRecord, signal: AbortSignal): Promise<boolean> {
    const audioUrl = job.sourceKind === 'url' ? job.source : job.uploadUrl;
    if (!audioUrl) return false;
    // The same recording may be transcribed by other jobs at once: their creations on the way
    // end, and save their ids, before this looks for an unclaimed transcript of it.
    return this.createAdoptGate.searching(recordingKey(job.region, audioUrl), () =>
      this.findCreatedBefore(job, audioUrl, signal),
    );
  }

  private async findCreatedBefore(job: JobRecord, audioUrl: string, signal: AbortSignal): Promise<boolean> {
    const client = this.options.clientFor(job.region);
    const taken = new Set(
      (await this.options.library.list({ limit: 100_000 }))
        .filter((other) => other.id !== job.id && other.region === job.region)
        .map((other) => other.remoteId),
    );
    // The list is newest first; anything created well before the job cannot be it.
    const oldest = job.createdAt - 10 * 60_000;
    await this.budget.take(signal);
    let page = await client.list({ limit: 200 }, signal);
    for (let pages = 1; ; pages++) {
      for (const remote of page.transcripts) {
        if (remote.audio_url === audioUrl && !taken.has(remote.id)) {
          this.log.info(`job ${job.id}: found transcript ${remote.id} created before a restart`);
          await this.update(job.id, {
            remoteId: remote.id,
            status:
              remote.status === 'completed'
                ? 'fetching'
                : remote.status === 'error'
                  ? 'queued'
                  : remote.status,
            nextCheckAt: this.options.clock.now(),
          });
          return true;
        }
      }
      const last = page.transcripts.at(-1);
      const createdAt = last?.created ? parseServiceTime(last.created) : Number.NaN;
      if (
        !page.page_details.prev_url ||
        !last ||
        (!Number.isNaN(createdAt) && createdAt < oldest) ||
        pages >= 10
      )
        return false;
      await this.budget.take(signal);
      page = await client.listPage(page.page_details.prev_url, signal);
    }
  }

  private async check(job: JobRecord, signal: AbortSignal): Promise<Transcript | undefined> {
    if (!job.remoteId) {
      await this.update(job.id, { status: 'submitting' });
      return undefined;
    }
    const wait = (job.nextCheckAt ?? 0) - this.options.clock.now();
    if (wait > 0) await this.options.clock.sleep(wait, signal);
    await this.budget.take(signal);
    const transcript = await this.options.clientFor(job.region).get(job.remoteId, signal);
    const checks = job.checks + 1;
    if (transcript.status === 'completed') {
      await this.update(job.id, { status: 'fetching', checks });
    } else if (transcript.status === 'error') {
      await this.update(job.id, {
        status: 'error',
        error: transcript.error ?? 'The service could not transcribe this recording.',
        checks,
        nextCheckAt: null,
      });
    } else {
      await this.update(job.id, {
        status: transcript.status,
        checks,
        nextCheckAt:
          this.options.clock.now() +
          (transcript.status === 'queued' ? queuedCheckDelay : nextCheckDelay)(
            checks,
            job.audioDurationMs,
            this.polling,
          ),
        audioDurationMs: transcript.audio_duration ? Math.round(transcript.audio_duration * 1000) : undefined,
      });
    }
    return transcript;
  }

  private async fetchAndStore(
    job: JobRecord,
    known: Transcript | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    if (!job.remoteId) throw new VerbatimError('internal', 'A finished transcript lost its service id.');
    const client = this.options.clientFor(job.region);
    let transcript = known;
    if (!transcript) {
      await this.budget.take(signal);
      transcript = await client.get(job.remoteId, signal);
    }
    await this.budget.take(signal);
    const sentences = await client.sentences(job.remoteId, signal);
    await this.budget.take(signal);
    const paragraphs = await client.paragraphs(job.remoteId, signal);
    if (transcript.redact_pii_audio === true) await this.keepRedactedAudio(job, signal);
    const saved = await this.options.library.saveCompleted(job.id, { transcript, sentences, paragraphs });
    this.options.onJob?.(saved);
  }

  /**
   * Keeps the service's redacted recording before the transcript shows as finished, as its
   * address works for a day only. A failure that passes (the service busy or unreachable) is
   * tried again with the rest of the fetch. Any other loses nothing: every player and clip
   * silences the redacted words in the original recording instead, so it is written to the log
   * and the transcript is stored all the same.
   */
  private async keepRedactedAudio(job: JobRecord, signal: AbortSignal): Promise<void> {
    const keeper = this.options.redactedAudio;
    if (!keeper || !job.remoteId) return;
    try {
      await this.budget.take(signal);
      const { redacted_audio_url: url } = await this.options
        .clientFor(job.region)
        .redactedAudio(job.remoteId, signal);
      await keeper.keep(job.id, url, signal);
    } catch (error) {
      if (signal.aborted || !(error instanceof VerbatimError) || isTransient(error)) throw error;
      this.log.warn(
        `job ${job.id}: the service's redacted recording was not kept (${error.message}); its redacted words are silenced in the original instead`,
      );
    }
  }

  private async handleFailure(job: JobRecord, error: unknown, signal: AbortSignal): Promise<void> {
    if (isLibraryWriteFailure(error)) {
      // The work on the service is safe; only our copy could not be written (disk full, the
      // library busy or read-only for a moment). Never mark the job failed for that: say so,
      // wait, and write again. Nothing is written now, since writing is what just failed.
      const delay = this.options.transientRetryMs ?? 30_000;
      this.log.warn(
        `job ${job.id}: could not save to the library (${(error as Error).message}); trying again in ${Math.round(delay / 1000)} s`,
      );
      this.options.onStorageFailure?.(job.id, (error as Error).message);
      await this.options.clock.sleep(delay, signal).catch(() => undefined);
      return;
    }
    if (isTransient(error)) {
      const delay = error.retryAfterMs ?? this.options.transientRetryMs ?? 30_000;
      if (error.code === 'rate_limited') this.budget.pause(delay);
      this.log.warn(`job ${job.id}: ${error.message}; trying again in ${Math.round(delay / 1000)} s`);
      await this.update(job.id, { nextCheckAt: this.options.clock.now() + delay });
      await this.options.clock.sleep(delay, signal).catch(() => undefined);
      return;
    }
    const message = error instanceof VerbatimError ? error.message : `Something went wrong: ${String(error)}`;
    this.log.warn(`job ${job.id} failed while ${job.status}`, error);
    await this.update(job.id, { status: 'error', error: message, nextCheckAt: null });
  }

  private async update(id: string, patch: Parameters<Library['updateJob']>[1]): Promise<JobRecord> {
    const job = await this.options.library.updateJob(id, patch);
    if (patch.status) this.log.debug(`job ${id} is now ${patch.status} (${job.checks} checks)`);
    this.options.onJob?.(job);
    return job;
  }

  private requireJob(id: string): Promise<JobRecord> {
    return this.options.library.requireJob(id);
  }

  private async acquireUploadSlot(signal: AbortSignal): Promise<void> {
    if (this.uploadSlots > 0) {
      this.uploadSlots -= 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const grant = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        const index = this.uploadQueue.indexOf(grant);
        if (index >= 0) this.uploadQueue.splice(index, 1);
        reject(new Error('aborted'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.uploadQueue.push(grant);
    });
  }

  private releaseUploadSlot(): void {
    const next = this.uploadQueue.shift();
    if (next) next();
    else this.uploadSlots += 1;
  }
}

/** The service's list timestamps are UTC without a zone suffix ("2026-01-01T10:00:00.123456"). */
function parseServiceTime(text: string): number {
  return Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
}

function titleFromUrl(url: string): string {
  try {
    const name = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    return name.replace(/\.[^.]+$/, '') || new URL(url).hostname;
  } catch {
    return url;
  }
}

/** A write to the library's SQLite file failed: full, busy, read-only or an I/O error. */
export function isLibraryWriteFailure(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.name === 'SqliteError' &&
    /^SQLITE_(FULL|BUSY|LOCKED|READONLY|IOERR|CANTOPEN)/.test(String((error as { code?: unknown }).code))
  );
}

/** The service was silent past a bound (network-bounds.ts). */
function isTimeout(error: unknown): error is ServiceError {
  return error instanceof ServiceError && error.code === 'timeout';
}

/** A failure of the service that the same request is likely to get past later. */
function isTransient(error: unknown): error is ServiceError {
  return (
    error instanceof ServiceError &&
    (error.code === 'network' ||
      error.code === 'timeout' ||
      error.code === 'rate_limited' ||
      (error.code === 'service' && error.status !== undefined))
  );
}

/** One recording on one service: what the service's list can confuse across jobs. */
function recordingKey(region: Region, audioUrl: string): string {
  return `${region} ${audioUrl}`;
}
