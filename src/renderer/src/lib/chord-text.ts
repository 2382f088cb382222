/**
 * How a chord is named and judged for the journalist: the machine's own spelling of it (⌘ on a
 * Mac, Ctrl+ elsewhere) and why a key cannot be taken. Shared by the keymap and the transcription
 * keys, which both describe chords.
 */

import { parseChord, type ChordModifier, type KeymapPlatform } from '../../../shared/keymap';

export type Platform = KeymapPlatform;

/** The machine the page runs on, from the user agent (as the navigation bar decides ⌘ or Ctrl+). */
export function platformOf(userAgent: string): Platform {
  if (/Mac|iPhone|iPad/.test(userAgent)) return 'mac';
  if (userAgent.includes('Windows')) return 'windows';
  return 'linux';
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
