import { defaultSettings, type Settings, type SettingsPatch } from '../../../shared/settings';
import { api } from '../lib/api';
import { VerbatimError } from '../../../shared/errors';
import type { Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';
import type { AddressField } from '../../../shared/key-destinations';
import type { ServiceAddresses } from '../../../shared/service-addresses';

type SaveState = 'idle' | 'saving' | 'saved' | 'failed';

/** Settings as the renderer sees them; main owns the truth and pushes every change. */
class SettingsStore {
  value = $state<Settings>(defaultSettings);
  loaded = $state(false);
  saveState = $state<SaveState>('idle');
  error = $state<Problem | undefined>(undefined);
  /** Where each service is reached, for Settings to show the address in use. */
  addresses = $state<ServiceAddresses | undefined>(undefined);

  async load(): Promise<void> {
    try {
      this.value = await api.settings.get();
      this.loaded = true;
      this.addresses = await api.settings.addresses();
    } catch (error) {
      this.error = caught(error, 'settings.get');
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
      this.error = caught(error, 'settings.set');
    }
  }

  /**
   * Saves a service address. A new server that would receive a stored key is not saved: the
   * question comes back, and the journalist's yes is `sendKeysTo`.
   */
  async updateAddress(
    field: AddressField,
    address: string,
    sendKeysTo?: string[],
  ): Promise<KeyQuestion | undefined> {
    this.saveState = 'saving';
    this.error = undefined;
    try {
      this.value = await api.settings.set({ [field]: address, ...(sendKeysTo ? { sendKeysTo } : {}) });
      this.saveState = 'saved';
      return undefined;
    } catch (error) {
      const question = keyQuestionOf(error);
      this.saveState = question ? 'idle' : 'failed';
      if (!question) this.error = caught(error, 'settings.set');
      return question;
    }
  }
}

/** A server the journalist is asked about before a stored key is sent to it. */
export interface KeyQuestion {
  origin: string;
  message: string;
}

function keyQuestionOf(error: unknown): KeyQuestion | undefined {
  if (!(error instanceof VerbatimError) || error.code !== 'forbidden') return undefined;
  const origin = (error.details as { origin?: unknown } | undefined)?.origin;
  return typeof origin === 'string' ? { origin, message: error.message } : undefined;
}

export const settings = new SettingsStore();
