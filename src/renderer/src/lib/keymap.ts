import {
  commandFacts,
  commandsFor,
  conflictsOf,
  swapClash,
  defaultChords,
  keyContexts,
  normalizeChord,
  parseChord,
  worksWhileTyping,
  type CommandId,
  type CommandsIn,
  type KeyContext,
  type ResolvedKeymap,
} from '../../../shared/keymap';
import { chordRefusal, formatChord, type Platform } from './chord-text';

/**
 * Reading key presses against the keymap (shared/keymap.ts). Pure: a press and the resolved
 * keymap in, the commands it means out, so the dispatcher's rules are tested without a page.
 */

/** Runs a command for a key press; false when it does not apply now, so the key goes on as usual. */
export type CommandHandler = (event: KeyboardEvent) => boolean | void;

/** A handler for every command of some contexts: the type checker asks for each one. */
export type Handlers<Context extends KeyContext> = Record<CommandsIn<Context>, CommandHandler>;

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

/**
 * Where the key was pressed. In the transcript text every transcription key works; in another
 * field (find, tags, Ask) a plain Escape stays the field's (it clears the find box).
 */
export type KeyPlace = 'transcript-text' | 'other-field' | 'elsewhere';

const modifierNames = ['Ctrl', 'Alt', 'Shift', 'Meta'] as const;

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

function chordFrom(event: KeyLike, key: string, shift = event.shiftKey): string {
  const held = { Ctrl: event.ctrlKey, Alt: event.altKey, Shift: shift, Meta: event.metaKey };
  return [...modifierNames.filter((name) => held[name]), key].join('+');
}

/**
 * The chord a key press makes, written as it is stored: modifiers in a fixed order, then the
 * key ("Escape", "F4", "Ctrl+Shift+K", "Space"). A letter is upper case so Shift does not
 * make it another chord. Undefined for a modifier pressed alone or a key still being composed.
 */
export function chordOf(event: KeyLike): string | undefined {
  if (event.isComposing || loneModifiers.has(event.key) || !event.key) return undefined;
  const key = event.key === ' ' ? 'Space' : event.key.length === 1 ? event.key.toUpperCase() : event.key;
  return chordFrom(event, key);
}

/** The key at a place on the keyboard, for chords kept where a layout types another character. */
function keyAtCode(code: string | undefined): string | undefined {
  if (!code) return undefined;
  if (code === 'BracketLeft') return '[';
  if (code === 'BracketRight') return ']';
  if (/^Key[A-Z]$/.test(code)) return code.slice(3);
  if (/^Digit[0-9]$/.test(code)) return code.slice(5);
  return undefined;
}

/** Without a place on the keyboard (a synthetic press), Shift+[ is read from the "{" it types. */
const shiftedBrackets: Record<string, string | undefined> = { '{': '[', '}': ']' };

/**
 * Every way a key press may be written in the keymap, best first: as typed; by the key's place
 * on the keyboard (Ctrl+[ where "[" needs AltGr, ⌘⌥F where ⌥ turns F into ƒ); without the Shift
 * that a punctuation mark needs ("?"); and each with Ctrl or ⌘ read as "Mod".
 */
export function chordsOf(event: KeyLike): string[] {
  const typed = chordOf(event);
  if (!typed) return [];
  const readings = [typed];
  const placed = keyAtCode(event.code) ?? (event.code ? undefined : shiftedBrackets[event.key]);
  if (placed) readings.push(chordFrom(event, placed));
  const plain = !event.ctrlKey && !event.metaKey && !event.altKey;
  if (
    plain &&
    event.shiftKey &&
    event.key.length === 1 &&
    event.key.toLowerCase() === event.key.toUpperCase()
  )
    readings.push(chordFrom(event, event.key === ' ' ? 'Space' : event.key, false));
  const withMod = readings.flatMap((chord) => {
    if (event.ctrlKey === event.metaKey) return [];
    const rest = event.ctrlKey ? chord.replace(/^Ctrl\+/, '') : chord.replace('Meta+', '');
    return [`Mod+${rest}`];
  });
  return [...new Set([...readings, ...withMod])];
}

/** The contexts whose keys apply: in a text field only those that work while typing. */
export function contextsWhere(typing: boolean): KeyContext[] {
  return typing ? keyContexts.filter(worksWhileTyping) : [...keyContexts];
}

