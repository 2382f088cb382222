import { viewCommands } from '../../../shared/keymap';
import type { CommandHandler, Handlers } from './keymap';
import type { ViewId } from './sidebar-views';

export interface AppCommandTargets {
  toggleSidebar(): void;
  go(view: Exclude<ViewId, 'transcript'>): void;
}

/** The keys that work anywhere in the window: the sidebar and Ctrl/Cmd+1 … 9 for the views. */
export function appCommands(targets: AppCommandTargets): Handlers<'global'> {
  const views = {} as Record<(typeof viewCommands)[number][0], CommandHandler>;
  for (const [command] of viewCommands)
    views[command] = () => targets.go(command.slice('app.go-'.length) as Exclude<ViewId, 'transcript'>);
  return { 'app.toggle-sidebar': () => targets.toggleSidebar(), ...views };
}
