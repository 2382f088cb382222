import type { Settings } from '../../../shared/settings';
import type { ReaderModel } from '../lib/reader-model';
import { resumeFromMs, transcriptionAction, type TranscriptionAction } from '../lib/transcription-keys';
import { formatChord, platformOf, type Platform } from '../lib/chord-text';
import type { KeyLike, KeyPlace } from '../lib/keymap';
import { settings } from './settings.svelte';

/** The reader's scrolling text (turn-list.svelte); the inline editor's turns live inside it. */
export const transcriptTextSelector = '[role="region"][aria-label="Transcript text"]';

/** What the keys drive: the open transcript's player (TranscriptStore is one). */
export interface TranscriptionPlayback {
  readonly model: ReaderModel | undefined;
  readonly mediaFailed: boolean;
  notice: string;
  nowMs(): number;
  seek(ms: number): void;
  isPaused(): boolean;
  pause(): void;
  togglePlay(): Promise<void>;
  playFrom(ms: number): Promise<void>;
  skip(deltaMs: number): void;
  stepRate(direction: 1 | -1): void;
}

export type TranscriptionSettings = Pick<
  Settings,
  'playPauseKey' | 'rewindOnResumeSeconds' | 'autoPauseWhileTyping'
> &
  Partial<Pick<Settings, 'keyBindings'>>;

/** A key press as the handler needs it: a real KeyboardEvent is one. */
export type TranscriptionKeyEvent = KeyLike & {
  readonly target: EventTarget | null;
  readonly defaultPrevented: boolean;
  preventDefault(): void;
};

const formFields = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/** Where a key was pressed, read from its target (any DOM element; nothing else is a place). */
export function placeOf(target: EventTarget | null): KeyPlace {
  const element = target as (Element & { isContentEditable?: boolean }) | null;
  if (!element || typeof element.closest !== 'function') return 'elsewhere';
  const field = formFields.has(element.tagName);
  if (!field && element.closest(transcriptTextSelector)) return 'transcript-text';
  return field || element.isContentEditable ? 'other-field' : 'elsewhere';
}

/**
 * Transcribing with the keyboard for one open transcript: the play/pause key with its rewind on
 * resume, auto-pause while typing, speed and skips that work while typing, and play from the
 * caret. Owned by the TranscriptStore; it holds no listeners (the view and the editor call it).
 */
export class TranscriptionKeys {
  /** Set when typing paused the recording, until it plays again. */
  pausedWhileTyping = $state(false);

  constructor(
    private readonly playback: TranscriptionPlayback,
    private readonly options: () => TranscriptionSettings = () => settings.value,
    readonly platform: Platform = platformOf(globalThis.navigator?.userAgent ?? ''),
  ) {}

  /** Acts on a transcription key and answers true (its default prevented); false for any other key. */
  handle(event: TranscriptionKeyEvent): boolean {
    if (event.defaultPrevented) return false;
    const action = transcriptionAction(event, this.options(), placeOf(event.target));
    if (!action) return false;
    event.preventDefault();
    this.run(action);
    return true;
  }

  run(action: TranscriptionAction): void {
    switch (action) {
      case 'toggle-play':
        void this.togglePlay();
        return;
      case 'slower':
        this.playback.stepRate(-1);
        return;
      case 'faster':
        this.playback.stepRate(1);
        return;
      case 'back':
        this.playback.skip(-5000);
        return;
      case 'forward':
        this.playback.skip(5000);
        return;
      case 'play-from-caret':
        this.playFromCaret();
        return;
    }
  }

  /**
   * Pauses, or resumes the configured seconds earlier (never before the start), so the words
   * that played while the journalist typed are heard again.
   */
  async togglePlay(): Promise<void> {
    if (this.playback.mediaFailed) return;
    if (!this.playback.isPaused()) {
      this.playback.pause();
      return;
    }
    this.pausedWhileTyping = false;
    this.playback.seek(resumeFromMs(this.playback.nowMs(), this.options().rewindOnResumeSeconds));
    await this.playback.togglePlay();
  }

  /** Typing in the transcript: pauses a playing recording when the journalist asked for that. */
  noteTyping(): void {
    if (!this.options().autoPauseWhileTyping || this.playback.isPaused()) return;
    this.playback.pause();
    this.pausedWhileTyping = true;
    const { playPauseKey, rewindOnResumeSeconds } = this.options();
    this.playback.notice = `Paused while you type. ${formatChord(playPauseKey, this.platform)} plays on from ${rewindOnResumeSeconds} s earlier.`;
  }

  /**
   * Plays from the word the caret or the selection starts in (or the turn's start when its words
   * carry no index, as while it is edited). False, with a notice, when the caret is not in the text.
   */
  playFromCaret(selection: Selection | null = globalThis.document?.getSelection() ?? null): boolean {
    const model = this.playback.model;
    const at = model ? caretIn(selection) : undefined;
    const ms =
      at?.word !== undefined
        ? model?.starts[at.word]
        : at?.turn !== undefined
          ? model?.turns[at.turn]?.startMs
          : undefined;
    if (ms === undefined) {
      this.playback.notice = 'Put the caret in the transcript text first, then play from it.';
      return false;
    }
    void this.playback.playFrom(ms);
    return true;
  }
}

/** The word (flat index, `data-w`) and turn (`data-turn`) the selection starts in, inside the text. */
function caretIn(selection: Selection | null): { word?: number; turn?: number } | undefined {
  if (!selection || selection.rangeCount === 0) return undefined;
  const caret = selection.getRangeAt(0).cloneRange();
  caret.collapse(true);
  const node = caret.startContainer;
  const element = node instanceof Element ? node : node.parentElement;
  if (!element?.closest(transcriptTextSelector)) return undefined;
  const turnElement = element.closest<HTMLElement>('[data-turn]');
  const inWord = element.closest<HTMLElement>('[data-w]');
  // Between words (on a space, at a line's end): the last word that starts before the caret.
  const words = inWord ? [inWord] : [...(turnElement?.querySelectorAll<HTMLElement>('[data-w]') ?? [])];
  const before = words.filter((word) => caret.comparePoint(word, 0) <= 0);
  const word = before.at(-1) ?? words[0];
  const turn = turnElement ? Number(turnElement.dataset.turn) : undefined;
  return {
    word: word ? Number(word.dataset.w) : undefined,
    turn: turn !== undefined && Number.isInteger(turn) ? turn : undefined,
  };
}
