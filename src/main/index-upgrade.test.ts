import { describe, expect, it, vi } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { ElectronMock } from './platform/electron-mock.test-kit';
import { writePreviousFormatLibrary } from './core/library/old-library.test-kit';
import { migrations } from './core/library/migrations/index';

vi.mock('electron', async () => (await import('./platform/electron-mock.test-kit')).electronMock());

describe('the app started on a library an older Verbatim left', () => {
  it('shows the upgrade in its own window, closes it, then opens the main window on the upgraded library', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-main-upgrade-'));
    const library = writePreviousFormatLibrary(dataDir, { sentences: 20, format: 10 });
    process.env.VERBATIM_DATA_DIR = dataDir;
    process.env.VERBATIM_API_KEY = 'demo-key';
    const electron = (await import('electron')) as unknown as ElectronMock;
    const { FakeBrowserWindow } = await import('./platform/electron-mock.test-kit');
    await import('./index');

    electron.resolveReady();
    await vi.waitFor(() => expect(FakeBrowserWindow.instances).toHaveLength(2), { timeout: 60_000 });
    const [upgradeWindow, mainWindow] = FakeBrowserWindow.instances;
    expect(upgradeWindow!.options.title).toBe('Updating your library');
    expect(decodeURIComponent(upgradeWindow!.loadedUrls[0]!)).toContain('Backing up your library');
    expect(upgradeWindow!.destroyed).toBe(true);
    expect(mainWindow!.options.title).toBe('Verbatim');
    const upgraded = new Database(library, { readonly: true });
    expect(upgraded.pragma('user_version', { simple: true })).toBe(migrations.at(-1)!.version);
    upgraded.close();
  });
});
