import { inReadTransaction, inWriteTransaction, type Db } from './database';
import type { SearchFilters, SearchPage, Segment } from '../../../shared/library';
import { JobStore, type JobListOptions, type JobPatch, type JobRecord, type NewJob } from './job-store';
import { TranscriptContent, type CompletedTranscript } from './transcript-content';
import { TranscriptSearch } from './transcript-search';
import { CorrectionsStore, type EditOptions } from './corrections-store';
import type {
  CorrectionState,
  EditIntent,
  EditResult,
  HistoryEntry,
} from '../../../shared/corrections/corrections';
import type {
  Highlight,
  HighlightColor,
  HighlightLabel,
  HighlightsChanged,
  NewHighlight,
  QuoteFacets,
  QuoteFilters,
  QuotePage,
  QuotesOnDelete,
  Story,
  StoriesChanged,
  StorySummary,
} from '../../../shared/highlights';
import { HighlightStore } from './highlight-store';
import { StoryStore, type AddQuoteOptions, type QuotesOfTranscript } from './story-store';
import {
  NewsroomOutboxStore,
  type NewsroomPublicationRecord,
  type OutboxEntry,
  type PublicationContent,
  type WaitingOutboxItem,
} from './newsroom-outbox-store';
import {
  NewsroomCopyStore,
  type KeepOutcome,
  type NewsroomCopyContent,
  type StoredNewsroomOrigin,
} from './newsroom-copy-store';
import { StoryReviewStore } from './story-review-store';
import { Signal } from '../../base/signal';
import { settle } from '../../base/settle';

export { transcriptNotFound, type JobPatch, type JobRecord, type NewJob } from './job-store';
export type { CompletedTranscript, SegmentInput } from './transcript-content';
export { countCap } from './transcript-search';
export type { EditOptions } from './corrections-store';
export type {
  NewsroomPublicationRecord,
  NewsroomPublicationState,
  OutboxEntry,
  PublicationContent,
  WaitingOutboxItem,
} from './newsroom-outbox-store';
export type { QuotesOfTranscript, StorySearchHit } from './story-store';
export type { StoryReviewStore } from './story-review-store';
export {
  newsroomCopyId,
  type KeepOutcome,
  type NewsroomCopyContent,
  type StoredNewsroomOrigin,
} from './newsroom-copy-store';
import type { StorySearchHit } from './story-store';

/** A transcript as the reader opens it (Library.transcriptReading). */
export interface TranscriptReading {
  job: JobRecord;
  sentences: Segment[];
  paragraphs: Segment[];
  transcript: Record<string, unknown> | undefined;
  corrections: CorrectionState;
}

