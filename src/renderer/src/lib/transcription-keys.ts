/**
 * Transcribing with the keyboard, the oTranscribe and Descript habits: one key plays and pauses
 * while the caret stays in the text, Ctrl/Cmd+Space does too, Ctrl/Cmd+[ and ] change the speed,
 * Ctrl/Cmd+Shift+[ and ] go back or forward, Ctrl/Cmd+Enter plays from the caret. Pure: given a
 * key press and the settings it says which action is meant, so the rules are tested without a page.
 */

import {
  parseChord,
  resolveKeymap,
  type ChordModifier,
  type CommandId,
  type KeymapPlatform,
  type KeymapSettings,
} from '../../../shared/keymap';
import { chordOf, commandsForPress, type KeyLike, type KeyPlace } from './keymap';

export type Platform = KeymapPlatform;

export type TranscriptionAction =
  'toggle-play' | 'slower' | 'faster' | 'back' | 'forward' | 'play-from-caret';

export const defaultPlayPauseKey = 'Escape';

/** The machine the page runs on, from the user agent (as the navigation bar decides ⌘ or Ctrl+). */
export function platformOf(userAgent: string): Platform {
  if (/Mac|iPhone|iPad/.test(userAgent)) return 'mac';
  if (userAgent.includes('Windows')) return 'windows';
  return 'linux';
}

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

/** Keys that move the caret or between fields: taking one would stop the journalist typing. */
const editingKeys = new Set([
  'Enter',
  'Tab',
  'Backspace',
  'Delete',
  'ArrowLeft',
  'ArrowRight',
  'ArrowUp',
  'ArrowDown',
  'Home',
  'End',
  'PageUp',
  'PageDown',
]);

/** Ctrl/Cmd with these already select, copy, paste, undo, format or find. */
const commandLettersTaken = new Set(['A', 'B', 'C', 'F', 'I', 'U', 'V', 'X', 'Y', 'Z']);

/**
 * Why a chord cannot be the play/pause key, in a sentence for the journalist, or undefined when
 * it can. Refused: anything that types (letters, digits, punctuation, Space, also with Shift, or
 * with Alt, which types accents and symbols on a Mac), keys that edit or move the caret, and
 * keys Verbatim or the text already use.
 */
export function chordRefusal(chord: string, platform: Platform): string | undefined {
  const { modifiers, key } = parseChord(chord);
  const shown = formatChord(chord, platform);
  const command = modifiers.has('Mod') || modifiers.has('Ctrl') || modifiers.has('Meta');
  if (editingKeys.has(key)) {
    return `${shown} is needed for typing and moving the caret. Choose another key, such as Escape or F4.`;
  }
  if (key === 'Dead' || key === 'Unidentified' || key === 'Process') {
    return 'That key cannot be recognised on its own. Choose another key, such as Escape or F4.';
  }
  const types = key === 'Space' || [...key].length === 1;
  if (types && !command) {
    const how = modifiers.has('Alt')
      ? `types a character on some keyboards (${formatModifier('Alt', platform)} makes accents and symbols)`
      : 'types a character';
    return `${shown} ${how}. Choose a key that types nothing, such as Escape or F4, or hold ${formatModifier(platform === 'mac' ? 'Meta' : 'Ctrl', platform)} with it.`;
  }
  if (command && !modifiers.has('Alt')) {
    const taken =
      key === 'Space' ||
      key === '[' ||
      key === ']' ||
      key === '{' ||
      key === '}' ||
      /^[0-9]$/.test(key) ||
      (!modifiers.has('Shift') && commandLettersTaken.has(key));
    if (taken) return `${shown} already does something else in Verbatim or in the text. Choose another key.`;
  }
  return undefined;
}

function formatModifier(modifier: Exclude<ChordModifier, 'Mod'>, platform: Platform): string {
  if (platform === 'mac') return { Ctrl: '⌃', Alt: '⌥', Shift: '⇧', Meta: '⌘' }[modifier];
  if (modifier === 'Meta') return platform === 'windows' ? 'Win' : 'Super';
  return modifier;
}

const keyNames: Record<string, string> = {
  Escape: 'Esc',
  Space: 'Space',
  ArrowLeft: '←',
  ArrowRight: '→',
  ArrowUp: '↑',
  ArrowDown: '↓',
};
const macKeyNames: Record<string, string> = { Enter: '↩', Backspace: '⌫', Delete: '⌦', Tab: '⇥' };

/**
 * A chord as the machine's own menus write it: "⌃⌥⇧⌘K" on a Mac (in that order), "Ctrl+Shift+K"
 * on Windows and Linux. "Mod" stands for ⌘ on a Mac and Ctrl elsewhere.
 */
export function formatChord(chord: string, platform: Platform): string {
  const { modifiers, key } = parseChord(chord.replace(/^Mod\+/, platform === 'mac' ? 'Meta+' : 'Ctrl+'));
  const name = (platform === 'mac' ? macKeyNames[key] : undefined) ?? keyNames[key] ?? key;
  const shownModifiers = (['Ctrl', 'Alt', 'Shift', 'Meta'] as const)
    .filter((modifier) => modifiers.has(modifier))
    .map((modifier) => formatModifier(modifier, platform));
  return platform === 'mac' ? `${shownModifiers.join('')}${name}` : [...shownModifiers, name].join('+');
}

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