/**
 * The commands a press means where it was pressed, best first. A plain Escape in another field
 * stays the field's (it clears the find box, closes the tag editor), whatever it is bound to.
 */
export function commandsForPress(
  resolved: ResolvedKeymap,
  event: KeyLike,
  place: KeyPlace,
  typing: boolean,
): CommandId[] {
  const chords = chordsOf(event);
  if (place === 'other-field' && chords[0] === 'Escape') return [];
  return commandsFor(resolved, chords, contextsWhere(typing));
}

/** What Settings may do with a chord the journalist pressed for a command. */
export type RebindCheck =
  | { kind: 'accepted'; chord: string }
  | { kind: 'refused'; chord: string; message: string }
  | { kind: 'conflict'; chord: string; other: CommandId; message: string };

/**
 * Whether `command` may answer to `chord`. Refused: Tab (it moves between controls, so taking it
 * would trap the keyboard) and, for a command that works while typing, a key that types or moves
 * the caret. A chord another command answers to where this one's keys apply too is a conflict,
 * named in the message so the journalist can swap the two or choose another.
 */
export function checkRebind(
  resolved: ResolvedKeymap,
  command: CommandId,
  pressed: string,
  platform: Platform,
): RebindCheck {
  const chord = normalizeChord(pressed);
  const shown = formatChord(chord, platform);
  const [other, ...more] = conflictsOf(resolved, command, chord);
  if (other && more.length > 0) {
    // Two commands that never meet may share a key (one in the reader, one in the Library);
    // one that meets both cannot take it, and a swap could give it to only one of them.
    return {
      kind: 'refused',
      chord,
      message: `${shown} already does ${bothDescribed([other, ...more])}. Choose another key.`,
    };
  }
  if (other) {
    // A swap gives the other command this one's key: not offered when that would leave two
    // commands that meet on one key (a third command's key, or one meeting the new chord).
    const clash = swapClash(resolved, command, other, chord);
    if (clash) {
      const [first, second] = clash.map((id) => `“${commandFacts(id).description}”`);
      return {
        kind: 'refused',
        chord,
        message: `${shown} already does “${commandFacts(other).description}”, and a swap would leave ${first} and ${second} on one key. Choose another key.`,
      };
    }
    const message = `${shown} already does “${commandFacts(other).description}”. Swap the two keys, or choose another.`;
    return { kind: 'conflict', chord, other, message };
  }
  if (parseChord(chord).key === 'Tab') {
    return { kind: 'refused', chord, message: `${shown} moves between controls. Choose another key.` };
  }
  const ownDefault = defaultChords(command, platform).map(normalizeChord).includes(chord);
  const refusal =
    worksWhileTyping(commandFacts(command).context) && !ownDefault
      ? chordRefusal(chord, platform)
      : undefined;
  return refusal ? { kind: 'refused', chord, message: refusal } : { kind: 'accepted', chord };
}

/** “Play or pause” and “Search the library”: the commands' descriptions, joined as a sentence says them. */
function bothDescribed(commands: readonly CommandId[]): string {
  const described = commands.map((command) => `“${commandFacts(command).description}”`);
  return described.length > 1
    ? `${described.slice(0, -1).join(', ')} and ${described.at(-1)!}`
    : (described[0] ?? '');
}

/**
 * Whether `command` may have its own keys back: not while another command has taken one of
 * them since, which is named so the journalist changes that one first.
 */
export function checkReset(resolved: ResolvedKeymap, command: CommandId, platform: Platform): RebindCheck {
  const defaults = defaultChords(command, platform).map(normalizeChord);
  for (const chord of defaults) {
    const [other, ...more] = conflictsOf(resolved, command, chord);
    if (!other) continue;
    const shown = formatChord(chord, platform);
    if (more.length > 0)
      return {
        kind: 'refused',
        chord,
        message: `${shown} now does ${bothDescribed([other, ...more])}. Change those first.`,
      };
    const message = `${shown} now does “${commandFacts(other).description}”. Change that one first, or swap the two keys.`;
    return { kind: 'conflict', chord, other, message };
  }
  return { kind: 'accepted', chord: defaults[0] ?? '' };
}
