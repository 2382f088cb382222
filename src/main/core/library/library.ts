import type { Db } from './database';
import type { JobStatus, SearchFilters, SearchPage, Segment } from '../../../shared/library';
import { JobStore, type JobPatch, type JobRecord, type NewJob } from './job-store';
import { TranscriptContent, type CompletedTranscript } from './transcript-content';
import { TranscriptSearch } from './transcript-search';
import { CorrectionsStore, type EditOptions } from './corrections-store';
import type {
  CorrectionState,
  EditIntent,
  EditResult,
  HistoryEntry,
} from '../../../shared/corrections/corrections';

export { transcriptNotFound, type JobPatch, type JobRecord, type NewJob } from './job-store';
export type { CompletedTranscript, SegmentInput } from './transcript-content';
export { countCap } from './transcript-search';
export type { EditOptions } from './corrections-store';

/**
 * The offline library: transcripts, their sentences and paragraphs, tags, speaker names and
 * full-text search. A facade over three parts that share one database: the job store (one row
 * a transcript, with what the scheduler and the reporter set), the transcript content (what
 * the service made of the recording) and search. Methods are async so the database can move
 * to a worker thread later without changing a caller.
 */
export class Library {
  private readonly jobs: JobStore;
  private readonly content: TranscriptContent;
  private readonly index: TranscriptSearch;
  private readonly corrections: CorrectionsStore;

  constructor(db: Db, now: () => number = Date.now) {
    this.jobs = new JobStore(db, now);
    this.content = new TranscriptContent(db, this.jobs, now);
    this.index = new TranscriptSearch(db);
    this.corrections = new CorrectionsStore(db, this.jobs, this.content, now);
  }

  createJob(job: NewJob): Promise<JobRecord> {
    return settle(() => this.jobs.create(job));
  }

  updateJob(id: string, patch: JobPatch): Promise<JobRecord> {
    return settle(() => this.jobs.update(id, patch));
  }

  get(id: string): Promise<JobRecord | undefined> {
    return settle(() => this.jobs.get(id));
  }

  /** The transcript, or a `not_found` error saying it is no longer in the library. */
  requireJob(id: string): Promise<JobRecord> {
    return settle(() => this.jobs.require(id));
  }

  list(options: { status?: JobStatus; limit?: number; offset?: number } = {}): Promise<JobRecord[]> {
    return settle(() => this.jobs.list(options));
  }

  /** Every job the scheduler has not finished: what to resume at start. */
  unfinishedJobs(): Promise<JobRecord[]> {
    return settle(() => this.jobs.unfinished());
  }

  /** Stores a finished transcript with its sentences and paragraphs in one transaction. */
  saveCompleted(id: string, completed: CompletedTranscript): Promise<JobRecord> {
    return settle(() => {
      this.content.save(id, completed);
      return this.jobs.require(id);
    });
  }

  /** The service's full JSON for a transcript, as it was stored. */
  transcriptJson(id: string): Promise<Record<string, unknown> | undefined> {
    return settle(() => this.content.transcriptJson(id));
  }

  sentences(id: string): Promise<Segment[]> {
    return settle(() => this.content.sentences(id));
  }

  /** The paragraphs in order; with `words: false`, without their words (not read, left empty). */
  paragraphs(id: string, options: { words?: boolean } = {}): Promise<Segment[]> {
    return settle(() => this.content.paragraphs(id, options));
  }

  /**
   * Applies a correction (see CorrectionsStore): the sentences, and with them search, exports
   * and every tool, read the corrected words as soon as this resolves.
   */
  edit(id: string, intent: EditIntent, options: EditOptions = {}): Promise<EditResult> {
    return settle(() => this.corrections.edit(id, intent, options));
  }

  undo(id: string): Promise<EditResult> {
    return settle(() => this.corrections.undo(id));
  }

  redo(id: string): Promise<EditResult> {
    return settle(() => this.corrections.redo(id));
  }

  correctionState(id: string): Promise<CorrectionState> {
    return settle(() => this.corrections.state(id));
  }

  history(id: string): Promise<HistoryEntry[]> {
    return settle(() => this.corrections.history(id));
  }

  /** The service's sentences before any correction ("show the machine transcript"). */
  machineSentences(id: string): Promise<Segment[]> {
    return settle(() => this.corrections.machineSentences(id));
  }

  hasCorrections(id: string): Promise<boolean> {
    return settle(() => this.corrections.hasCorrections(id));
  }

  /** Stamps paragraph `paragraph` (0-based) as checked against the audio, or removes the stamp. */
  setParagraphChecked(id: string, paragraph: number, checked: boolean): Promise<CorrectionState> {
    return settle(() => this.corrections.setChecked(id, paragraph, checked));
  }

  renameSpeaker(id: string, label: string, name: string): Promise<void> {
    return settle(() => this.jobs.renameSpeaker(id, label, name));
  }

  setTitle(id: string, title: string): Promise<void> {
    return settle(() => this.jobs.setTitle(id, title));
  }

  setTags(id: string, tags: string[]): Promise<void> {
    return settle(() => this.jobs.setTags(id, tags));
  }

  /** Points a transcript at its recording's new place after the file was moved. */
  relink(id: string, audioPath: string): Promise<void> {
    return settle(() => this.jobs.relink(id, audioPath));
  }

  delete(id: string): Promise<void> {
    return settle(() => this.jobs.delete(id));
  }

  /** Ranked full-text search over every sentence, with highlighted snippets (see TranscriptSearch). */
  search(
    query: string,
    filters: SearchFilters = {},
    page: { limit?: number; offset?: number } = {},
  ): Promise<SearchPage> {
    return settle(() => this.index.search(query, filters, page));
  }
}

/** Runs synchronous database work so that a failure arrives as a rejection, like async I/O. */
function settle<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
