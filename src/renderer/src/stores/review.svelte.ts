import { SvelteSet } from 'svelte/reactivity';
import type { CorrectionState } from '../../../shared/corrections/corrections';
import type { TranscriptDetail } from '../../../shared/ipc/contract';
import { api } from '../lib/api';
import type { Problem } from '../lib/error-message';
import { clock, wordAt, type ReaderModel } from '../lib/reader-model';
import { caught } from '../lib/report-problem';
import { paragraphAt, paragraphRows, reviewProgress, stepUncertain, uncertainWords } from '../lib/review';

/** What the review needs of the open transcript (TranscriptStore is one). */
export interface ReviewHost {
  readonly id: string;
  readonly detail: TranscriptDetail | undefined;
  readonly model: ReaderModel | undefined;
  notice: string;
  error: Problem | undefined;
  revealTurn: { turn: number; word: number } | undefined;
  nowMs(): number;
  seek(ms: number, reveal?: boolean): void;
  setCorrectionState(state: CorrectionState): void;
}

/**
 * The review pass over one open transcript: stepping through the words the service was unsure
 * of that nobody has checked yet, and stamping paragraphs as checked against the audio. The
 * stamps are main's (corrections.check); this only asks for them and shows them.
 */
export class ReviewState {
  /** Words still to listen to, in reading order (flat indexes as the reader numbers them). */
  uncertain = $derived.by(() => {
    const detail = this.host.detail;
    return detail ? uncertainWords(detail.sentences, detail.paragraphs, detail.corrections.checks) : [];
  });
  progress = $derived.by(() => {
    const detail = this.host.detail;
    return reviewProgress(detail?.corrections.checks.length ?? 0, detail?.paragraphs.length ?? 0);
  });
  /**
   * Where each checked paragraph starts, for the scrubber's ticks: read from the stamps alone,
   * since the rows below are made from every sentence, which an edit changes (issue #33).
   */
  checkedStarts = $derived.by(() => {
    const detail = this.host.detail;
    if (!detail) return [];
    return detail.corrections.checks
      .map((check) => ({ paragraph: check.paragraph, startMs: detail.paragraphs[check.paragraph]?.startMs }))
      .filter((check): check is { paragraph: number; startMs: number } => check.startMs !== undefined)
      .sort((a, b) => a.startMs - b.startMs);
  });
  rows = $derived.by(() => {
    const detail = this.host.detail;
    return detail ? paragraphRows(detail.sentences, detail.paragraphs, detail.corrections.checks) : [];
  });
  /** A stamp is on its way for these paragraphs: their toggles wait for it. */
  readonly pending = new SvelteSet<number>();

  /**
   * The uncertain word last moved to. Two words can start at the same moment, so where the
   * recording is does not always say which of them we are on; while the recording stays
   * there, stepping goes on from this word.
   */
  private cursor: { word: number; ms: number } | undefined;

  constructor(private readonly host: ReviewHost) {}

  /** Moves to the next (1) or previous (-1) uncertain word: seeks there and brings it into view. */
  step(direction: 1 | -1): void {
    const model = this.host.model;
    if (!model) return;
    const now = this.host.nowMs();
    const from = this.cursor && this.cursor.ms === now ? this.cursor.word : wordAt(model.starts, now);
    const word = stepUncertain(this.uncertain, from, direction);
    if (word === undefined) {
      const left = this.uncertain.length;
      this.host.notice =
        left === 0
          ? 'No uncertain words are left to check.'
          : direction === 1
            ? `No uncertain word after this point (${left} before it). Shift+F8 goes back.`
            : `No uncertain word before this point (${left} after it). F8 goes on.`;
      return;
    }
    const ms = model.starts[word] ?? 0;
    this.host.seek(ms);
    this.cursor = { word, ms: this.host.nowMs() };
    this.host.revealTurn = { turn: model.turnOf[word] ?? 0, word };
    const index = this.uncertain.indexOf(word);
    const text = model.turns[model.turnOf[word] ?? 0]?.words.find((each) => each.index === word)?.text ?? '';
    this.host.notice = `Uncertain word ${index + 1} of ${this.uncertain.length}: “${text}” at ${clock(ms)}`;
  }

  /** Stamps a paragraph as checked against the audio now, or takes the stamp away. */
  async setChecked(paragraph: number, checked: boolean): Promise<void> {
    if (this.pending.has(paragraph)) return;
    this.pending.add(paragraph);
    this.host.error = undefined;
    try {
      const state = await api.corrections.check({ id: this.host.id, paragraph, checked });
      this.host.setCorrectionState(state);
      this.host.notice = `${checked ? 'Checked' : 'Unchecked'} paragraph ${paragraph + 1}. ${this.progress.text}.`;
    } catch (error) {
      this.host.error = caught(error, 'corrections.check');
    } finally {
      this.pending.delete(paragraph);
    }
  }

  /** Stamps the paragraph the recording is in as checked: what a journalist does after listening. */
  async checkPlaying(): Promise<void> {
    const detail = this.host.detail;
    if (!detail) return;
    if (detail.paragraphs.length === 0) {
      this.host.notice = 'This transcript has no paragraphs to check.';
      return;
    }
    const paragraph = Math.max(0, paragraphAt(detail.paragraphs, this.host.nowMs()));
    await this.setChecked(paragraph, true);
  }
}
