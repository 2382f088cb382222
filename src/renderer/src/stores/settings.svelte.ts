import { defaultSettings, type Settings, type SettingsPatch } from '../../../shared/settings';
import { api } from '../lib/api';
import { VerbatimError } from '../../../shared/errors';

type SaveState = 'idle' | 'saving' | 'saved' | 'failed';

/** Settings as the renderer sees them; main owns the truth and pushes every change. */
class SettingsStore {
  value = $state<Settings>(defaultSettings);
  loaded = $state(false);
  saveState = $state<SaveState>('idle');
  error = $state<string | undefined>(undefined);

  async load(): Promise<void> {
    try {
      this.value = await api.settings.get();
      this.loaded = true;
    } catch (error) {
      this.error = messageOf(error);
    }
    api.on('settings.changed', (settings) => {
      this.value = settings;
    });
  }

  async update(patch: SettingsPatch): Promise<void> {
    this.saveState = 'saving';
    this.error = undefined;
    try {
      this.value = await api.settings.set(patch);
      this.saveState = 'saved';
    } catch (error) {
      this.saveState = 'failed';
      this.error = messageOf(error);
    }
  }
}

function messageOf(error: unknown): string {
  if (error instanceof VerbatimError) return error.message;
  return 'Verbatim could not reach its main process. Try again, or restart the app.';
}

export const settings = new SettingsStore();
