import { resolveKeymap, type CommandId, type ResolvedKeymap } from '../../../shared/keymap';
import { chordsOf, commandsForPress, type CommandHandler } from '../lib/keymap';
import { formatChord, platformOf, type Platform } from '../lib/chord-text';
import { placeOf } from './transcription-keys.svelte';
import { settings } from './settings.svelte';

interface Registration {
  handlers: Partial<Record<CommandId, CommandHandler>>;
  /** False while the owner cannot take keys (the reader with a dialog open or nothing loaded). */
  active: () => boolean;
}

const formFields = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/** True when keys belong to a text field (the turn editor included) rather than to the view. */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || formFields.has(target.tagName);
}

/**
 * The one keyboard dispatcher: the keymap as the journalist has bound it, and the handlers the
 * mounted views register by command id. The app frame feeds it every key press of the window.
 */
class KeymapStore {
  readonly platform: Platform = platformOf(globalThis.navigator?.userAgent ?? '');
  readonly resolved: ResolvedKeymap = $derived(resolveKeymap(settings.value, this.platform));
  private readonly registrations = new Set<Registration>();

  /** Registers handlers by command id until the returned function is called. */
  register(
    handlers: Partial<Record<CommandId, CommandHandler>>,
    active: () => boolean = () => true,
  ): () => void {
    const registration = { handlers, active };
    this.registrations.add(registration);
    return () => this.registrations.delete(registration);
  }

  /** The command ids some handler is registered for now (for the keymap's completeness test). */
  registeredCommands(): CommandId[] {
    return [...this.registrations].flatMap(
      (registration) => Object.keys(registration.handlers) as CommandId[],
    );
  }

  /** Runs the command a key press means where it was pressed; true when one took it. */
  dispatch(event: KeyboardEvent): boolean {
    if (event.defaultPrevented) return false;
    const commands = commandsForPress(this.resolved, event, placeOf(event.target), typingIn(event.target));
    for (const command of commands) {
      for (const registration of this.registrations) {
        const handler = registration.handlers[command];
        if (!handler || !registration.active()) continue;
        if (handler(event) === false) continue;
        event.preventDefault();
        return true;
      }
    }
    return false;
  }

  /** Which of `commands` a key press is bound to, wherever it was pressed (a field's own keys). */
  pressed<Command extends CommandId>(
    event: KeyboardEvent,
    commands: readonly Command[],
  ): Command | undefined {
    const chords = chordsOf(event);
    return commands.find((command) => chords.some((chord) => this.resolved[command].includes(chord)));
  }

  /** The command's first chord as stored ("Mod+F"), for tooltips and aria-keyshortcuts. */
  chordFor(command: CommandId): string | undefined {
    return this.resolved[command][0];
  }

  /** Every chord of the command as this machine writes them ("Ctrl+F", "⌘F"). */
  shownChords(command: CommandId): string[] {
    return this.resolved[command].map((chord) => formatChord(chord, this.platform));
  }
}

export const keymap = new KeymapStore();
