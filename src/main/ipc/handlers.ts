import type { AppInfo, Handlers } from '../../shared/ipc/contract';
import type { SettingsStore } from '../core/settings/settings-store';

export interface Services {
  appInfo: AppInfo;
  settings: SettingsStore;
}

/** The contract implemented over core services; the same object serves every transport. */
export function createHandlers(services: Services): Handlers {
  return {
    'app.info': () => Promise.resolve(services.appInfo),
    'settings.get': () => services.settings.get(),
    'settings.set': (patch) => services.settings.set(patch),
  };
}
