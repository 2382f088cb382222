import { z } from 'zod';

/**
 * Keys as data (issue #34): every command a key runs, where it applies, its default chords and
 * what it does in the journalist's words, in one table. The handlers, the tooltips, the help
 * dialog and Settings' "Keyboard shortcuts" all read it, so none of them can drift from the others.
 * Chords are written as they are stored: modifiers in a fixed order, then the key ("Mod+Shift+Z",
 * "Space", "Alt+ArrowLeft"); "Mod" is ⌘ on a Mac and Ctrl elsewhere, and either works anywhere.
 */

export type KeymapPlatform = 'mac' | 'windows' | 'linux';

/**
 * Where a command's keys apply. `global`: anywhere in the window. `reader`: in the open
 * transcript, except while typing in a field. `reader-typing`: in the open transcript, typing
 * included (so its keys must type nothing). `library` and `library-typing` likewise in the
 * Library; `record`: in Record, outside a field.
 */
export const keyContexts = [
  'global',
  'reader',
  'reader-typing',
  'library',
  'library-typing',
  'record',
] as const;
export type KeyContext = (typeof keyContexts)[number];

/**
 * Which contexts one key press can reach together, so their commands must not share a chord.
 * Every context of a view is reached from that view, and global keys from everywhere; two
 * views are never in front together.
 */
const readerContexts: readonly KeyContext[] = ['global', 'reader', 'reader-typing'];
const libraryContexts: readonly KeyContext[] = ['global', 'library', 'library-typing'];
const overlapping: Record<KeyContext, readonly KeyContext[]> = {
  global: keyContexts,
  reader: readerContexts,
  'reader-typing': readerContexts,
  library: libraryContexts,
  'library-typing': libraryContexts,
  record: ['global', 'record'],
};

export function contextsOverlap(first: KeyContext, second: KeyContext): boolean {
  return overlapping[first].includes(second);
}

/** True for contexts whose keys work while the journalist types. */
export function worksWhileTyping(context: KeyContext): boolean {
  return context === 'global' || context.endsWith('-typing');
}

/** The views Ctrl/Cmd+1 … 9 open, in the sidebar's order. */
export const viewCommands = [
  ['app.go-library', 'Library'],
  ['app.go-new', 'New transcription'],
  ['app.go-record', 'Record'],
  ['app.go-catalog', 'Catalog'],
  ['app.go-assistant', 'Assistant'],
  ['app.go-quotes', 'Quotes'],
  ['app.go-stories', 'Stories'],
  ['app.go-glossary', 'Glossary'],
  ['app.go-settings', 'Settings'],
] as const;

interface CommandFacts {
  context: KeyContext;
  /** The heading the help dialog and Settings list it under. */
  section: string;
  description: string;
  chords: readonly string[];
  /** Other chords on a Mac, where the usual ones mean something else to the system. */
  macChords?: readonly string[];
}

const listening = 'Listening (when not typing in a field)';
const transcribing = 'Transcribing (also while typing in the text)';
const correcting = 'Correcting the text';
const finding = 'Finding';
const reviewing = 'Reviewing';
const highlighting = 'Highlighting';
const anywhere = 'Anywhere in Verbatim';
const inLibrary = 'In the Library';
const recording = 'Recording';
const publishing = 'Publishing';

