import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../core/library/database';
import { upgradeStepsFrom, writePreviousFormatLibrary } from '../core/library/old-library.test-kit';
import { upgradeContinues } from '../core/app-policy/upgrade-page';
import { FakeBrowserWindow } from './electron-mock.test-kit';
import { upgradeLibraryWithWindow } from './upgrade-window';

vi.mock('electron', async () => (await import('./electron-mock.test-kit')).electronMock());

const folder = (): string => mkdtempSync(join(tmpdir(), 'verbatim-upgrade-window-'));
const pageOf = (url: string): string =>
  decodeURIComponent(url.replace(/^data:text\/html;charset=utf-8,/, ''));

beforeEach(() => {
  FakeBrowserWindow.instances = [];
});

describe('the upgrade window', () => {
  it('opens no window for a library at the latest format, or a new one', async () => {
    const current = join(folder(), 'library.sqlite');
    openDatabase(current).close();
    await upgradeLibraryWithWindow(current);
    await upgradeLibraryWithWindow(join(folder(), 'library.sqlite'));
    expect(FakeBrowserWindow.instances).toHaveLength(0);
  });

  it('shows each step of an old library’s upgrade with a determinate bar and the time left, then closes', async () => {
    const path = writePreviousFormatLibrary(folder(), { sentences: 20, format: 10 });
    await upgradeLibraryWithWindow(path);
    expect(FakeBrowserWindow.instances).toHaveLength(1);
    const window = FakeBrowserWindow.instances[0]!;
    const pages = window.loadedUrls.map(pageOf);
    const steps = upgradeStepsFrom(10);
    expect(pages).toHaveLength(steps);
    expect(pages[0]).toContain('<p>Backing up your library…</p>');
    expect(pages[1]).toContain('<p>Rebuilding the search index for faster search…</p>');
    for (const [index, page] of pages.entries()) {
      expect(page).toMatch(/role="progressbar"[^>]*aria-valuenow="\d+"/);
      expect(page).toMatch(
        new RegExp(`Step ${index + 1} of ${steps}, (a few seconds|about \\d+ \\w+) left\\.`),
      );
      // Nothing in the page may run: the policy allows no script.
      expect(page).toContain(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'",
      );
      expect(page).not.toContain('<script');
    }
    expect(window.options).toMatchObject({ webPreferences: { javascript: false, sandbox: true } });
    expect(window.destroyed).toBe(true);
  });

  it('says the upgrade continues when the journalist closes it, and stays open', async () => {
    // Large enough that the upgrade lasts seconds after its first step shows.
    const path = writePreviousFormatLibrary(folder(), { sentences: 50_000, format: 10 });
    const upgrade = upgradeLibraryWithWindow(path);
    await vi.waitFor(() => expect(FakeBrowserWindow.instances).toHaveLength(1));
    const window = FakeBrowserWindow.instances[0]!;
    const close = { preventDefault: vi.fn() };
    window.emit('close', close);
    expect(close.preventDefault).toHaveBeenCalled();
    expect(window.destroyed).toBe(false);
    expect(pageOf(window.loadedUrls.at(-1)!)).toContain(upgradeContinues);
    await upgrade;
    expect(window.destroyed).toBe(true);
  });
});
