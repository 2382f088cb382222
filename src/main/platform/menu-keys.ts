import { parseChord, type KeymapPlatform, type ResolvedKeymap } from '../../shared/keymap';

/** The keymap's platform for Node's name of it. */
export function keymapPlatformOf(platform: NodeJS.Platform): KeymapPlatform {
  return platform === 'darwin' ? 'mac' : platform === 'win32' ? 'windows' : 'linux';
}

/** Keys the keymap names as the browser does, where Electron's accelerators name them otherwise. */
const acceleratorKeys: Record<string, string> = {
  ArrowLeft: 'Left',
  ArrowRight: 'Right',
  ArrowUp: 'Up',
  ArrowDown: 'Down',
  '+': 'Plus',
  ' ': 'Space',
};

/** Modifiers in Electron's words: "Mod" is ⌘ on a Mac and Ctrl elsewhere, as CmdOrCtrl is. */
const acceleratorModifiers = { Mod: 'CmdOrCtrl', Ctrl: 'Ctrl', Alt: 'Alt', Shift: 'Shift', Meta: 'Super' };

/**
 * A stored chord ("Mod+Shift+Z") as an Electron accelerator ("CmdOrCtrl+Shift+Z"), or undefined
 * for a key an accelerator cannot name (the menu then shows none rather than a wrong one).
 */
export function menuAccelerator(chord: string): string | undefined {
  const { modifiers, key } = parseChord(chord);
  const name = acceleratorKeys[key] ?? key;
  const nameable =
    /^[A-Z0-9]$/i.test(name) ||
    /^F([1-9]|1[0-9]|2[0-4])$/.test(name) ||
    /^[)!@#$%^&*(:;<>=,\-_.?/~`{}[\]|\\'"]$/.test(name) ||
    [
      'Plus',
      'Space',
      'Tab',
      'Backspace',
      'Delete',
      'Insert',
      'Enter',
      'Up',
      'Down',
      'Left',
      'Right',
      'Home',
      'End',
      'PageUp',
      'PageDown',
      'Escape',
    ].includes(name);
  if (!nameable) return undefined;
  const shown = (Object.keys(acceleratorModifiers) as (keyof typeof acceleratorModifiers)[])
    .filter((modifier) => modifiers.has(modifier))
    .map((modifier) => acceleratorModifiers[modifier]);
  return [...shown, name.length === 1 ? name.toUpperCase() : name].join('+');
}

/** What the menu shows for a command: the first of its chords an accelerator can name. */
export function commandAccelerator(
  resolved: ResolvedKeymap,
  command: keyof ResolvedKeymap,
): string | undefined {
  return resolved[command].map(menuAccelerator).find((accelerator) => accelerator !== undefined);
}
