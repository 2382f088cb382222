import type { Handlers } from './keymap';
import type { TranscriptionAction } from './transcription-keys';

/** What the reader's keys drive: the open transcript's store and the view's own dialogs. */
export interface ReaderCommandTargets {
  /** The transcribing keys (play/pause with its rewind, speed, skips, play from the caret). */
  transcribe(action: TranscriptionAction): void;
  togglePlay(): void;
  skip(deltaMs: number): void;
  stepRate(direction: 1 | -1): void;
  undo(): void;
  redo(): void;
  openFind(replace: boolean): void;
  stepMatch(direction: 1 | -1): void;
  stepUncertain(direction: 1 | -1): void;
  checkPlaying(): void;
  startHighlight(): void;
  /** Grows the selection a word from the caret; false when the caret is not in the text. */
  extendSelection(direction: 'forward' | 'backward'): boolean;
  showHelp(): void;
  /** Opens "Publish to newsroom…". */
  publish(): void;
}

/** A press on a button, link or disclosure: Space is theirs there (it presses them). */
function onControl(event: KeyboardEvent): boolean {
  return event.target instanceof Element && !!event.target.closest('button, a, summary');
}

/** Every command of the reader, by id, for the keyboard dispatcher. */
export function readerCommands(targets: ReaderCommandTargets): Handlers<'reader' | 'reader-typing'> {
  return {
    'player.toggle': (event) => (onControl(event) ? false : targets.togglePlay()),
    'player.back': () => targets.skip(-5000),
    'player.forward': () => targets.skip(5000),
    'player.slower': () => targets.stepRate(-1),
    'player.faster': () => targets.stepRate(1),
    'transcribe.toggle-play': () => targets.transcribe('toggle-play'),
    'transcribe.slower': () => targets.transcribe('slower'),
    'transcribe.faster': () => targets.transcribe('faster'),
    'transcribe.back': () => targets.transcribe('back'),
    'transcribe.forward': () => targets.transcribe('forward'),
    'transcribe.play-from-caret': () => targets.transcribe('play-from-caret'),
    'corrections.undo': () => targets.undo(),
    'corrections.redo': () => targets.redo(),
    'find.open': () => targets.openFind(false),
    'find.replace': () => targets.openFind(true),
    'find.next': () => targets.stepMatch(1),
    'find.previous': () => targets.stepMatch(-1),
    'review.next': () => targets.stepUncertain(1),
    'review.previous': () => targets.stepUncertain(-1),
    'review.check': () => targets.checkPlaying(),
    'highlight.extend-back': () => targets.extendSelection('backward'),
    'highlight.extend-forward': () => targets.extendSelection('forward'),
    'highlight.create': () => targets.startHighlight(),
    'help.show': () => targets.showHelp(),
    'newsroom.publish': () => targets.publish(),
  };
}
