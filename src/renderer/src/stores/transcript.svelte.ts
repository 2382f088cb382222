import { untrack } from 'svelte';
import type { TranscriptDetail } from '../../../shared/ipc/contract';
import type { QuotesOnDelete } from '../../../shared/highlights';
import type { TranscriptSummary } from '../../../shared/library';
import { api } from '../lib/api';
import { problem, type Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';
import { buildModel, isVideo, speakerName, wordAt, type ReaderModel } from '../lib/reader-model';
import { TranscriptionKeys, type TranscriptionKeyEvent } from './transcription-keys.svelte';
import { Corrections } from './corrections.svelte';
import type { CorrectionState } from '../../../shared/corrections/corrections';
import { sentenceMatches, type SentenceMatch } from '../lib/find-replace';
import { FindReplace } from './find-replace.svelte';
import { ReviewState } from './review.svelte';

export const speeds = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2] as const;

/** Sentences painted first, read only, while the whole transcript loads: more than a screen. */
export const openingSentences = 40;

/**
 * One open transcript: its text model, its recording, find, and the edits the journalist
 * makes. The media element is owned by the player component and registered here so the
 * keyboard shortcuts, the words and the side panels can all drive it.
 */
export class TranscriptStore {
  detail = $state.raw<TranscriptDetail | undefined>(undefined);
  summary = $state.raw<TranscriptSummary | undefined>(undefined);
  model = $state.raw<ReaderModel | undefined>(undefined);
  /** The first sentences' model, shown read only until `model` (the whole transcript) is built. */
  opening = $state.raw<ReaderModel | undefined>(undefined);
  loadError = $state<Problem | undefined>(undefined);
  /** The last edit's failure, shown in an alert. */
  error = $state<Problem | undefined>(undefined);
  /** A short confirmation for screen readers and sighted users alike. */
  notice = $state('');

  mediaFailed = $state(false);
  mediaVersion = $state(0);
  playing = $state(false);
  rate = $state(1);
  currentMs = $state(0);
  durationMs = $state(0);

  query = $state('');
  /** Whole word, match case and replace (issue #19); declared first, as `matches` reads its options. */
  readonly findReplace: FindReplace = new FindReplace(this);
  // Sentence by sentence, with main's own expression: the count is what Replace all replaces.
  matches: SentenceMatch[] = $derived(
    this.model && this.detail
      ? sentenceMatches(this.detail.sentences, this.model, this.query, this.findReplace.options)
      : [],
  );
  matchIndex = $state(0);
  showUnredacted = $state(false);

  /** Set when the view should scroll a turn into view (a seek from outside the text). */
  revealTurn = $state<{ turn: number; word: number } | undefined>(undefined);

  /** The journalist's corrections: retyping, speakers, undo and redo (issue #19). */
  readonly corrections: Corrections = new Corrections(this);

  private media: HTMLMediaElement | undefined;
  /** The last element attached, kept when it goes, so its successor knows it replaces one. */
  private lastMedia: HTMLMediaElement | undefined;
  private pendingSeekMs: number | undefined;

  constructor(readonly id: string) {}

  /**
   * Opens the transcript: paints the first sentences, then loads the whole. The whole one is
   * asked for only once the first are in: main answers one request at a time, so asking for both
   * at once would make the small answer wait behind the large one. A short transcript comes
   * whole in the opening's answer, with no second request.
   */
  async open(): Promise<void> {
    const whole = await this.loadOpening();
    if (whole) this.show(whole);
    else await this.load();
  }

  /** Loads the whole transcript again (a job that completed, a correction that met a conflict). */
  async load(): Promise<void> {
    try {
      this.show(await api.transcripts.get({ id: this.id }));
    } catch (error) {
      this.opening = undefined;
      this.loadError = caught(error, 'transcripts.get');
    }
  }

  private show(detail: TranscriptDetail): void {
    this.detail = detail;
    this.summary = detail.summary;
    this.model = buildModel(detail.sentences, detail.paragraphs);
    this.opening = undefined;
    this.corrections.loaded(detail);
  }

  /**
   * The first screen of a long transcript, or a short one whole (main sends all of it when its
   * sentences fit), so it is never shown read only. If this fails, the whole transcript's
   * request says why, or shows it.
   */
  private async loadOpening(): Promise<TranscriptDetail | undefined> {
    try {
      const opening = await api.transcripts.opening({ id: this.id, sentences: openingSentences });
      if (opening.complete) {
        const { complete: _complete, ...detail } = opening;
        return detail;
      }
      this.summary = opening.summary;
      this.opening = buildModel(opening.sentences, opening.paragraphs);
    } catch (error) {
      // An unexpected failure still reaches the log (caught); the reader shows the next request's.
      caught(error, 'transcripts.opening');
    }
    return undefined;
  }