/** The keymap table. Adding a command here makes the type checker ask for its handler. */
export const keymap = {
  'player.toggle': { context: 'reader', section: listening, description: 'Play or pause', chords: ['Space'] },
  'player.back': {
    context: 'reader',
    section: listening,
    description: 'Back 5 seconds',
    chords: ['ArrowLeft'],
  },
  'player.forward': {
    context: 'reader',
    section: listening,
    description: 'Forward 5 seconds',
    chords: ['ArrowRight'],
  },
  'player.slower': {
    context: 'reader',
    section: listening,
    description: 'Slower (down to 0.5x)',
    chords: ['['],
  },
  'player.faster': { context: 'reader', section: listening, description: 'Faster (up to 2x)', chords: [']'] },

  'transcribe.toggle-play': {
    context: 'reader-typing',
    section: transcribing,
    description:
      'Play or pause, the caret staying in the text (playing again goes back the seconds set in Settings)',
    chords: ['Escape', 'Mod+Space'],
  },
  'transcribe.slower': {
    context: 'reader-typing',
    section: transcribing,
    description: 'Slower',
    chords: ['Mod+['],
  },
  'transcribe.faster': {
    context: 'reader-typing',
    section: transcribing,
    description: 'Faster',
    chords: ['Mod+]'],
  },
  'transcribe.back': {
    context: 'reader-typing',
    section: transcribing,
    description: 'Back 5 seconds',
    chords: ['Mod+Shift+['],
  },
  'transcribe.forward': {
    context: 'reader-typing',
    section: transcribing,
    description: 'Forward 5 seconds',
    chords: ['Mod+Shift+]'],
  },
  'transcribe.play-from-caret': {
    context: 'reader-typing',
    section: transcribing,
    description: 'Play from the word at the caret',
    chords: ['Mod+Enter'],
  },

  'corrections.undo': {
    context: 'reader',
    section: correcting,
    description: 'Undo the last correction',
    chords: ['Mod+Z'],
  },
  'corrections.redo': {
    context: 'reader',
    section: correcting,
    description: 'Redo',
    chords: ['Mod+Shift+Z', 'Mod+Y'],
    macChords: ['Mod+Shift+Z'],
  },

  'find.open': {
    context: 'reader-typing',
    section: finding,
    description: 'Find in the transcript',
    chords: ['Mod+F'],
  },
  'find.next': {
    context: 'reader-typing',
    section: finding,
    description: 'Next match, from anywhere',
    chords: ['F3'],
  },
  'find.previous': {
    context: 'reader-typing',
    section: finding,
    description: 'Previous match, from anywhere',
    chords: ['Shift+F3'],
  },
  'find.replace': {
    context: 'reader-typing',
    section: finding,
    description: 'Find and replace',
    chords: ['Ctrl+H', 'Mod+Alt+F'],
    // Cmd+H hides the app on a Mac, whose own editors use Cmd+Option+F.
    macChords: ['Mod+Alt+F'],
  },

  'review.next': {
    context: 'reader-typing',
    section: reviewing,
    description: 'Next uncertain word',
    chords: ['F8'],
  },
  'review.previous': {
    context: 'reader-typing',
    section: reviewing,
    description: 'Previous uncertain word',
    chords: ['Shift+F8'],
  },
  'review.check': {
    context: 'reader-typing',
    section: reviewing,
    description: 'Mark the paragraph now playing as checked',
    chords: ['F9'],
  },

  'highlight.extend-back': {
    context: 'reader',
    section: highlighting,
    description: 'Select a word less from the caret (click a word to put it there)',
    chords: ['Shift+ArrowLeft'],
  },
  'highlight.extend-forward': {
    context: 'reader',
    section: highlighting,
    description: 'Select a word more from the caret',
    chords: ['Shift+ArrowRight'],
  },
  'highlight.create': {
    context: 'reader-typing',
    section: highlighting,
    description: 'Highlight the selected words',
    chords: ['Mod+Shift+H'],
  },

  'newsroom.publish': {
    context: 'reader-typing',
    section: publishing,
    description: 'Publish to the newsroom',
    chords: ['Mod+Shift+P'],
  },

  'help.show': {
    context: 'reader',
    section: 'This help',
    description: 'Show the keyboard shortcuts',
    chords: ['?'],
  },

  'library.search': {
    context: 'library-typing',
    section: inLibrary,
    description: 'Search the library',
    chords: ['Mod+K'],
  },
  'library.search-from-list': {
    context: 'library',
    section: inLibrary,
    description: 'Search the library, when not typing in a field',
    chords: ['/'],
  },

  'record.mark': {
    context: 'record',
    section: recording,
    description: 'Mark this moment, while recording (when not typing in a field)',
    chords: ['M'],
  },

  'app.toggle-sidebar': {
    context: 'global',
    section: anywhere,
    description: 'Show or hide the sidebar',
    chords: ['Mod+B'],
  },
  ...(Object.fromEntries(
    viewCommands.map(([command, view], index) => [
      command,
      { context: 'global', section: anywhere, description: `Open ${view}`, chords: [`Mod+${index + 1}`] },
    ]),
  ) as unknown as Record<(typeof viewCommands)[number][0], CommandFacts & { context: 'global' }>),
} satisfies Record<string, CommandFacts>;

export type CommandId = keyof typeof keymap;
export const commandIds = Object.keys(keymap) as CommandId[];

/** The commands of one context, for a handler table the type checker keeps complete. */
export type CommandsIn<Context extends KeyContext> = {
  [Command in CommandId]: (typeof keymap)[Command]['context'] extends Context ? Command : never;
}[CommandId];

export function commandFacts(command: CommandId): CommandFacts {
  return keymap[command];
}

/**
 * Keys that belong to a text field or a menu rather than to a command: listed in the help so it
 * tells the whole story, but handled natively by the field and not rebindable.
 */
