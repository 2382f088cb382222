import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, schemaVersion } from './database';
import { listBackups } from './library-backups';
import { upgradeLibraryOffThread, upgradePending } from './library-upgrade';
import { migrations } from './migrations/index';
import { upgradeStepsFrom, writePreviousFormatLibrary } from './old-library.test-kit';
import type { UpgradeProgress } from './upgrade-plan';

const latest = migrations.at(-1)!.version;
const folder = (): string => mkdtempSync(join(tmpdir(), 'verbatim-upgrade-'));

function versionOf(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
}

describe('upgrading a library off the main thread', () => {
  it('backs up and migrates an old library, telling each step as it starts', async () => {
    const path = writePreviousFormatLibrary(folder(), { sentences: 50, format: 10 });
    expect(upgradePending(path)).toBe(true);
    const seen: UpgradeProgress[] = [];
    const outcome = await upgradeLibraryOffThread(path, { onProgress: (progress) => seen.push(progress) });
    expect(outcome?.elapsedMs).toBeGreaterThanOrEqual(0);
    const steps = upgradeStepsFrom(10);
    expect(steps).toBeGreaterThanOrEqual(9);
    expect(seen.map((progress) => progress.step)).toEqual(Array.from({ length: steps }, (_, i) => i + 1));
    expect(seen.every((progress) => progress.steps === steps)).toBe(true);
    expect(seen[0]!.label).toBe('Backing up your library');
    expect(seen[1]!.label).toBe('Rebuilding the search index for faster search');
    expect(versionOf(path)).toBe(latest);
    expect(listBackups(path)).toHaveLength(1);
    expect(upgradePending(path)).toBe(false);
    // The search index was rebuilt with the sentences in it.
    const db = openDatabase(path);
    expect(
      db.prepare("SELECT count(*) AS n FROM sentences_fts WHERE sentences_fts MATCH 'harbour'").get(),
    ).toEqual({
      n: 50,
    });
    db.close();
  });

  it('leaves a library at the latest format, a new one and a newer one to openDatabase, with no worker', async () => {
    const current = join(folder(), 'library.sqlite');
    openDatabase(current).close();
    const newer = join(folder(), 'library.sqlite');
    const future = new Database(newer);
    future.pragma(`user_version = ${latest + 1}`);
    future.close();
    for (const path of [current, newer, join(folder(), 'library.sqlite')]) {
      expect(upgradePending(path)).toBe(false);
      await expect(
        upgradeLibraryOffThread(path, { onProgress: () => expect.unreachable() }),
      ).resolves.toBeUndefined();
    }
    expect(versionOf(newer)).toBe(latest + 1);
  });

  it('rejects with openDatabase’s words when the old library cannot be upgraded', async () => {
    const path = writePreviousFormatLibrary(folder(), { sentences: 5 });
    const db = new Database(path);
    // A table the next migration adds a column to, gone: the migration fails, the library is left as it was.
    db.exec('PRAGMA foreign_keys = OFF; DROP TABLE transcripts;');
    db.close();
    await expect(upgradeLibraryOffThread(path)).rejects.toMatchObject({
      name: 'VerbatimError',
      code: 'storage',
    });
    expect(versionOf(path)).toBe(migrations.at(-2)!.version);
  });

  it('keeps the main thread responsive while a large library upgrades', async () => {
    const path = writePreviousFormatLibrary(folder(), { sentences: 200_000, format: 10 });
    let longestGapMs = 0;
    let ticks = 0;
    let last = performance.now();
    const tick = (): void => {
      const now = performance.now();
      longestGapMs = Math.max(longestGapMs, now - last);
      last = now;
      ticks++;
    };
    const ticker = setInterval(tick, 5);
    const started = performance.now();
    try {
      await upgradeLibraryOffThread(path);
    } finally {
      clearInterval(ticker);
    }
    // The gap up to the end counts too: an upgrade that held the thread would leave no tick at all.
    tick();
    const upgradeMs = performance.now() - started;
    expect(ticks).toBeGreaterThan(upgradeMs / 50);
    expect(schemaVersion(openDatabase(path))).toBe(latest);
    expect(upgradeMs).toBeGreaterThan(2000);
    // The upgrade took seconds; the timer was never held up for more than a small part of it.
    expect(longestGapMs).toBeLessThan(Math.min(500, upgradeMs / 10));
  });
});
