// The library upgrade's worker thread in the packaged app (library-upgrade.ts starts it): the
// built main process resolves the worker's file next to itself, electron-builder packs out/
// into app.asar, and Electron (17.3 and later) starts worker threads from inside the archive,
// so the worker must be in the archive, where main looks, with every chunk it imports. Electron
// cannot run here, so the archive is made with @electron/asar as electron-builder makes it,
// and the worker is started by Node from the archive's own bytes (extracted), the way main
// starts it: `new Worker(url, { workerData: { path } })`.
//
// It needs `npm run build` to have run (it reads out/ as it is), like scripts/packed-app.test.ts.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createPackageWithOptions, extractAll, listPackage, statFile } from '@electron/asar';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePreviousFormatLibrary } from '../src/main/core/library/old-library.test-kit';
import { migrations } from '../src/main/core/library/migrations/index';
import type { UpgradeWorkerMessage } from '../src/main/core/library/library-upgrade';

const root = join(import.meta.dirname, '..');
const builtMain = join(root, 'out', 'main');
const workerName = 'library-upgrade-worker.js';

/** Every built file of out/main, as paths relative to out/main with forward slashes. */
function builtFiles(dir = builtMain, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? builtFiles(join(dir, entry.name), `${prefix}${entry.name}/`)
      : [`${prefix}${entry.name}`],
  );
}

/** The relative imports of a built ES module, resolved against its own path. */
function relativeImports(file: string, source: string): string[] {
  return [...source.matchAll(/(?:^|\n)import\s[^;]*?from\s*"(\.{1,2}\/[^"]+)"/g)].map((match) =>
    posix.join(posix.dirname(file), match[1]!),
  );
}

describe('the library upgrade worker in the packaged app', () => {
  let work: string;
  let archive: string;

  beforeAll(async () => {
    if (!existsSync(join(builtMain, 'index.js')))
      throw new Error('out/main is missing: run `npm run build` before this test.');
    work = mkdtempSync(join(tmpdir(), 'verbatim-packed-worker-'));
    // The app as electron-builder.yml's `files` take it (out/main and package.json), packed
    // with its asarUnpack rule for native addons.
    const app = join(work, 'app');
    cpSync(builtMain, join(app, 'out', 'main'), { recursive: true });
    cpSync(join(root, 'package.json'), join(app, 'package.json'));
    archive = join(work, 'app.asar');
    await createPackageWithOptions(app, archive, { unpack: '**/*.node' });
  });

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('is resolved by main next to the file that starts it, where the build put it', () => {
    // The one built file that names the worker; `new URL('./library-upgrade-worker.js',
    // import.meta.url)` resolves beside it, so it must sit in out/main itself, not in a chunk.
    const starters = builtFiles().filter((file) =>
      readFileSync(join(builtMain, file), 'utf8').includes(`"./${workerName}"`),
    );
    expect(starters).toEqual(['index.js']);
    expect(existsSync(join(builtMain, posix.dirname(starters[0]!), workerName))).toBe(true);
  });

  it('is packed inside app.asar with every chunk it imports, none of them unpacked', () => {
    const entries = new Set(
      listPackage(archive, { isPack: false }).map((entry) => entry.replaceAll('\\', '/')),
    );
    const needed = new Set<string>();
    const visit = (file: string): void => {
      if (needed.has(file)) return;
      needed.add(file);
      for (const imported of relativeImports(file, readFileSync(join(builtMain, file), 'utf8')))
        visit(imported);
    };
    visit(workerName);
    expect(needed.size).toBeGreaterThan(1);
    for (const file of needed) {
      expect(entries).toContain(`/out/main/${file}`);
      expect(statFile(archive, `out/main/${file}`)).not.toHaveProperty('unpacked', true);
    }
    // Worker threads read from app.asar only from Electron 17.3 on: the shipped one must be newer.
    const electron = JSON.parse(
      readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8'),
    ) as { version: string };
    expect(Number(electron.version.split('.')[0])).toBeGreaterThanOrEqual(18);
  });

  it('upgrades an old library when started from the archive as main starts it', async () => {
    const extracted = join(work, 'extracted');
    extractAll(archive, extracted);
    // The archive's node_modules are this checkout's (packed-app.test.ts checks how they pack).
    symlinkSync(join(root, 'node_modules'), join(extracted, 'node_modules'), 'dir');
    const path = writePreviousFormatLibrary(join(work, 'data'), { sentences: 20 });

    const worker = new Worker(pathToFileURL(join(extracted, 'out', 'main', workerName)), {
      workerData: { path },
    });
    const messages: UpgradeWorkerMessage[] = [];
    await new Promise<void>((resolve, reject) => {
      worker.on('message', (message: UpgradeWorkerMessage) => messages.push(message));
      worker.once('error', reject);
      worker.once('exit', () => resolve());
    });

    expect(messages.at(-1)).toMatchObject({ type: 'done', upgraded: true });
    expect(messages.some((message) => message.type === 'progress')).toBe(true);
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.at(-1)!.version);
    db.close();
  });
});
