import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SettingsStore } from './settings-store';
import { nodeFileSystem } from '../../base/fs';
import { defaultSettings } from '../../../shared/settings';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'verbatim-settings-'));
}

describe('the settings store', () => {
  it('starts from defaults and persists a change to disk', async () => {
    const dir = tempDir();
    const store = new SettingsStore(nodeFileSystem, join(dir, 'settings.json'));
    expect(await store.get()).toEqual(defaultSettings);
    await store.set({ theme: 'light' });
    const reopened = new SettingsStore(nodeFileSystem, join(dir, 'settings.json'));
    expect(await reopened.get()).toEqual({ ...defaultSettings, theme: 'light' });
    expect(readdirSync(dir)).toEqual(['settings.json']); // no temporary file left behind
  });

  it('notifies listeners of each change', async () => {
    const store = new SettingsStore(nodeFileSystem, join(tempDir(), 'settings.json'));
    const seen: string[] = [];
    const following = store.onChange((settings) => seen.push(settings.theme));
    await store.set({ theme: 'dark' });
    following.dispose();
    await store.set({ theme: 'light' });
    expect(seen).toEqual(['dark']);
  });

  it('keeps an unreadable file aside instead of losing it, and uses defaults', async () => {
    const dir = tempDir();
    const path = join(dir, 'settings.json');
    writeFileSync(path, '{ not json');
    const store = new SettingsStore(nodeFileSystem, path, () => 1234);
    expect(await store.get()).toEqual(defaultSettings);
    expect(readFileSync(join(dir, 'settings.json.unreadable-1234'), 'utf8')).toBe('{ not json');
  });

  it('fills in settings added by a newer version with their defaults', async () => {
    const dir = tempDir();
    const path = join(dir, 'settings.json');
    writeFileSync(path, JSON.stringify({ theme: 'dark' }));
    expect(await new SettingsStore(nodeFileSystem, path).get()).toEqual({
      ...defaultSettings,
      theme: 'dark',
    });
  });
});
