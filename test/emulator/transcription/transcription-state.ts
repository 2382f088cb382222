import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock, Region } from '../types';
import { deterministicUuid } from './ids';
import type { TranscriptParams } from './request-validation';

export type TranscriptStatus = 'queued' | 'processing' | 'completed' | 'error';

export interface TranscriptRecord {
  id: string;
  region: Region;
  /** Creation order within the region: the list is sorted by it, newest first. */
  sequence: number;
  /** Emulated epoch ms. */
  createdAt: number;
  completedAt: number | undefined;
  params: TranscriptParams;
  status: TranscriptStatus;
  error: string | undefined;
  /** What the speech engine produced (text, words, analyses...), once completed. */
  fields: Record<string, unknown> | undefined;
  deleted: boolean;
  webhookStatusCode: number | undefined;
  /** The redacted WAV written at completion, when redact_pii_audio was requested. */
  redactedAudioPath: string | undefined;
}

export interface UploadRecord {
  id: string;
  path: string;
  size: number;
}

interface RegionState {
  transcripts: Map<string, TranscriptRecord>;
  uploads: Map<string, UploadRecord>;
  transcriptCounter: number;
  uploadCounter: number;
}

function emptyRegion(): RegionState {
  return { transcripts: new Map(), uploads: new Map(), transcriptCounter: 0, uploadCounter: 0 };
}

/**
 * Everything the transcription service remembers, per region (a transcript or upload made on
 * the EU port does not exist on the US one), plus the timers and network calls in flight so
 * a reset can stop them.
 */
export class TranscriptionState {
  private regions: Record<Region, RegionState> = { us: emptyRegion(), eu: emptyRegion() };
  private cancelTimers = new Set<() => void>();
  private abort = new AbortController();

  constructor(
    private readonly clock: Clock,
    private readonly dataDir: string,
    private readonly idSeed: string,
  ) {}

  transcripts(region: Region): Map<string, TranscriptRecord> {
    return this.regions[region].transcripts;
  }

  uploads(region: Region): Map<string, UploadRecord> {
    return this.regions[region].uploads;
  }

  /** Text of a completed transcript visible in `region` (the gateway's {{ transcript }}), else undefined. */
  completedText(id: string, region: Region): string | undefined {
    const record = this.regions[region].transcripts.get(id);
    if (record?.status !== 'completed' || typeof record.fields?.text !== 'string') return undefined;
    return record.fields.text;
  }

  nextTranscriptId(region: Region): { id: string; sequence: number } {
    const state = this.regions[region];
    state.transcriptCounter += 1;
    return {
      id: deterministicUuid(this.idSeed, 'transcript', region, state.transcriptCounter),
      sequence: state.transcriptCounter,
    };
  }

  nextUploadId(region: Region): string {
    const state = this.regions[region];
    state.uploadCounter += 1;
    return deterministicUuid(this.idSeed, 'upload', region, state.uploadCounter);
  }

  /** A directory under the data dir for this service's files, created on demand. */
  directory(region: Region, kind: 'uploads' | 'redacted-audio'): string {
    const directory = join(this.dataDir, 'transcription', region, kind);
    mkdirSync(directory, { recursive: true });
    return directory;
  }

  /** Aborted by reset: pass it to every fetch the service makes. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Runs `fn` after `ms` of emulated time, unless cancelled or the state is reset first. */
  after(ms: number, fn: () => void): () => void {
    const cancel = this.clock.setTimeout(() => {
      this.cancelTimers.delete(cancel);
      fn();
    }, ms);
    this.cancelTimers.add(cancel);
    return () => {
      cancel();
      this.cancelTimers.delete(cancel);
    };
  }

  /** Waits `ms` of emulated time; after a reset the promise never settles, so the waiting work stops. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.after(ms, resolve);
    });
  }

  reset(): void {
    for (const cancel of this.cancelTimers) cancel();
    this.cancelTimers.clear();
    this.abort.abort();
    this.abort = new AbortController();
    this.regions = { us: emptyRegion(), eu: emptyRegion() };
    rmSync(join(this.dataDir, 'transcription'), { recursive: true, force: true });
  }
}
