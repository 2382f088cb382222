/**
 * Transcribing with the keyboard, the oTranscribe and Descript habits: one key plays and pauses
 * while the caret stays in the text, Ctrl/Cmd+Space does too, Ctrl/Cmd+[ and ] change the speed,
 * Ctrl/Cmd+Shift+[ and ] go back or forward, Ctrl/Cmd+Enter plays from the caret. Pure: given a
 * key press and the settings it says which action is meant, so the rules are tested without a page.
 */

export type Platform = 'mac' | 'windows' | 'linux';

/** What a KeyboardEvent carries that the rules read (a real event is one). */
export interface KeyLike {
  key: string;
  code?: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  /** True while an input method is composing: its keys belong to it. */
  isComposing?: boolean;
}

export type TranscriptionAction =
  'toggle-play' | 'slower' | 'faster' | 'back' | 'forward' | 'play-from-caret';

/**
 * Where the key was pressed. In the transcript text every transcription key works; in another
 * field (find, tags, Ask) a plain Escape stays the field's (it clears the find box).
 */
export type KeyPlace = 'transcript-text' | 'other-field' | 'elsewhere';

export const defaultPlayPauseKey = 'Escape';

/** The machine the page runs on, from the user agent (as the navigation bar decides ⌘ or Ctrl+). */
export function platformOf(userAgent: string): Platform {
  if (/Mac|iPhone|iPad/.test(userAgent)) return 'mac';
  if (userAgent.includes('Windows')) return 'windows';
  return 'linux';
}

const modifierNames = ['Ctrl', 'Alt', 'Shift', 'Meta'] as const;
type Modifier = (typeof modifierNames)[number];

/** Keys that are only modifiers: pressed alone they are the start of a chord, not a chord. */
const loneModifiers = new Set([
  'Control',
  'Alt',
  'AltGraph',
  'Shift',
  'Meta',
  'OS',
  'CapsLock',
  'Fn',
  'FnLock',
]);

/**
 * The chord a key press makes, written as it is stored: modifiers in a fixed order, then the
 * key ("Escape", "F4", "Ctrl+Shift+K", "Space"). A letter is upper case so Shift does not
 * make it another chord. Undefined for a modifier pressed alone or a key still being composed.
 */
export function chordOf(event: KeyLike): string | undefined {
  if (event.isComposing || loneModifiers.has(event.key) || !event.key) return undefined;
  const key = event.key === ' ' ? 'Space' : event.key.length === 1 ? event.key.toUpperCase() : event.key;
  const held: Record<Modifier, boolean> = {
    Ctrl: event.ctrlKey,
    Alt: event.altKey,
    Shift: event.shiftKey,
    Meta: event.metaKey,
  };
  return [...modifierNames.filter((name) => held[name]), key].join('+');
}

interface ParsedChord {
  modifiers: Set<Modifier>;
  key: string;
}

/** Splits a stored chord; the key itself may be "+" ("Ctrl++"). */
function parseChord(chord: string): ParsedChord {
  const modifiers = new Set<Modifier>();
  let rest = chord;
  for (;;) {
    const modifier = modifierNames.find(
      (name) => rest.startsWith(`${name}+`) && rest.length > name.length + 1,
    );
    if (!modifier) break;
    modifiers.add(modifier);
    rest = rest.slice(modifier.length + 1);
  }
  return { modifiers, key: rest };
}

/** A stored chord in chordOf's order and case, so a hand-edited "Shift+Ctrl+k" still matches. */
export function normalizeChord(chord: string): string {
  const { modifiers, key } = parseChord(chord.trim());
  const named = key.length === 1 ? key.toUpperCase() : key;
  return [...modifierNames.filter((name) => modifiers.has(name)), named].join('+');
}

/** Ctrl on Windows and Linux, ⌘ on a Mac; either is taken on any machine, as Ctrl/Cmd+F is. */
function withCommand(event: KeyLike): boolean {
  return (event.ctrlKey || event.metaKey) && !event.altKey;
}

/** By the key's place on the keyboard first, so Ctrl+[ works where "[" needs AltGr to type. */
function isBracket(event: KeyLike, side: 'left' | 'right'): boolean {
  if (event.code) return event.code === (side === 'left' ? 'BracketLeft' : 'BracketRight');
  return side === 'left' ? event.key === '[' || event.key === '{' : event.key === ']' || event.key === '}';
}

/**
 * The transcription action a key press asks for, or undefined when it is an ordinary key
 * (which the reader's other shortcuts or the text then get).
 */
export function transcriptionAction(
  event: KeyLike,
  settings: { playPauseKey: string },
  place: KeyPlace,
): TranscriptionAction | undefined {
  const chord = chordOf(event);
  if (!chord) return undefined;
  const configured = normalizeChord(settings.playPauseKey || defaultPlayPauseKey);
  if (chord === configured && !(place === 'other-field' && chord === 'Escape')) return 'toggle-play';
  if (!withCommand(event)) return undefined;
  if (event.key === ' ' && !event.shiftKey) return 'toggle-play';
  if (event.key === 'Enter' && !event.shiftKey) return 'play-from-caret';
  if (isBracket(event, 'left')) return event.shiftKey ? 'back' : 'slower';
  if (isBracket(event, 'right')) return event.shiftKey ? 'forward' : 'faster';
  return undefined;
}

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
  const command = modifiers.has('Ctrl') || modifiers.has('Meta');
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

function formatModifier(modifier: Modifier, platform: Platform): string {
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
  const shownModifiers = modifierNames
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
