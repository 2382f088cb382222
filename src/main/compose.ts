import { join } from 'node:path';
import { SettingsStore } from './core/settings/settings-store';
import { nodeFileSystem } from './core/fs';
import type { AppInfo } from '../shared/ipc/contract';
import type { Services } from './ipc/handlers';

export interface ComposeOptions {
  dataDir: string;
  appInfo: AppInfo;
}

/**
 * The composition root shared by the Electron main process and the web host: both build
 * the very same services from a data folder, and differ only in transport and platform.
 */
export function composeServices(options: ComposeOptions): Services {
  return {
    appInfo: options.appInfo,
    settings: new SettingsStore(nodeFileSystem, join(options.dataDir, 'settings.json')),
  };
}
