/**
 * Transcribing with the keyboard, the oTranscribe and Descript habits: one key plays and pauses
 * while the caret stays in the text, Ctrl/Cmd+Space does too, Ctrl/Cmd+[ and ] change the speed,
 * Ctrl/Cmd+Shift+[ and ] go back or forward, Ctrl/Cmd+Enter plays from the caret. Pure: given a
 * key press and the settings it says which action is meant, so the rules are tested without a page.
 */

import { resolveKeymap, type CommandId, type KeymapSettings } from '../../../shared/keymap';
import { chordRefusal, platformOf, type Platform } from './chord-text';
import { chordOf, commandsForPress, type KeyLike, type KeyPlace } from './keymap';

export type TranscriptionAction =
  'toggle-play' | 'slower' | 'faster' | 'back' | 'forward' | 'play-from-caret';

export const defaultPlayPauseKey = 'Escape';

/**
 * The transcription action a key press asks for, or undefined when it is an ordinary key
 * (which the reader's other shortcuts or the text then get). Read from the keymap, so a
 * rebinding in Settings applies here too.
 */
export function transcriptionAction(
  event: KeyLike,
  settings: KeymapSettings,
  place: KeyPlace,
): TranscriptionAction | undefined {
  const resolved = resolveKeymap(settings, platformOf(globalThis.navigator?.userAgent ?? ''));
  for (const command of commandsForPress(resolved, event, place, true)) {
    const action = transcriptionActions[command];
    if (action) return action;
  }
  return undefined;
}

const transcriptionActions: Partial<Record<CommandId, TranscriptionAction>> = {
  'transcribe.toggle-play': 'toggle-play',
  'transcribe.slower': 'slower',
  'transcribe.faster': 'faster',
  'transcribe.back': 'back',
  'transcribe.forward': 'forward',
  'transcribe.play-from-caret': 'play-from-caret',
};

/**
 * Where playback resumes after a pause: the configured seconds earlier, so the words that were
 * playing while the journalist typed are heard again; never before the start.
 */
export function resumeFromMs(pausedAtMs: number, rewindSeconds: number): number {
  const rewindMs = Math.max(0, Number.isFinite(rewindSeconds) ? rewindSeconds : 0) * 1000;
  return Math.max(0, pausedAtMs - rewindMs);
}

/** What a key pressed while Settings records a new play/pause key comes to. */
export type RecordedKey =
  | { kind: 'waiting' }
  | { kind: 'chosen'; chord: string }
  | { kind: 'refused'; message: string; chord: string };

/**
 * A modifier alone waits for the rest of the chord; anything else is chosen or refused with the
 * reason. (Tab is refused like any other key, but the section lets it move focus on, so the
 * recorder is never a keyboard trap.)
 */
export function recordedKey(event: KeyLike, platform: Platform): RecordedKey {
  const chord = chordOf(event);
  if (!chord) return { kind: 'waiting' };
  const message = chordRefusal(chord, platform);
  return message ? { kind: 'refused', message, chord } : { kind: 'chosen', chord };
}