export const fieldKeys: readonly { section: string; keys: readonly string[]; description: string }[] = [
  {
    section: correcting,
    keys: ['Enter', 'a letter'],
    description: 'Correct the turn at the caret (click a word to put it there); the letter is typed',
  },
  {
    section: correcting,
    keys: ['Enter'],
    description: 'Save the turn and leave it (leaving it, a second’s pause or the play/pause key save too)',
  },
  {
    section: correcting,
    keys: ['Speaker…', 'Right-click a word'],
    description: 'Change the speaker, split or merge turns, revert a paragraph',
  },
  {
    section: finding,
    keys: ['Enter', 'Shift+Enter'],
    description: 'Next or previous match, in the find box',
  },
  {
    section: finding,
    keys: ['Enter'],
    description: 'Replace the match shown and go to the next, in the replace box',
  },
  { section: 'This help', keys: ['Escape'], description: 'Close this help' },
];

const modifierOrder = ['Mod', 'Ctrl', 'Alt', 'Shift', 'Meta'] as const;
export type ChordModifier = (typeof modifierOrder)[number];

/** A stored chord taken apart; the key itself may be "+" ("Ctrl++"). */
export function parseChord(chord: string): { modifiers: Set<ChordModifier>; key: string } {
  const modifiers = new Set<ChordModifier>();
  let rest = chord;
  for (;;) {
    const modifier = modifierOrder.find(
      (name) => rest.startsWith(`${name}+`) && rest.length > name.length + 1,
    );
    if (!modifier) break;
    modifiers.add(modifier);
    rest = rest.slice(modifier.length + 1);
  }
  return { modifiers, key: rest };
}

/** A chord in one order and case, so a hand-edited "Shift+Ctrl+k" still matches "Ctrl+Shift+K". */
export function normalizeChord(chord: string): string {
  const { modifiers, key } = parseChord(chord.trim());
  const named = key.length === 1 ? key.toUpperCase() : key;
  return [...modifierOrder.filter((name) => modifiers.has(name)), named].join('+');
}

/** A chord as stored: modifiers then one key, nothing else (what a settings file may hold). */
export const chordSchema = z
  .string()
  .trim()
  .min(1)
  .max(60)
  .regex(/^((Mod|Ctrl|Alt|Shift|Meta)\+)*[^\s]+$/, 'This is not a key.');

/**
 * The journalist's own chords, by command id; a command left out keeps its defaults. Ids this
 * version does not know (written by a newer one) are kept and ignored, so the file still loads.
 */
export const keyBindingsSchema = z
  .record(z.string().regex(/^[a-z]+\.[a-z0-9-]+$/, 'This is not a command.'), z.array(chordSchema).max(4))
  .refine((bindings) => Object.keys(bindings).length <= 100, { message: 'Too many key bindings.' });
export type KeyBindings = z.infer<typeof keyBindingsSchema>;

/** The chords each command answers to now: its defaults, the play/pause key, the user's own. */
export type ResolvedKeymap = Record<CommandId, readonly string[]>;

export interface KeymapSettings {
  /** The transcribing play/pause key, Settings' older own field: the first chord of its command. */
  playPauseKey: string;
  keyBindings?: KeyBindings | undefined;
}

export function defaultChords(command: CommandId, platform: KeymapPlatform): readonly string[] {
  const facts: CommandFacts = keymap[command];
  return (platform === 'mac' ? facts.macChords : undefined) ?? facts.chords;
}

export function resolveKeymap(settings: KeymapSettings, platform: KeymapPlatform): ResolvedKeymap {
  const resolved = {} as Record<CommandId, readonly string[]>;
  for (const command of commandIds) {
    let chords = defaultChords(command, platform);
    if (command === 'transcribe.toggle-play')
      chords = [settings.playPauseKey || 'Escape', ...chords.slice(1)];
    chords = settings.keyBindings?.[command] ?? chords;
    resolved[command] = chords.map(normalizeChord);
  }
  return resolved;
}

/**
 * The commands a key press may mean, best first: `chords` are the press's readings (see the
 * renderer's chordsOf), `contexts` those that apply where it was pressed.
 */
export function commandsFor(
  resolved: ResolvedKeymap,
  chords: readonly string[],
  contexts: readonly KeyContext[],
): CommandId[] {
  const found: CommandId[] = [];
  for (const chord of chords) {
    for (const command of commandIds) {
      if (!contexts.includes(keymap[command].context) || found.includes(command)) continue;
      if (resolved[command].includes(chord)) found.push(command);
    }
  }
  return found;
}

