import { defaultSettings, settingsSchema, type Settings, type SettingsPatch } from '../../../shared/settings';
import type { FileSystem } from '../../base/fs';
import { toDisposable, type IDisposable } from '../../base/lifecycle';

type Listener = (settings: Settings) => void;

/**
 * Settings kept as a small JSON file in the data folder. Writes go to a temporary file that
 * is then renamed over the old one, so a crash mid-write never leaves a broken file; a file
 * that cannot be read is kept aside (never deleted) and defaults are used.
 */
export class SettingsStore {
  private current: Settings | undefined;
  private readonly listeners = new Set<Listener>();

  constructor(
    private readonly fs: FileSystem,
    private readonly path: string,
    private readonly now: () => number = Date.now,
  ) {}

  async get(): Promise<Settings> {
    this.current ??= await this.load();
    return this.current;
  }

  async set(patch: SettingsPatch): Promise<Settings> {
    const next = settingsSchema.parse({ ...(await this.get()), ...patch });
    await this.fs.writeFileAtomic(this.path, `${JSON.stringify(next, null, 2)}\n`);
    this.current = next;
    for (const listener of this.listeners) listener(next);
    return next;
  }

  /** Hears every change stored; disposing stops it. */
  onChange(listener: Listener): IDisposable {
    this.listeners.add(listener);
    return toDisposable(() => this.listeners.delete(listener));
  }

  private async load(): Promise<Settings> {
    let text: string;
    try {
      text = await this.fs.readFile(this.path);
    } catch (error) {
      if (isMissing(error)) return defaultSettings;
      throw error;
    }
    try {
      return settingsSchema.parse(JSON.parse(text));
    } catch {
      await this.fs.rename(this.path, `${this.path}.unreadable-${this.now()}`);
      return defaultSettings;
    }
  }
}

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';
}