/** The first sentences of a transcript, and the paragraphs they start (Library.transcriptOpening). */
export interface TranscriptOpening {
  job: JobRecord;
  sentences: Segment[];
  paragraphs: Segment[];
  /** True when these are all its sentences. */
  complete: boolean;
}

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
  private readonly highlights: HighlightStore;
  private readonly stories: StoryStore;
  private readonly outbox: NewsroomOutboxStore;
  private readonly copies: NewsroomCopyStore;
  private readonly storyReviews: StoryReviewStore;
  /**
   * Announced after every change to highlights or stories, whoever made it (a window, the
   * assistant, a correction that changed highlighted words), so every window can update.
   */
  readonly highlightsChanged = new Signal<HighlightsChanged>();
  readonly storiesChanged = new Signal<StoriesChanged>();

  constructor(
    private readonly db: Db,
    now: () => number = Date.now,
  ) {
    this.jobs = new JobStore(db, now);
    this.content = new TranscriptContent(db, this.jobs, now);
    this.index = new TranscriptSearch(db);
    this.corrections = new CorrectionsStore(db, this.jobs, this.content, now);
    this.highlights = new HighlightStore(db, this.jobs, now);
    this.stories = new StoryStore(db, this.highlights, now);
    this.outbox = new NewsroomOutboxStore(db, this.jobs, now);
    this.copies = new NewsroomCopyStore(db, this.jobs, this.content, now);
    this.storyReviews = new StoryReviewStore(db);
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

  list(options: JobListOptions = {}): Promise<JobRecord[]> {
    return settle(() => this.jobs.list(options));
  }

  /** Every name the reporter gave a speaker, in any transcript: what a spoken "the mayor" can mean. */
  speakerNames(): Promise<string[]> {
    return settle(() => this.jobs.speakerNames());
  }

  /** Every job the scheduler has not finished: what to resume at start. */
  unfinishedJobs(): Promise<JobRecord[]> {
    return settle(() => this.jobs.unfinished());
  }

  /**
   * Asks the process that sends the folder's jobs to delete this one on the service as soon as
   * the service allows (it refuses while it transcribes), and then here.
   */
  requestRemoteDeletion(id: string): Promise<void> {
    return settle(() => this.jobs.requestRemoteDeletion(id));
  }

  /** The ids of the jobs waiting to be deleted on the service. */
  remoteDeletionsRequested(): Promise<Set<string>> {
    return settle(() => this.jobs.remoteDeletionsRequested());
  }

  /**
   * Takes the lease on sending this job's recording, unless another process's lease is fresh
   * (it is sending it now): a process that takes the folder over must not send it again.
   */
  claimUploadLease(id: string, holder: string, leaseMs: number): Promise<boolean> {
    return settle(() => this.jobs.claimUploadLease(id, holder, leaseMs));
  }

  /** Extends the lease while the recording is sent; false when another process took it over. */
  renewUploadLease(id: string, holder: string, leaseMs: number): Promise<boolean> {
    return settle(() => this.jobs.renewUploadLease(id, holder, leaseMs));
  }

  /** Ends the lease once the upload has finished, failed or stopped. */
  releaseUploadLease(id: string, holder: string): Promise<void> {
    return settle(() => this.jobs.releaseUploadLease(id, holder));
  }

  /** Stores a finished transcript with its sentences and paragraphs in one transaction. */
  saveCompleted(id: string, completed: CompletedTranscript): Promise<JobRecord> {
    // A transcript fetched again (retry, resume) may bring other words into a highlight's span.
    return this.changing(() => {
      this.copies.requireOwn(id, 'transcribing it again');
      this.content.save(id, completed);
      const changed = this.highlights.refresh(id);
      const stories = this.stories.refreshSnapshots(changed);
      return { result: this.jobs.require(id), transcripts: changed.length > 0 ? [id] : [], stories };
    });
  }

  /**
   * What the reader opens a transcript with, read in one snapshot: another process's edit
   * (the command line's, an assistant's) lands wholly before or wholly after, never between
   * the sentences and the correction state that says which edits they carry. The paragraphs
   * come without their words (the reader takes every word from the sentences).
   */
  transcriptReading(id: string): Promise<TranscriptReading> {
    return settle(() =>
      inReadTransaction(this.db, () => ({
        job: this.jobs.require(id),
        sentences: this.content.sentences(id),
        paragraphs: this.content.paragraphs(id, { words: false }),
        transcript: this.content.transcriptJson(id),
        corrections: this.corrections.state(id),
      })),
    );
  }

  /**
   * The first `sentenceLimit` sentences and the paragraphs (without words) they fall in: enough
   * for the reader to paint its first screen of a long transcript while the whole one loads.
   */
  transcriptOpening(id: string, sentenceLimit: number): Promise<TranscriptOpening> {
    return settle(() =>
      inReadTransaction(this.db, () => {
        const job = this.jobs.require(id);
        // One more than asked for tells whether there are more.
        const sentences = this.content.firstSentences(id, sentenceLimit + 1);
        const complete = sentences.length <= sentenceLimit;
        if (!complete) sentences.pop();
        const last = sentences.at(-1);
        const paragraphs = last
          ? this.content.paragraphs(id, { words: false, startingBefore: last.endMs })
          : [];
        return { job, sentences, paragraphs, complete };
      }),
    );
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
    return this.correcting(id, () => this.corrections.edit(id, intent, options));
  }

  undo(id: string): Promise<EditResult> {
    return this.correcting(id, () => this.corrections.undo(id));
  }

  redo(id: string): Promise<EditResult> {
    return this.correcting(id, () => this.corrections.redo(id));
  }

  /**
   * A correction and the refresh of the transcript's highlights (and their story quotes) in one
   * transaction, so a highlight never shows words the transcript no longer has. Only this
   * transcript's highlights are read: one query when it has none.
   */
  private correcting(id: string, correct: () => EditResult): Promise<EditResult> {
    return this.changing(() => {
      // A copy kept from the newsroom reads as its reporter published it (checked here, in main,
      // so no window, command or assistant can correct it).
      this.copies.requireOwn(id, 'correcting it');
      const result = correct();
      const changed = this.highlights.refresh(id);
      const stories = this.stories.refreshSnapshots(changed);
      return { result, transcripts: changed.length > 0 ? [id] : [], stories };
    });
  }

  /**
   * Runs a change in one transaction, then announces the highlights and stories it touched. The
   * announcement waits until the caller has its answer (as corrections-handlers does for
   * `job.updated`: a broadcast handled first would sit on an edit's critical path), and a
   * listener that fails cannot turn a change already stored into a failure.
   */
  private changing<T>(work: () => { result: T; transcripts?: string[]; stories?: number[] }): Promise<T> {
    return settle(() => {
      const done = inWriteTransaction(this.db, work);
      const { transcripts = [], stories = [] } = done;
      if (transcripts.length > 0 || stories.length > 0)
        setImmediate(() => {
          if (transcripts.length > 0) announceSafely(this.highlightsChanged, { transcriptIds: transcripts });
          if (stories.length > 0) announceSafely(this.storiesChanged, { storyIds: stories });
        });
      return done.result;
    });
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
    return this.changing(() => {
      this.copies.requireOwn(id, 'checking it against the audio');
      // A stamp decides whether the transcript's quotes read as checked: their views and stories hear of it.
      return { result: this.corrections.setChecked(id, paragraph, checked), ...this.quotesOf(id) };
    });
  }

  /** The transcript and the stories quoting it, to announce when its quotes' checks may have changed. */
  private quotesOf(id: string): { transcripts: string[]; stories: number[] } {
    const highlights = this.highlights.idsOf(id);
    if (highlights.length === 0) return { transcripts: [], stories: [] };
    return { transcripts: [id], stories: this.stories.storiesQuoting(highlights) };
  }

  renameSpeaker(id: string, label: string, name: string): Promise<void> {
    return settle(() => {
      this.copies.requireOwn(id, 'naming its speakers');
      this.jobs.renameSpeaker(id, label, name);
    });
  }

  setTitle(id: string, title: string): Promise<void> {
    return settle(() => {
      this.copies.requireOwn(id, 'its title');
      this.jobs.setTitle(id, title);
    });
  }

  setTags(id: string, tags: string[]): Promise<void> {
    return settle(() => this.jobs.setTags(id, tags));
  }

  /** Points a transcript at its recording's new place after the file was moved. */
  relink(id: string, audioPath: string): Promise<void> {
    return settle(() => {
      this.copies.requireOwn(id, 'its recording');
      this.jobs.relink(id, audioPath);
    });
  }

  /**
   * Deletes a transcript with its highlights. Its quotes in stories are kept as text (what they
   * last showed) unless `quotesInStories` is 'remove'; stories quoting other transcripts are
   * not touched.
   */
  delete(id: string, options: { quotesInStories?: QuotesOnDelete } = {}): Promise<void> {
    return this.changing(() => {
      const hadHighlights = this.highlights.idsOf(id).length > 0;
      const stories = this.stories.beforeTranscriptDeleted(id, options.quotesInStories ?? 'keep-as-text');
      this.jobs.delete(id);
      return { result: undefined, transcripts: hadHighlights ? [id] : [], stories };
    });
  }

  // Highlights (see HighlightStore).

  highlightLabels(): Promise<HighlightLabel[]> {
    return settle(() => this.highlights.labels());
  }

  /** A label by name (ignoring case), or a `not_found` error listing the labels. */
  highlightLabelNamed(name: string): Promise<HighlightLabel> {
    return settle(() => this.highlights.labelNamed(name));
  }

  updateHighlightLabel(
    id: number,
    change: { name?: string | undefined; color?: HighlightColor | undefined },
  ): Promise<HighlightLabel> {
    return this.changing(() => ({
      result: this.highlights.updateLabel(id, change),
      transcripts: this.highlights.transcriptsWithLabel(id),
    }));
  }

  /** Highlights the words spoken in the span, snapped to them; a span without words is refused. */
  createHighlight(input: NewHighlight): Promise<Highlight> {
    return this.changing(() => {
      const highlight = this.highlights.create(input);
      return { result: highlight, transcripts: [highlight.transcriptId] };
    });
  }

  updateHighlight(
    id: number,
    change: { labelId?: number | undefined; note?: string | undefined },
  ): Promise<Highlight> {
    return this.changing(() => {
      const highlight = this.highlights.update(id, change);
      return {
        result: highlight,
        transcripts: [highlight.transcriptId],
        stories: this.stories.storiesQuoting([id]),
      };
    });
  }

  /** Deletes a highlight; its story quotes keep what they last showed. */
  deleteHighlight(id: number): Promise<void> {
    return this.changing(() => {
      const stories = this.stories.storiesQuoting([id]);
      const highlight = this.highlights.delete(id);
      return { result: undefined, transcripts: [highlight.transcriptId], stories };
    });
  }

  highlight(id: number): Promise<Highlight> {
    return settle(() => this.highlights.require(id));
  }

  /** A transcript's highlights in the order they are spoken. */
  highlightsOf(transcriptId: string): Promise<Highlight[]> {
    return settle(() => this.highlights.list(transcriptId));
  }

  /** The Quotes view: highlights across the library, filtered and searched. */
  quotes(filters: QuoteFilters = {}): Promise<QuotePage> {
    return settle(() => this.highlights.quotes(filters));
  }

  /** What the Quotes view's filters offer. */
  quoteFacets(): Promise<QuoteFacets> {
    return settle(() => this.highlights.facets());
  }

  // Stories (see StoryStore).

  storyList(): Promise<StorySummary[]> {
    return settle(() => this.stories.list());
  }

  /** The stories mentioning every word of `query` (see StoryStore.search). */
  searchStories(query: string): Promise<StorySearchHit[]> {
    return settle(() => this.stories.search(query));
  }

  story(id: number): Promise<Story> {
    return settle(() => this.stories.get(id));
  }

  /** A story by name (ignoring case) or id, as the command line and the assistant name it. */
  findStory(reference: string): Promise<Story> {
    return settle(() => this.stories.find(reference));
  }

  createStory(name: string): Promise<Story> {
    return this.storyChange(() => this.stories.create(name));
  }

  renameStory(id: number, name: string): Promise<Story> {
    return this.storyChange(() => this.stories.rename(id, name));
  }

  deleteStory(id: number): Promise<void> {
    return this.changing(() => {
      this.stories.delete(id);
      return { result: undefined, stories: [id] };
    });
  }

  /** Refused with a `conflict` naming where, when the story already quotes the highlight, unless `again`. */
  addQuoteToStory(storyId: number, highlightId: number, options: AddQuoteOptions = {}): Promise<Story> {
    return this.storyChange(() => this.stories.addQuote(storyId, highlightId, options));
  }

  addTextToStory(storyId: number, text: string, index?: number): Promise<Story> {
    return this.storyChange(() => this.stories.addText(storyId, text, index));
  }

  editStoryText(storyId: number, itemId: number, text: string): Promise<Story> {
    return this.storyChange(() => this.stories.editText(storyId, itemId, text));
  }

  moveStoryItem(storyId: number, itemId: number, index: number): Promise<Story> {
    return this.storyChange(() => this.stories.moveItem(storyId, itemId, index));
  }

  removeStoryItem(storyId: number, itemId: number): Promise<Story> {
    return this.storyChange(() => this.stories.removeItem(storyId, itemId));
  }

  /** Trims a quote to fewer of its words: the item gets a new, narrower highlight (see StoryStore). */
  trimStoryQuote(storyId: number, itemId: number, startMs: number, endMs: number): Promise<Story> {
    return this.changing(() => {
      const story = this.stories.trimQuote(storyId, itemId, startMs, endMs);
      const item = story.items.find((candidate) => candidate.id === itemId);
      const transcript = item?.kind === 'quote' ? item.transcriptId : null;
      return { result: story, stories: [storyId], transcripts: transcript ? [transcript] : [] };
    });
  }

  /** How many story quotes come from a transcript, and in which stories (asked before deleting it). */
  storyQuotesOf(transcriptId: string): Promise<QuotesOfTranscript> {
    return settle(() => this.stories.quotesOf(transcriptId));
  }

  private storyChange(work: () => Story): Promise<Story> {
    return this.changing(() => {
      const story = work();
      return { result: story, stories: [story.id] };
    });
  }

  // Copies kept from the newsroom (see NewsroomCopyStore).

  /** Where a copy kept from the newsroom comes from; undefined for the reporter's own transcripts. */
  newsroomOrigin(id: string): Promise<StoredNewsroomOrigin | undefined> {
    return settle(() => this.copies.origin(id));
  }

  /**
   * Keeps a published revision of a colleague's transcript as a read-only copy, or brings the
   * copy to it, in one transaction with its highlights' refresh (they keep their times and take
   * the revision's words). The audio path it replaced is returned for the caller to delete.
   */
  keepNewsroomCopy(
    copy: NewsroomCopyContent,
  ): Promise<{ id: string; outcome: KeepOutcome; replacedAudioPath: string | null }> {
    return this.changing(() => {
      const kept = this.copies.keep(copy);
      if (kept.outcome !== 'updated') return { result: kept };
      const changed = this.highlights.refresh(kept.id);
      this.stories.refreshSnapshots(changed);
      // The new revision's stamps may check (or uncheck) any of its quotes, changed words or not.
      return { result: kept, ...this.quotesOf(kept.id) };
    });
  }

  // The newsroom outbox (see NewsroomOutboxStore).

  /**
   * Queues the publication as the transcript's next revision in one transaction with its
   * 'waiting' state; a finished transcript only.
   */
  queueNewsroomPublish(
    content: PublicationContent,
    withAudio: boolean,
    audioNote: string | null = null,
  ): Promise<NewsroomPublicationRecord> {
    return settle(() => {
      this.copies.requireOwn(content.transcriptId, 'publishing it');
      return this.outbox.queuePublish(content, withAudio, audioNote);
    });
  }

  /** Queues taking a published transcript out of the newsroom archive. */
  queueNewsroomUnpublish(id: string): Promise<NewsroomPublicationRecord> {
    return settle(() => this.outbox.queueUnpublish(id));
  }

  newsroomPublication(id: string): Promise<NewsroomPublicationRecord | undefined> {
    return settle(() => this.outbox.publication(id));
  }

  /** The oldest due outbox item, under `holder`'s lease so no other sender sends it meanwhile. */
  claimNewsroomItem(holder: string, leaseMs: number): Promise<OutboxEntry | undefined> {
    return settle(() => this.outbox.claimNext(holder, leaseMs));
  }

  renewNewsroomLease(id: number, holder: string, leaseMs: number): Promise<boolean> {
    return settle(() => this.outbox.renewLease(id, holder, leaseMs));
  }

  /** When the next outbox item falls due, or undefined when the outbox is empty. */
  nextNewsroomItemDueAt(): Promise<number | undefined> {
    return settle(() => this.outbox.nextDueAt());
  }

  /** What waits in the newsroom outbox, oldest first. */
  newsroomOutbox(): Promise<WaitingOutboxItem[]> {
    return settle(() => this.outbox.waiting());
  }

  /** Every outbox item backing off is tried at once (the newsroom is back, or the reporter asked). */
  retryNewsroomItemsNow(): Promise<number> {
    return settle(() => this.outbox.retryAllNow());
  }

  /** Frees what these dead senders had claimed, so a live one sends it without waiting for the lease. */
  releaseNewsroomLeasesOf(holders: readonly string[]): Promise<number> {
    return settle(() => this.outbox.releaseLeasesOf(holders));
  }

  /** The publications of these transcripts, by id (those never published are absent). */
  newsroomPublications(ids: readonly string[]): Promise<Map<string, NewsroomPublicationRecord>> {
    return settle(() => this.outbox.publications(ids));
  }

  /** The desk this library published to last, or undefined before its first publish. */
  lastNewsroomDesk(): Promise<string | undefined> {
    return settle(() => this.outbox.lastDesk());
  }

  newsroomOutboxSize(): Promise<number> {
    return settle(() => this.outbox.pendingCount());
  }

  /** The archive applied the item: it leaves the outbox and the revision is recorded, together. */
  newsroomItemApplied(
    entry: OutboxEntry,
    audioNote: string | null = null,
  ): Promise<NewsroomPublicationRecord | undefined> {
    return settle(() => this.outbox.applied(entry, audioNote));
  }

  /** The newsroom was unreachable: the item waits `delayMs` before its next try. */
  retryNewsroomItemLater(
    entry: OutboxEntry,
    holder: string,
    delayMs: number,
    message: string,
  ): Promise<void> {
    return settle(() => this.outbox.retryLater(entry, holder, delayMs, message));
  }

  /** The archive refused the item: it leaves the outbox and the transcript shows why. */
  newsroomItemFailed(entry: OutboxEntry, message: string): Promise<NewsroomPublicationRecord | undefined> {
    return settle(() => this.outbox.failed(entry, message));
  }

  /**
   * Stories an editor reviews (issue #36): the review's own store, for the review's sync and
   * commands (story-review-store.ts); each call is one of its methods, or its own transaction.
   */
  reviews<T>(work: (store: StoryReviewStore) => T): Promise<T> {
    return settle(() => work(this.storyReviews));
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

/** The change is stored; a window that went away mid-broadcast only misses an update. */
function announceSafely<T>(signal: Signal<T>, value: T): void {
  try {
    signal.emit(value);
  } catch {
    // Nothing to undo: the next change or a reload brings the window up to date.
  }
}
