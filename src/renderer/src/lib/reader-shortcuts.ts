import {
  commandFacts,
  commandIds,
  fieldKeys,
  type CommandId,
  type ResolvedKeymap,
} from '../../../shared/keymap';
import { formatChord, type Platform } from './chord-text';

/** One line of the shortcut help: the keys as this machine writes them, and what they do. */
export interface ShortcutRow {
  /** Shown under this heading; rows of one group stay together in the order given. */
  group: string;
  /** Alternatives, each already written for the platform ("Esc", "⌘Space"). */
  keys: readonly string[];
  action: string;
  /** The command the keys run; absent for a field's own keys (Enter in the find box). */
  command?: CommandId;
}

export interface ShortcutContext {
  platform: Platform;
  /** The keymap as the journalist has bound it. */
  keymap: ResolvedKeymap;
  rewindOnResumeSeconds: number;
}

/**
 * Every shortcut, for the help dialog, read from the keymap table (shared/keymap.ts) with the
 * journalist's own chords, then the keys that belong to a field; so the help cannot drift from
 * what the keys do.
 */
export function readerShortcutRows(context: ShortcutContext): ShortcutRow[] {
  const key = (chord: string): string => formatChord(chord, context.platform);
  const rewind = context.rewindOnResumeSeconds;
  const commands = commandIds.map((command): ShortcutRow => {
    const { section, description } = commandFacts(command);
    const action =
      command !== 'transcribe.toggle-play'
        ? description
        : rewind > 0
          ? `Play or pause; playing again goes back ${rewind} s`
          : 'Play or pause, the caret staying in the text';
    return { group: section, keys: context.keymap[command].map(key), action, command };
  });
  const fields = fieldKeys.map((row): ShortcutRow => ({
    group: row.section,
    // "a letter" and "Speaker…" are words, not chords.
    keys: row.keys.map((chord) => (/\s|…/.test(chord) ? chord : key(chord))),
    action: row.description,
  }));
  return [...commands, ...fields];
}

/** The rows in their groups, in the order each group first appears. */
export function groupedRows(rows: readonly ShortcutRow[]): { group: string; rows: ShortcutRow[] }[] {
  const groups = new Map<string, ShortcutRow[]>();
  for (const row of rows) groups.set(row.group, [...(groups.get(row.group) ?? []), row]);
  return [...groups].map(([group, grouped]) => ({ group, rows: grouped }));
}