  speaker(label: string | null): string {
    return speakerName(label, this.speakers);
  }

  /** The speakers as last drawn: an edit brings a new summary, most often with the same names. */
  private drawnSpeakers: TranscriptSummary['speakers'] = [];
  /**
   * The speakers' names, the same array while they stay the same, so the names shown on every
   * turn in view are not worked out again after each correction (each edit's summary is new).
   */
  private readonly speakers = $derived.by(() => {
    const next = this.summary?.speakers ?? [];
    const drawn = this.drawnSpeakers;
    const same =
      next.length === drawn.length &&
      next.every(
        (speaker, index) => speaker.label === drawn[index]?.label && speaker.name === drawn[index]?.name,
      );
    if (!same) this.drawnSpeakers = next;
    return this.drawnSpeakers;
  });

  /** A video recording: its element is the video pane's; a sound's is the transport's. */
  readonly isVideo = $derived(isVideo(this.summary?.audioPath ?? this.summary?.source ?? null));

  /**
   * The recording's address. A relinked recording gets a fresh one so the element reloads it,
   * and it is heard as the words read: redacted, unless the journalist shows the unredacted text.
   */
  readonly mediaSrc = $derived.by(() => {
    const url = api.local.mediaUrl(this.id, this.showUnredacted ? 'original' : 'redacted');
    if (!this.mediaVersion) return url;
    return `${url}${url.includes('?') ? '&' : '?'}v=${this.mediaVersion}`;
  });

  /** What the media element (audio or video) tells the reader: spread on the element. */
  readonly mediaEvents = {
    onloadedmetadata: (): void => this.onMetadata(),
    onplay: (): void => void (this.playing = true),
    onpause: (): void => void (this.playing = false),
    ontimeupdate: (event: Event): void =>
      void (this.currentMs = (event.currentTarget as HTMLMediaElement).currentTime * 1000),
    onerror: (): void => void (this.mediaFailed = true),
  };

  attachMedia(media: HTMLMediaElement | undefined): void {
    this.media = media;
    if (!media) return;
    media.playbackRate = this.rate;
    if (media === this.lastMedia) return;
    // An element in place of another (the original recording for the redacted one, or back)
    // goes on from where that one was. Untracked: the player re-attaches on a new element only.
    const at = untrack(() => this.currentMs);
    if (this.lastMedia && this.pendingSeekMs === undefined && at > 0) this.pendingSeekMs = at;
    this.lastMedia = media;
  }

  /** Applies a seek asked for before the recording could take it. */
  onMetadata(): void {
    if (!this.media) return;
    // A recording that loads plays, whatever the one before it did (refused redacted, then original).
    this.mediaFailed = false;
    this.durationMs = Number.isFinite(this.media.duration) ? this.media.duration * 1000 : 0;
    if (this.pendingSeekMs !== undefined) {
      this.media.currentTime = this.pendingSeekMs / 1000;
      this.pendingSeekMs = undefined;
    }
  }

  /** The player's clock, in milliseconds: the media's when it is ready, else the pending cue. */
  nowMs(): number {
    if (this.pendingSeekMs !== undefined || !this.media) return this.pendingSeekMs ?? 0;
    return this.media.currentTime * 1000;
  }

  seek(ms: number, reveal = false): void {
    const target = Math.max(0, ms);
    this.currentMs = target;
    if (this.media && this.media.readyState >= HTMLMediaElement.HAVE_METADATA) {
      this.media.currentTime = target / 1000;
    } else {
      this.pendingSeekMs = target;
    }
    if (reveal && this.model) {
      const word = wordAt(this.model.starts, target);
      this.revealTurn = { turn: word < 0 ? 0 : (this.model.turnOf[word] ?? 0), word };
    }
  }

  skip(deltaMs: number): void {
    this.seek(this.nowMs() + deltaMs);
  }

  /** Plays from a moment, as clicking a word does (the help says "click any word to play from there"). */
  async playFrom(ms: number): Promise<void> {
    this.seek(ms);
    if (!this.media || this.mediaFailed || !this.media.paused) return;
    try {
      await this.media.play();
    } catch {
      // A play interrupted by a pause or a seek is not an error worth showing.
    }
  }