/** The key presses a stored chord answers to: "Mod" is Ctrl or ⌘, so "Mod+F" and "Ctrl+F" meet. */
function pressesOf(chord: string): string[] {
  const { modifiers, key } = parseChord(normalizeChord(chord));
  if (!modifiers.has('Mod')) return [normalizeChord(chord)];
  modifiers.delete('Mod');
  const rest = [...modifiers, key].join('+');
  return [normalizeChord(`Ctrl+${rest}`), normalizeChord(`Meta+${rest}`)];
}

/** True when one key press runs both chords. */
export function sameKeys(first: string, second: string): boolean {
  const presses = pressesOf(second);
  return pressesOf(first).some((press) => presses.includes(press));
}

/** The command already answering to `chord` where `command`'s keys apply too, if any. */
export function conflictsOf(resolved: ResolvedKeymap, command: CommandId, chord: string): CommandId[] {
  const normalized = normalizeChord(chord);
  const context = keymap[command].context;
  return commandIds.filter(
    (other) =>
      other !== command &&
      contextsOverlap(context, keymap[other].context) &&
      resolved[other].some((existing) => sameKeys(existing, normalized)),
  );
}

type KeymapChange = { playPauseKey: string; keyBindings: KeyBindings };

/**
 * The bindings with `command` answering to `chords` (undefined: its defaults again). The
 * play/pause key is its own setting, so it comes back apart.
 */
function withChords(
  settings: KeymapSettings,
  platform: KeymapPlatform,
  command: CommandId,
  chords: readonly string[] | undefined,
): KeymapChange {
  const keyBindings = { ...settings.keyBindings };
  delete keyBindings[command];
  const normalized = chords && [...new Set(chords.map(normalizeChord))];
  if (command === 'transcribe.toggle-play') {
    const playPauseKey = normalized?.[0] ?? 'Escape';
    const rest = normalized?.slice(1) ?? [];
    const defaultRest = defaultChords(command, platform).slice(1).map(normalizeChord);
    if (rest.join() !== defaultRest.join()) keyBindings[command] = [playPauseKey, ...rest];
    return { playPauseKey, keyBindings };
  }
  const defaults = defaultChords(command, platform).map(normalizeChord);
  if (normalized && normalized.join() !== defaults.join()) keyBindings[command] = normalized;
  return { playPauseKey: settings.playPauseKey, keyBindings };
}

/** The bindings after `command`'s first chord becomes `chord`, its other chords kept. */
export function rebound(
  settings: KeymapSettings,
  platform: KeymapPlatform,
  command: CommandId,
  chord: string,
): KeymapChange {
  const [, ...rest] = resolveKeymap(settings, platform)[command];
  return withChords(settings, platform, command, [chord, ...rest]);
}

/** The bindings with `command`'s own defaults back. */
export function reset(settings: KeymapSettings, platform: KeymapPlatform, command: CommandId): KeymapChange {
  return withChords(settings, platform, command, undefined);
}

/** The two commands' chords after `command` takes `chord` from `other`, which gets `command`'s first. */
function swapChords(
  resolved: ResolvedKeymap,
  command: CommandId,
  other: CommandId,
  chord: string,
): { mine: string[]; theirs: string[] } {
  const taken = normalizeChord(chord);
  const [first, ...rest] = resolved[command];
  const theirs = resolved[other].flatMap((existing) =>
    !sameKeys(existing, taken) ? [existing] : first === undefined ? [] : [first],
  );
  return { mine: [taken, ...rest], theirs };
}

/**
 * Two commands that would answer to one key where both apply after that swap, if any: the
 * key `other` gets may be a third command's, or meet the one `command` takes ("Mod+F" for
 * "Ctrl+F").
 */
export function swapClash(
  resolved: ResolvedKeymap,
  command: CommandId,
  other: CommandId,
  chord: string,
): [CommandId, CommandId] | undefined {
  const { mine, theirs } = swapChords(resolved, command, other, chord);
  const after: ResolvedKeymap = { ...resolved, [command]: mine, [other]: theirs };
  for (const [who, chords] of [
    [other, theirs],
    [command, mine],
  ] as const)
    for (const held of chords) {
      const [clash] = conflictsOf(after, who, held);
      if (clash) return [who, clash];
    }
  return undefined;
}

/**
 * The bindings after `command` takes `chord` from `other`, which gets `command`'s first chord in
 * its place (Settings' "Swap", offered only when `swapClash` finds nothing).
 */
export function swapped(
  settings: KeymapSettings,
  platform: KeymapPlatform,
  command: CommandId,
  other: CommandId,
  chord: string,
): KeymapChange {
  const { mine, theirs } = swapChords(resolveKeymap(settings, platform), command, other, chord);
  const first = withChords(settings, platform, other, theirs);
  return withChords(first, platform, command, mine);
}
