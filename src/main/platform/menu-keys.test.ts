import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { commandIds, normalizeChord, resolveKeymap } from '../../shared/keymap';
import { commandAccelerator, keymapPlatformOf, menuAccelerator } from './menu-keys';

/** Electron's accelerator grammar: modifiers, then one key code it knows. */
const acceleratorPattern =
  /^((CmdOrCtrl|Ctrl|Alt|Shift|Super)\+)*([A-Z0-9]|F([1-9]|1[0-9]|2[0-4])|Plus|Space|Tab|Backspace|Delete|Insert|Enter|Up|Down|Left|Right|Home|End|PageUp|PageDown|Escape|[)!@#$%^&*(:;<>=,\-_.?/~`{}[\]|\\'"])$/;

describe('menu accelerators from the keymap', () => {
  it('writes a stored chord the way Electron reads it', () => {
    expect(menuAccelerator('Mod+Z')).toBe('CmdOrCtrl+Z');
    expect(menuAccelerator('Mod+Shift+Z')).toBe('CmdOrCtrl+Shift+Z');
    expect(menuAccelerator('Ctrl+H')).toBe('Ctrl+H');
    expect(menuAccelerator('Meta+Alt+ArrowLeft')).toBe('Alt+Super+Left');
    expect(menuAccelerator('Ctrl++')).toBe('Ctrl+Plus');
    expect(menuAccelerator('Shift+F8')).toBe('Shift+F8');
    expect(menuAccelerator('Mod+[')).toBe('CmdOrCtrl+[');
    // A key Electron cannot name is left off rather than shown wrong.
    expect(menuAccelerator('Mod+MediaPlayPause')).toBeUndefined();
  });

  it('gives every command of the table, on every platform, an accelerator Electron accepts', () => {
    for (const platform of ['darwin', 'linux', 'win32'] as const) {
      const keymap = resolveKeymap({ playPauseKey: 'Escape' }, keymapPlatformOf(platform));
      for (const command of commandIds)
        expect(commandAccelerator(keymap, command)).toMatch(acceleratorPattern);
    }
  });

  it('any rebound chord is shown as a valid accelerator or not at all', () => {
    const key = fc.oneof(
      fc.constantFrom(
        'Z',
        'y',
        '+',
        '[',
        '?',
        'F3',
        'F24',
        'ArrowUp',
        'Space',
        'Enter',
        'Escape',
        'PageDown',
      ),
      fc.string({ minLength: 1, maxLength: 12 }).filter((text) => !/[\s+]/.test(text)),
    );
    const chord = fc
      .tuple(fc.subarray(['Mod', 'Ctrl', 'Alt', 'Shift', 'Meta']), key)
      .map(([modifiers, pressed]) => normalizeChord([...modifiers, pressed].join('+')));
    fc.assert(
      fc.property(chord, (rebound) => {
        const keymap = resolveKeymap(
          { playPauseKey: 'Escape', keyBindings: { 'corrections.undo': [rebound] } },
          'linux',
        );
        const shown = commandAccelerator(keymap, 'corrections.undo');
        if (shown !== undefined) expect(shown).toMatch(acceleratorPattern);
      }),
    );
  });
});
