import { formatChord, type Platform } from './transcription-keys';

/** One line of the reader's shortcut help: the keys as this machine writes them, and what they do. */
export interface ShortcutRow {
  /** Shown under this heading; rows of one group stay together in the order given. */
  group: string;
  /** Alternatives, each already written for the platform ("Esc", "⌘Space"). */
  keys: readonly string[];
  action: string;
}

export interface ShortcutContext {
  platform: Platform;
  /** The configured play/pause key, as stored ("Escape", "F4", "Ctrl+Alt+P"). */
  playPauseKey: string;
  rewindOnResumeSeconds: number;
  autoPauseWhileTyping: boolean;
}

/**
 * Every shortcut of the reader, for the help dialog. One array so a feature adds its rows in one
 * place: the inline editor appends its group (Enter to commit, undo, redo…) at the marked spot.
 */
export function readerShortcutRows(context: ShortcutContext): ShortcutRow[] {
  const key = (chord: string): string => formatChord(chord, context.platform);
  const rewind = context.rewindOnResumeSeconds;
  return [
    { group: 'Listening', keys: ['Space'], action: 'Play or pause (when not typing in a field)' },
    { group: 'Listening', keys: ['←', '→'], action: 'Back or forward 5 seconds' },
    { group: 'Listening', keys: ['[', ']'], action: 'Slower or faster (0.5x to 2x)' },

    {
      group: 'Transcribing (also while typing in the text)',
      keys: [key(context.playPauseKey), key('Mod+Space')],
      action:
        rewind > 0
          ? `Play or pause; playing again goes back ${rewind} s`
          : 'Play or pause, the caret staying in the text',
    },
    {
      group: 'Transcribing (also while typing in the text)',
      keys: [key('Mod+['), key('Mod+]')],
      action: 'Slower or faster',
    },
    {
      group: 'Transcribing (also while typing in the text)',
      keys: [key('Mod+Shift+['), key('Mod+Shift+]')],
      action: 'Back or forward 5 seconds',
    },
    {
      group: 'Transcribing (also while typing in the text)',
      keys: [key('Mod+Enter')],
      action: 'Play from the word at the caret',
    },

    // The inline editor's rows (issue #19). The play/pause key also saves, said in the Enter row
    // (a second row with that key would list it twice).
    {
      group: 'Correcting the text',
      keys: [key('Enter'), 'a letter'],
      action: 'Correct the turn at the caret (click a word to put it there); the letter is typed',
    },
    {
      group: 'Correcting the text',
      keys: [key('Enter')],
      action: 'Save the turn and leave it (leaving it, a second’s pause or the play/pause key save too)',
    },
    { group: 'Correcting the text', keys: [key('Mod+Z')], action: 'Undo the last correction' },
    {
      group: 'Correcting the text',
      keys: context.platform === 'mac' ? [key('Mod+Shift+Z')] : [key('Mod+Shift+Z'), key('Mod+Y')],
      action: 'Redo',
    },
    {
      group: 'Correcting the text',
      keys: ['Speaker…', 'Right-click a word'],
      action: 'Change the speaker, split or merge turns, revert a paragraph',
    },

    { group: 'Finding', keys: [key('Mod+F')], action: 'Find in the transcript' },
    {
      group: 'Finding',
      keys: [key('Enter'), key('Shift+Enter')],
      action: 'Next or previous match, in the find box',
    },
    { group: 'Finding', keys: [key('F3'), key('Shift+F3')], action: 'Next or previous match, from anywhere' },
    {
      group: 'Finding',
      // Cmd+H hides the app on a Mac (review.ts reviewKey).
      keys: context.platform === 'mac' ? [key('Mod+Alt+F')] : [key('Ctrl+H'), key('Mod+Alt+F')],
      action: 'Find and replace',
    },
    {
      group: 'Finding',
      keys: [key('Enter')],
      action: 'Replace the match shown and go to the next, in the replace box',
    },

    // The review pass (review.ts reviewKey): function keys, so they never type into a correction.
    { group: 'Reviewing', keys: [key('F8'), key('Shift+F8')], action: 'Next or previous uncertain word' },
    { group: 'Reviewing', keys: [key('F9')], action: 'Mark the paragraph now playing as checked' },

    // Highlights (issue #20): Ctrl+H is already replace, so the highlight key takes Shift too.
    {
      group: 'Highlighting',
      keys: [key('Shift+←'), key('Shift+→')],
      action: 'Select a word more or less from the caret (click a word to put it there)',
    },
    { group: 'Highlighting', keys: [key('Mod+Shift+H')], action: 'Highlight the selected words' },

    { group: 'This help', keys: ['?'], action: 'Show this help' },
    { group: 'This help', keys: [key('Escape')], action: 'Close this help' },
  ];
}

/** The rows in their groups, in the order each group first appears. */
export function groupedRows(rows: readonly ShortcutRow[]): { group: string; rows: ShortcutRow[] }[] {
  const groups = new Map<string, ShortcutRow[]>();
  for (const row of rows) groups.set(row.group, [...(groups.get(row.group) ?? []), row]);
  return [...groups].map(([group, grouped]) => ({ group, rows: grouped }));
}
