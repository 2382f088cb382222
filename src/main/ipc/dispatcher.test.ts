import { describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDispatcher } from './dispatcher';
import { MemorySecrets } from '../core/secrets/secret-store';
import { composeServices } from '../compose';
import { defaultSettings } from '../../shared/settings';
import { createHandlers } from './create-handlers';
import { SettingsStore } from '../core/settings/settings-store';
import type { FileSystem } from '../base/fs';
import { unwrap } from '../../shared/ipc/envelope';
import { VerbatimError } from '../../shared/errors';
import type { Handlers } from '../../shared/ipc/contract';
import { createLogger, MemorySink } from '../core/log/logger';

function memoryFs(): FileSystem & { files: Map<string, string> } {
  const files = new Map<string, string>();
  return {
    files,
    readFile: (path) => {
      const text = files.get(path);
      return text === undefined
        ? Promise.reject(Object.assign(new Error('missing'), { code: 'ENOENT' }))
        : Promise.resolve(text);
    },
    writeFileAtomic: (path, contents) => {
      files.set(path, String(contents));
      return Promise.resolve();
    },
    rename: (from, to) => {
      files.set(to, files.get(from) ?? '');
      files.delete(from);
      return Promise.resolve();
    },
  };
}

/** A database whose table's only page was written over, opened again. */
function damagedDatabase(): Database.Database {
  const path = join(mkdtempSync(join(tmpdir(), 'verbatim-dispatch-damaged-')), 'notes.sqlite');
  const db = new Database(path);
  db.exec("CREATE TABLE notes (text); INSERT INTO notes VALUES ('The ferry contract was signed.')");
  const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'notes'").get() as {
    rootpage: number;
  };
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  const bytes = readFileSync(path);
  bytes.fill(0xee, (rootpage - 1) * pageSize, rootpage * pageSize);
  writeFileSync(path, bytes);
  return new Database(path);
}

function handlers(): Handlers {
  const services = composeServices({
    dataDir: mkdtempSync(join(tmpdir(), 'verbatim-dispatch-')),
    appInfo: { name: 'Verbatim', version: '0.1.0', platform: 'linux' },
    secrets: new MemorySecrets(),
  });
  return createHandlers({ ...services, settings: new SettingsStore(memoryFs(), '/data/settings.json') });
}

describe('the dispatcher', () => {
  it('round-trips a call through validation, the handler and the envelope', async () => {
    const dispatch = createDispatcher(handlers());
    expect(unwrap(await dispatch('settings.set', { theme: 'dark' }))).toEqual({
      ...defaultSettings,
      theme: 'dark',
    });
    expect(unwrap(await dispatch('settings.get', undefined))).toMatchObject({ theme: 'dark' });
  });

  it('refuses input that does not match the contract before any handler runs', async () => {
    const spy = vi.fn();
    const dispatch = createDispatcher({ ...handlers(), 'settings.set': spy });
    const result = await dispatch('settings.set', { theme: 'purple' });
    expect(spy).not.toHaveBeenCalled();
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(!result.ok && result.error.message).toContain('theme');
    const extra = await dispatch('settings.set', { theme: 'dark', apiKey: 'sneaky' });
    expect(extra).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('answers an unknown method with a typed error, not an exception', async () => {
    const result = await createDispatcher(handlers())('files.delete', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('passes typed errors through and logs only unexpected ones, with their stack', async () => {
    const sink = new MemorySink();
    const dispatch = createDispatcher(
      {
        ...handlers(),
        'app.info': () => Promise.reject(new VerbatimError('storage', 'The disk is full.')),
        'settings.get': () => Promise.reject(new Error('boom')),
      },
      { logger: createLogger({ sinks: [sink] }).child('ipc') },
    );
    expect(await dispatch('app.info', undefined)).toEqual({
      ok: false,
      error: { code: 'storage', message: 'The disk is full.' },
    });
    expect(await dispatch('settings.get', undefined)).toMatchObject({
      ok: false,
      error: { code: 'internal' },
    });
    expect(sink.records).toHaveLength(1);
    expect(sink.records[0]).toMatchObject({
      level: 'error',
      scope: 'ipc',
      message: 'settings.get failed unexpectedly',
    });
    expect(sink.records[0]!.details).toMatch(/^Error: boom\n\s+at /);
    expect(sink.records[0]!.details).toContain('dispatcher.test.ts');
  });

  it('says a library damaged under an action in a sentence, and logs what SQLite said', async () => {
    const damaged = damagedDatabase();
    const sink = new MemorySink();
    const dispatch = createDispatcher(
      {
        ...handlers(),
        'app.info': () => Promise.resolve(damaged.prepare('SELECT * FROM notes').all() as never),
      },
      { logger: createLogger({ sinks: [sink] }).child('ipc') },
    );
    const result = await dispatch('app.info', undefined);
    expect(result).toMatchObject({ ok: false, error: { code: 'storage' } });
    expect(!result.ok && result.error.message).toBe(
      'The library file is damaged, so this could not be done. Quit Verbatim, then run "npm run cli -- library repair" to rebuild what can be rebuilt, or restore the library from a backup in the backups folder of the data folder.',
    );
    expect(sink.records.map((record) => record.message)).toEqual(['app.info met a damaged library']);
    damaged.close();
  });

  it('checks what a handler returns against the contract', async () => {
    const dispatch = createDispatcher({
      ...handlers(),
      'app.info': () => Promise.resolve({ name: 42 } as never),
    });
    expect(await dispatch('app.info', undefined)).toMatchObject({ ok: false, error: { code: 'internal' } });
  });
});

describe('moving the data folder over the contract', () => {
  it('copies the library and asks for a restart, which only the desktop app can do', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-move-'));
    const relaunch = vi.fn();
    const services = composeServices({
      dataDir,
      appInfo: { name: 'Verbatim', version: '0', platform: 'linux' },
      secrets: new MemorySecrets(),
      relaunch,
    });
    const dispatch = createDispatcher(createHandlers(services));
    const target = join(mkdtempSync(join(tmpdir(), 'verbatim-target-')), 'library');
    expect(unwrap(await dispatch('app.moveDataFolder', { path: target }))).toEqual({ dataDir: target });
    expect(unwrap(await dispatch('app.relaunch', undefined))).toEqual({ relaunching: true });
    expect(relaunch).toHaveBeenCalledTimes(1);
    const withoutRelaunch = createDispatcher(createHandlers({ ...services, relaunch: undefined }));
    expect(await withoutRelaunch('app.relaunch', undefined)).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    await services.close();
  });
});
