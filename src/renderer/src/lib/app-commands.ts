import { viewCommands } from '../../../shared/keymap';
import type { CommandHandler, Handlers } from './keymap';
import type { ViewId } from './sidebar-views';

export interface AppCommandTargets {
  toggleSidebar(): void;
  go(view: Exclude<ViewId, 'transcript' | 'newsroom-transcript'>): void;
}

/** The keys that work anywhere in the window: the sidebar and Ctrl/Cmd+1 … 9 for the views. */
export function appCommands(targets: AppCommandTargets): Handlers<'global'> {
  const views = {} as Record<(typeof viewCommands)[number][0], CommandHandler>;
  for (const [command] of viewCommands)
    views[command] = () =>
      targets.go(command.slice('app.go-'.length) as Exclude<ViewId, 'transcript' | 'newsroom-transcript'>);
  return { 'app.toggle-sidebar': () => targets.toggleSidebar(), ...views };
}

export interface LibraryCommandTargets {
  /** Puts the cursor in the library's search box. */
  focusSearch(): void;
}

/** The Library's keys, registered while it is open. */
export function libraryCommands(targets: LibraryCommandTargets): Handlers<'library' | 'library-typing'> {
  return {
    'library.search': () => targets.focusSearch(),
    'library.search-from-list': () => targets.focusSearch(),
  };
}

export interface RecordCommandTargets {
  /** Marks the moment; false when nothing is being recorded, so the key goes on as usual. */
  mark(event: KeyboardEvent): boolean | void;
}

/** Record's keys, registered while it is open. */
export function recordCommands(targets: RecordCommandTargets): Handlers<'record'> {
  return { 'record.mark': (event) => targets.mark(event) };
}