  async togglePlay(): Promise<void> {
    if (!this.media || this.mediaFailed) return;
    if (this.media.paused) {
      try {
        await this.media.play();
      } catch {
        // A play interrupted by a pause or a seek is not an error worth showing.
      }
    } else {
      this.media.pause();
    }
  }

  setRate(rate: number): void {
    this.rate = Math.min(2, Math.max(0.5, rate));
    if (this.media) this.media.playbackRate = this.rate;
  }

  stepRate(direction: 1 | -1): void {
    const at = speeds.findIndex((speed) => speed >= this.rate - 1e-9);
    const next = speeds[Math.min(speeds.length - 1, Math.max(0, (at < 0 ? 2 : at) + direction))];
    this.setRate(next ?? 1);
  }

  /** Moves to the next (1) or previous (-1) find match and brings it into view. */
  stepMatch(direction: 1 | -1): void {
    const count = this.matches.length;
    if (count === 0) return;
    this.matchIndex = (this.matchIndex + direction + count) % count;
    const match = this.matches[this.matchIndex];
    if (match) this.revealTurn = { turn: match.turn, word: match.words[0] ?? -1 };
  }

  setQuery(query: string): void {
    this.query = query;
    this.matchIndex = 0;
    const first = this.matches[0];
    if (first) this.revealTurn = { turn: first.turn, word: first.words[0] ?? -1 };
  }

  async renameSpeaker(label: string, name: string): Promise<void> {
    await this.edit(
      'transcripts.renameSpeaker',
      async () => {
        this.summary = await api.transcripts.renameSpeaker({ id: this.id, label, name });
      },
      `Speaker ${label} renamed to ${name}.`,
    );
  }

  async setTitle(title: string): Promise<void> {
    await this.edit(
      'transcripts.setTitle',
      async () => {
        this.summary = await api.transcripts.setTitle({ id: this.id, title });
      },
      'Title saved.',
    );
  }

  async setTags(tags: string[]): Promise<void> {
    await this.edit(
      'transcripts.setTags',
      async () => {
        this.summary = await api.transcripts.setTags({ id: this.id, tags });
      },
      'Tags saved.',
    );
  }

  async relink(file: File): Promise<void> {
    await this.edit(
      'transcripts.relink',
      async () => {
        const path = await api.local.pathForFile(file);
        this.summary = await api.transcripts.relink({ id: this.id, path });
        this.mediaFailed = false;
        this.mediaVersion++;
      },
      'Recording found.',
    );
  }

  /** True when deleted. `quotesInStories`: what becomes of its quotes in stories. */
  async remove(remote: boolean, quotesInStories: QuotesOnDelete = 'keep-as-text'): Promise<boolean> {
    let done = false;
    await this.edit(
      'transcripts.delete',
      async () => {
        await api.transcripts.delete({ id: this.id, remote, quotesInStories });
        done = true;
      },
      'Transcript deleted.',
    );
    return done;
  }

  async copyQuote(quote: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(quote);
      this.notice = `Copied: ${quote}`;
    } catch {
      this.error = problem('The quote could not be copied to the clipboard.');
    }
  }

  // Transcribing with the keyboard (issue #19). The inline editor calls these three from its
  // turns; the reader view calls transcriptionKey from its own key handler.
  readonly transcription = new TranscriptionKeys(this);

  /** Handles a transcription key (play/pause, speed, skips, play from the caret): true when it did. */
  transcriptionKey(event: TranscriptionKeyEvent): boolean {
    return this.transcription.handle(event);
  }

  /** Call on every change typed in the transcript: pauses the recording if Settings say so. */
  noteTyping(): void {
    this.transcription.noteTyping();
  }

  /** Plays from the word the caret or selection is in; false (with a notice) when it is not in the text. */
  playFromCaret(selection?: Selection | null): boolean {
    return this.transcription.playFromCaret(selection);
  }

  /** True unless the recording is playing (also before it is loaded). */
  isPaused(): boolean {
    return !this.media || this.media.paused;
  }

  pause(): void {
    this.media?.pause();
  }

  private async edit(context: string, action: () => Promise<void>, success: string): Promise<void> {
    this.error = undefined;
    try {
      await action();
      this.notice = success;
    } catch (error) {
      this.error = caught(error, context);
    }
  }

  // The review pass (issue #19): its state and actions live in review.svelte.ts, find and
  // replace's in find-replace.svelte.ts; their edits go through `corrections`, like every other.
  readonly review: ReviewState = new ReviewState(this);

  /** Takes a new correction state (a paragraph stamped as checked) without touching the words. */
  setCorrectionState(state: CorrectionState): void {
    this.corrections.takeState(state);
  }
}
