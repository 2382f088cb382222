import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  commandFacts,
  commandIds,
  contextsOverlap,
  normalizeChord,
  rebound,
  reset as resetBinding,
  resolveKeymap,
  swapped,
  type CommandId,
  type KeymapPlatform,
  type KeymapSettings,
  type ResolvedKeymap,
} from '../../../shared/keymap';
import { appCommands, libraryCommands, recordCommands } from './app-commands';
import { checkRebind, checkReset, chordsOf, commandsForPress, type KeyLike, type KeyPlace } from './keymap';
import { readerCommands, type ReaderCommandTargets } from './reader-commands';

function press(key: string, extra: Partial<KeyLike> = {}): KeyLike {
  return { key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...extra };
}

const linux = resolveKeymap({ playPauseKey: 'Escape' }, 'linux');

/** The command a press means in the reader, away from any field unless told. */
function commandOf(
  event: KeyLike,
  resolved: ResolvedKeymap = linux,
  place: KeyPlace = 'elsewhere',
): CommandId | undefined {
  return commandsForPress(resolved, event, place, place !== 'elsewhere')[0];
}

/** The presses a stored chord answers to: "Mod" is Ctrl or ⌘, so "Mod+F" and "Ctrl+F" share one. */
function presses(chord: string): string[] {
  if (!chord.startsWith('Mod+')) return [chord];
  const rest = chord.slice('Mod+'.length);
  return [normalizeChord(`Ctrl+${rest}`), normalizeChord(`Meta+${rest}`)];
}

/** Pairs of commands that answer to one press where both apply: what must never happen. */
function clashes(resolved: ResolvedKeymap): string[] {
  const found: string[] = [];
  for (const [index, first] of commandIds.entries()) {
    for (const second of commandIds.slice(index + 1)) {
      if (!contextsOverlap(commandFacts(first).context, commandFacts(second).context)) continue;
      const theirs = resolved[second].flatMap(presses);
      const shared = resolved[first].filter((chord) =>
        presses(chord).some((press) => theirs.includes(press)),
      );
      if (shared.length > 0) found.push(`${first} and ${second}: ${shared.join(', ')}`);
    }
  }
  return found;
}

describe('the keymap’s reading of a key press', () => {
  it('writes a press every way the keymap may hold it: typed, by its place, and with Ctrl or ⌘ as Mod', () => {
    expect(chordsOf(press('z', { ctrlKey: true }))).toEqual(['Ctrl+Z', 'Mod+Z']);
    expect(chordsOf(press('z', { metaKey: true, shiftKey: true }))).toEqual(['Shift+Meta+Z', 'Mod+Shift+Z']);
    // Option turns F into ƒ on a Mac; the key's place still says F.
    expect(chordsOf(press('ƒ', { code: 'KeyF', metaKey: true, altKey: true }))).toContain('Mod+Alt+F');
    // "?" needs Shift on most keyboards; the keymap writes it bare.
    expect(chordsOf(press('?', { shiftKey: true }))).toEqual(['Shift+?', '?']);
    expect(chordsOf(press('Shift'))).toEqual([]);
    expect(chordsOf(press('a', { isComposing: true }))).toEqual([]);
  });

  it('finds each default command from its key, where it applies', () => {
    expect(commandOf(press(' '))).toBe('player.toggle');
    expect(commandOf(press('ArrowLeft'))).toBe('player.back');
    expect(commandOf(press('?', { shiftKey: true }))).toBe('help.show');
    expect(commandOf(press('1', { ctrlKey: true }))).toBe('app.go-library');
    expect(commandOf(press('9', { metaKey: true }))).toBe('app.go-settings');
    expect(commandOf(press('b', { ctrlKey: true }))).toBe('app.toggle-sidebar');
    expect(commandOf(press('z', { ctrlKey: true, shiftKey: true }))).toBe('corrections.redo');
    expect(commandOf(press('{', { code: 'BracketLeft', ctrlKey: true, shiftKey: true }))).toBe(
      'transcribe.back',
    );
  });

  it('leaves a field its typing keys, but not the keys that work while typing', () => {
    expect(commandOf(press(' '), linux, 'transcript-text')).toBeUndefined();
    expect(commandOf(press('z', { ctrlKey: true }), linux, 'other-field')).toBeUndefined();
    expect(commandOf(press('F8'), linux, 'transcript-text')).toBe('review.next');
    expect(commandOf(press('Escape'), linux, 'transcript-text')).toBe('transcribe.toggle-play');
    // A plain Escape in another field stays the field's (it clears the find box).
    expect(commandOf(press('Escape'), linux, 'other-field')).toBeUndefined();
    expect(commandOf(press('1', { ctrlKey: true }), linux, 'other-field')).toBe('app.go-library');
  });

  it('follows a rebinding: the new chord runs the command, the old one nothing', () => {
    const settings: KeymapSettings = { playPauseKey: 'Escape' };
    const moved = resolveKeymap(
      { ...settings, ...rebound(settings, 'linux', 'player.toggle', 'K') },
      'linux',
    );
    expect(commandOf(press('k'), moved)).toBe('player.toggle');
    expect(commandOf(press(' '), moved)).toBeUndefined();
  });
});

