import type { EditIntent, EditResult } from '../../../shared/corrections/corrections';
import type { TranscriptDetail } from '../../../shared/ipc/contract';
import {
  defaultFindOptions,
  matchAfterReplace,
  replaceIntent,
  replacedMessage,
  type FindOptions,
  type SentenceMatch,
} from '../lib/find-replace';
import type { Problem } from '../lib/error-message';
import { formatChord, platformOf } from '../lib/chord-text';

/** What find and replace needs of the open transcript (TranscriptStore is one). */
export interface FindReplaceHost {
  readonly id: string;
  readonly detail: TranscriptDetail | undefined;
  readonly query: string;
  readonly matches: SentenceMatch[];
  matchIndex: number;
  notice: string;
  error: Problem | undefined;
  revealTurn: { turn: number; word: number } | undefined;
  setQuery(query: string): void;
  /** The one queue every edit goes through, and its undo. */
  readonly corrections: {
    undo(): Promise<boolean>;
    run(intent: EditIntent, context?: string): Promise<EditResult | undefined>;
  };
}

/**
 * Find's options and replace for one open transcript. The query and the current match stay
 * the TranscriptStore's (the turn list highlights them); this adds whole word and match case,
 * the replacement, and the replace actions. Each replacement is an ordinary edit in main, so it
 * is undone like any other.
 */
export class FindReplace {
  /** The find bar is shown: Ctrl/Cmd+F or Ctrl/Cmd+H opens it, Escape closes it. */
  open = $state(false);
  options = $state<FindOptions>({ ...defaultFindOptions });
  replacement = $state('');
  /** The replace row is shown (Ctrl/Cmd+H, or the find bar's toggle). */
  replacing = $state(false);
  /** A replace is on its way: the buttons wait for it rather than send a second one. */
  busy = $state(false);
  /** The last replace's sentence, kept beside the find bar until the next search or replace. */
  result = $state('');

  constructor(private readonly host: FindReplaceHost) {}

  setOption(key: keyof FindOptions, value: boolean): void {
    this.options = { ...this.options, [key]: value };
    this.result = '';
    this.host.matchIndex = 0;
    this.revealCurrent();
  }

  /** Closes the bar; its matches stop being marked in the text and on the scrubber. */
  close(): void {
    this.open = false;
    this.replacing = false;
    this.result = '';
    this.host.setQuery('');
  }

  /** Replaces the current match only: main replaces that occurrence of that sentence. */
  async replaceCurrent(): Promise<void> {
    const match = this.host.matches[this.host.matchIndex];
    if (!match) return;
    const query = this.host.query;
    const result = await this.send(replaceIntent(query, this.replacement, this.options, match));
    if (!result) return;
    // The match after the words just written, so a replacement containing the query is not found again.
    const next = matchAfterReplace(this.host.matches, match, this.replacement.trim().length);
    this.host.matchIndex = Math.max(0, next);
    this.revealCurrent();
  }

  /** Replaces every match as one edit: one undo takes all of them back. */
  async replaceAll(): Promise<void> {
    if (this.host.matches.length === 0) return;
    const result = await this.send(replaceIntent(this.host.query, this.replacement, this.options));
    if (!result) return;
    this.host.matchIndex = 0;
  }

  /** Takes back the last edit (the replace just made) through the corrections' own Undo. */
  async undo(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      if (await this.host.corrections.undo()) {
        this.result = '';
        this.host.matchIndex = 0;
      }
    } finally {
      this.busy = false;
    }
  }

  /** Sends a replace through the corrections' queue (a stale one reloads and says so there). */
  private async send(intent: ReturnType<typeof replaceIntent>): Promise<EditResult | undefined> {
    if (this.busy || !this.host.detail) return undefined;
    this.busy = true;
    try {
      const result = await this.host.corrections.run(intent);
      if (!result) return undefined;
      this.result = replacedMessage(result.replaced, undoKey);
      this.host.notice = this.result;
      return result;
    } finally {
      this.busy = false;
    }
  }

  private revealCurrent(): void {
    const match = this.host.matches[this.host.matchIndex];
    if (match) this.host.revealTurn = { turn: match.turn, word: match.words[0] ?? -1 };
  }
}

const undoKey = formatChord('Mod+Z', platformOf(typeof navigator === 'undefined' ? '' : navigator.userAgent));