describe('rebinding a command in Settings', () => {
  it('names the command that already answers to the chord', () => {
    const check = checkRebind(linux, 'player.toggle', 'Mod+F', 'linux');
    expect(checkRebind(linux, 'player.toggle', 'Ctrl+F', 'linux')).toMatchObject({ other: 'find.open' });
    expect(check).toEqual({
      kind: 'conflict',
      chord: 'Mod+F',
      other: 'find.open',
      message: 'Ctrl+F already does “Find in the transcript”. Swap the two keys, or choose another.',
    });
  });

  it('refuses a key that types for a command that works while typing, and Tab anywhere', () => {
    expect(checkRebind(linux, 'highlight.create', 'K', 'linux')).toMatchObject({ kind: 'refused' });
    expect(checkRebind(linux, 'player.toggle', 'K', 'linux')).toEqual({ kind: 'accepted', chord: 'K' });
    expect(checkRebind(linux, 'player.toggle', 'Tab', 'linux')).toEqual({
      kind: 'refused',
      chord: 'Tab',
      message: 'Tab moves between controls. Choose another key.',
    });
  });

  it('refuses a key two commands that never meet both use, for a command that meets both', () => {
    // Play/pause in the reader and the Library's search never meet, so both may answer to Ctrl+K;
    // a global command cannot take it from both, and a swap could give it to only one.
    const shared = resolveKeymap(
      { playPauseKey: 'Escape', keyBindings: { 'player.toggle': ['Ctrl+K'] } },
      'linux',
    );
    expect(checkRebind(shared, 'app.go-quotes', 'Mod+K', 'linux')).toEqual({
      kind: 'refused',
      chord: 'Mod+K',
      message: 'Ctrl+K already does “Play or pause” and “Search the library”. Choose another key.',
    });
  });

  it('offers no swap that would leave two commands that meet on one key', () => {
    // Play/pause on Ctrl+K (the Library's search has it too; they never meet). Taking Ctrl+1
    // from "Go to the Library" by a swap would give that global command Ctrl+K, the search's.
    const shared = resolveKeymap(
      { playPauseKey: 'Escape', keyBindings: { 'player.toggle': ['Ctrl+K'] } },
      'linux',
    );
    const goLibrary = commandFacts('app.go-library').description;
    expect(checkRebind(shared, 'player.toggle', 'Mod+1', 'linux')).toEqual({
      kind: 'refused',
      chord: 'Mod+1',
      message: `Ctrl+1 already does “${goLibrary}”, and a swap would leave “${goLibrary}” and “Search the library” on one key. Choose another key.`,
    });
    // Play/pause on Ctrl+F (Find moved to Space), Redo on ⌘F: Mod+F for play/pause meets Redo's
    // ⌘F, and a swap would give Redo Ctrl+F, which Mod+F answers to as well.
    const spelled = resolveKeymap(
      {
        playPauseKey: 'Escape',
        keyBindings: { 'player.toggle': ['Ctrl+F'], 'corrections.redo': ['Meta+F'], 'find.open': ['Space'] },
      },
      'linux',
    );
    expect(checkRebind(spelled, 'player.toggle', 'Mod+F', 'linux')).toMatchObject({
      kind: 'refused',
      message:
        'Ctrl+F already does “Redo”, and a swap would leave “Redo” and “Play or pause” on one key. Choose another key.',
    });
  });

  it('swaps two commands’ keys on request', () => {
    const settings: KeymapSettings = { playPauseKey: 'Escape' };
    const after = resolveKeymap(
      { ...settings, ...swapped(settings, 'linux', 'find.open', 'help.show', '?') },
      'linux',
    );
    expect(after['find.open']).toEqual(['?']);
    expect(after['help.show']).toEqual(['Mod+F']);
  });

  it('ships defaults with no chord on two commands that can meet', () => {
    for (const platform of ['linux', 'windows', 'mac'] as const)
      expect(clashes(resolveKeymap({ playPauseKey: 'Escape' }, platform))).toEqual([]);
  });

  it('never lets two commands that can meet share a chord, whatever rebinds and swaps are accepted', () => {
    const chords = [
      'K',
      'Mod+K',
      'Ctrl+K',
      'Meta+F',
      'Ctrl+F',
      'F2',
      'Mod+F',
      'Space',
      '?',
      'Mod+1',
      'Escape',
      'F8',
      'Alt+ArrowLeft',
      'Mod+Z',
    ];
    const step = fc.record({
      command: fc.constantFrom(...commandIds),
      chord: fc.constantFrom(...chords),
      swapOnConflict: fc.boolean(),
      reset: fc.boolean(),
    });
    const platform: KeymapPlatform = 'linux';
    fc.assert(
      fc.property(fc.array(step, { maxLength: 25 }), (steps) => {
        let settings: KeymapSettings = { playPauseKey: 'Escape', keyBindings: {} };
        for (const { command, chord, swapOnConflict, reset } of steps) {
          if (reset) {
            if (checkReset(resolveKeymap(settings, platform), command, platform).kind === 'accepted')
              settings = { ...settings, ...resetBinding(settings, platform, command) };
            expect(clashes(resolveKeymap(settings, platform))).toEqual([]);
            continue;
          }
          const check = checkRebind(resolveKeymap(settings, platform), command, chord, platform);
          if (check.kind === 'accepted')
            settings = { ...settings, ...rebound(settings, platform, command, chord) };
          if (check.kind === 'conflict' && swapOnConflict)
            settings = { ...settings, ...swapped(settings, platform, command, check.other, chord) };
          expect(clashes(resolveKeymap(settings, platform))).toEqual([]);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('the handlers behind the keymap', () => {
  const noop = (): void => undefined;
  const targets: ReaderCommandTargets = {
    transcribe: noop,
    togglePlay: noop,
    skip: noop,
    stepRate: noop,
    undo: noop,
    redo: noop,
    openFind: noop,
    stepMatch: noop,
    stepUncertain: noop,
    checkPlaying: noop,
    startHighlight: noop,
    extendSelection: () => true,
    showHelp: noop,
    publish: noop,
  };
  const app = Object.keys(appCommands({ toggleSidebar: noop, go: noop })) as CommandId[];
  const reader = Object.keys(readerCommands(targets)) as CommandId[];
  const library = Object.keys(libraryCommands({ focusSearch: noop })) as CommandId[];
  const record = Object.keys(recordCommands({ mark: noop })) as CommandId[];

  it('handle every command of the table, each once, and nothing the table lacks', () => {
    expect([...app, ...reader, ...library, ...record].sort()).toEqual([...commandIds].sort());
  });

  it('are registered in their command’s context: the app frame’s keys are global, each view’s its own', () => {
    for (const command of app) expect(commandFacts(command).context, command).toBe('global');
    for (const command of reader) expect(commandFacts(command).context, command).toMatch(/^reader/);
    for (const command of library) expect(commandFacts(command).context, command).toMatch(/^library/);
    for (const command of record) expect(commandFacts(command).context, command).toBe('record');
  });

  it('reach "Publish to newsroom…" with Ctrl+Shift+P in the reader, typing in the text included', () => {
    const where = (typing: boolean) =>
      commandsForPress(linux, press('P', { ctrlKey: true, shiftKey: true }), 'elsewhere', typing);
    expect(where(false)).toEqual(['newsroom.publish']);
    expect(where(true)).toEqual(['newsroom.publish']);
  });

  it('reach the Library’s search and Record’s mark from the keys, outside a field only where they type', () => {
    const where = (event: KeyLike, typing: boolean) => commandsForPress(linux, event, 'elsewhere', typing);
    expect(where(press('k', { ctrlKey: true }), true)).toEqual(['library.search']);
    expect(where(press('/'), false)).toEqual(['library.search-from-list']);
    expect(where(press('/'), true)).toEqual([]);
    expect(where(press('m'), false)).toEqual(['record.mark']);
    expect(where(press('m'), true)).toEqual([]);
  });
});
