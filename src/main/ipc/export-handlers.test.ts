import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultExportSettings } from '../../shared/export-options';
import type { EventName } from '../../shared/ipc/contract';
import type { ExportProgress } from '../../shared/ipc/export-contract';
import { unwrap, type Envelope } from '../../shared/ipc/envelope';
import { composeServices } from '../compose';
import { storeInterview, storedPhone } from '../core/export/library-fixture.test-kit';
import { MemorySecrets } from '../core/secrets/secret-store';
import { createDispatcher } from './dispatcher';
import { wireEvents } from './events';
import type { FileDialogs } from '../core/export/export-platform';
import { createHandlers } from './create-handlers';

const root = mkdtempSync(join(tmpdir(), 'verbatim-export-ipc-'));
const exportsDir = join(root, 'exports');
mkdirSync(exportsDir);
const dialogCalls: unknown[] = [];
const dialogs: FileDialogs = {
  saveFile: (options) => (dialogCalls.push(options), Promise.resolve(join(exportsDir, 'chosen.docx'))),
  openFile: () => Promise.reject(new Error('an export never opens a file')),
  chooseFolder: (options) => (dialogCalls.push(options), Promise.resolve(null)),
};

function servicesWith(platform: { dialogs?: FileDialogs }) {
  return composeServices({
    dataDir: mkdtempSync(join(root, 'data-')),
    appInfo: { name: 'Verbatim', version: '0', platform: 'linux' },
    secrets: new MemorySecrets({}),
    exportPlatform: { ...platform, defaultFolder: exportsDir },
  });
}

let services: ReturnType<typeof servicesWith>;
let dispatch: ReturnType<typeof createDispatcher>;
const events: { event: EventName; payload: unknown }[] = [];

beforeAll(async () => {
  services = servicesWith({});
  dispatch = createDispatcher(createHandlers(services));
  wireEvents(services, (event, payload) => events.push({ event, payload }));
  await storeInterview(services.core.library, 'ferry');
  await storeInterview(services.core.library, 'ferry-again');
  await storeInterview(services.core.library, 'budget', 'Budget: the vote?');
  await services.core.library.renameSpeaker('ferry', 'A', 'Maria Lopez');
});
afterAll(async () => {
  await services.close();
  rmSync(root, { recursive: true, force: true });
});

async function call<T>(method: string, input?: unknown): Promise<T> {
  return unwrap((await dispatch(method, input)) as Envelope<T>);
}
async function failure(method: string, input?: unknown): Promise<{ code: string; message: string }> {
  const envelope = await dispatch(method, input);
  if (envelope.ok) throw new Error(`${method} should have failed`);
  return envelope.error;
}

describe('exports over the contract', () => {
  it('says the web host has no native dialogs, and where exports go', async () => {
    expect(await call('export.capabilities')).toEqual({ nativeDialogs: false, defaultFolder: exportsDir });
    expect((await failure('export.chooseFolder')).message).toContain('type the path');
  });

  it('previews the first page as text lines, with a file name', async () => {
    const preview = await call<{ lines: string[]; fileName: string; warnings: string[] }>('export.preview', {
      id: 'ferry',
      format: 'md',
      options: defaultExportSettings,
    });
    expect(preview.lines[0]).toBe('# Ferry contract interview');
    expect(preview.lines.join('\n')).toContain('**Maria Lopez:**');
    expect(preview.fileName).toBe('Ferry contract interview.md');
    const docx = await call<{ lines: string[] }>('export.preview', {
      id: 'ferry',
      format: 'docx',
      options: { ...defaultExportSettings, header: false, timestamps: { kind: 'none' } },
    });
    expect(docx.lines[0]).toBe(
      'Maria Lopez: Good morning, thank you for coming. You can call me on #### later.',
    );
  });

  it('saves a Word file, adds the extension, and remembers the options but not the excerpt', async () => {
    const options = {
      ...defaultExportSettings,
      redacted: false,
      unit: 'turns',
      range: { startMs: 0, endMs: 9000 },
    };
    const saved = await call<{ path: string; warnings: string[] }>('export.save', {
      id: 'ferry',
      format: 'docx',
      options,
      path: join(exportsDir, 'for the editor'),
    });
    expect(saved).toEqual({ path: join(exportsDir, 'for the editor.docx'), warnings: [] });
    const xml = await (
      await JSZip.loadAsync(await import('node:fs/promises').then((fs) => fs.readFile(saved.path)))
    )
      .file('word/document.xml')!
      .async('string');
    expect(xml).toContain(storedPhone.unredacted);
    const remembered = (await services.settings.get()).exportOptions.docx;
    expect(remembered).toMatchObject({ redacted: false, unit: 'turns' });
    expect(remembered && 'range' in remembered).toBe(false);
  });

  it('never replaces a file already there unless told to, and keeps the old file untouched when not', async () => {
    const target = join(exportsDir, 'already-there.txt');
    writeFileSync(target, 'the editor’s notes');
    const refused = await failure('export.save', {
      id: 'ferry',
      format: 'txt',
      options: defaultExportSettings,
      path: target,
    });
    expect(refused.code).toBe('conflict');
    expect(refused.message).toContain('already-there.txt already exists in');
    expect(readFileSync(target, 'utf8')).toBe('the editor’s notes');
    const replaced = await call<{ path: string }>('export.save', {
      id: 'ferry',
      format: 'txt',
      options: defaultExportSettings,
      path: target,
      replace: true,
    });
    expect(replaced.path).toBe(target);
    expect(readFileSync(target, 'utf8')).not.toBe('the editor’s notes');
  });

  it('refuses a relative path, and says a typed folder that never existed is not there, leaving nothing behind', async () => {
    const relative = await failure('export.save', {
      id: 'ferry',
      format: 'txt',
      options: defaultExportSettings,
      path: 'notes/ferry.txt',
    });
    expect(relative).toMatchObject({ code: 'invalid_input' });
    const gone = join(root, 'unplugged-drive');
    const error = await failure('export.save', {
      id: 'ferry',
      format: 'txt',
      options: defaultExportSettings,
      path: join(gone, 'ferry.txt'),
    });
    expect(error.code).toBe('storage');
    expect(error.message).toBe(`There is no folder ${gone}. Check the path, or choose a folder that exists.`);
    expect(existsSync(gone)).toBe(false);
  });

  it('exports a batch into a folder with progress per transcript; one failure does not stop it', async () => {
    const folder = join(root, 'batch');
    mkdirSync(folder);
    events.length = 0;
    const { results } = await call<{ results: ExportProgress[] }>('export.batch', {
      batchId: 'b1',
      ids: ['ferry', 'missing', 'ferry-again', 'budget'],
      format: 'srt',
      options: defaultExportSettings,
      folder,
    });
    expect(results.map((r) => [r.id, r.ok])).toEqual([
      ['ferry', true],
      ['missing', false],
      ['ferry-again', true],
      ['budget', true],
    ]);
    expect(results[1]?.message).toBe('This transcript is no longer in your library.');
    // Same title twice: the second file does not overwrite the first.
    expect(readdirSync(folder).sort()).toEqual([
      'Budget- the vote.srt',
      'Ferry contract interview (2).srt',
      'Ferry contract interview.srt',
    ]);
    const progress = events
      .filter((e) => e.event === 'export.progress')
      .map((e) => e.payload as ExportProgress);
    expect(progress.map((p) => [p.batchId, p.index, p.total, p.ok])).toEqual([
      ['b1', 1, 4, true],
      ['b1', 2, 4, false],
      ['b1', 3, 4, true],
      ['b1', 4, 4, true],
    ]);
    for (const p of progress) expect(p.ms).toBeGreaterThanOrEqual(0);
  });

  it('says once that the folder is missing, before exporting anything', async () => {
    const gone = join(root, 'no-such-folder');
    const error = await failure('export.batch', {
      batchId: 'b2',
      ids: ['ferry', 'budget'],
      format: 'txt',
      options: defaultExportSettings,
      folder: gone,
    });
    expect(error).toMatchObject({ code: 'storage' });
    expect(error.message).toContain(`There is no folder ${gone}`);
    expect(existsSync(gone)).toBe(false);
  });
});

describe('with the desktop app’s dialogs', () => {
  it('asks the save dialog with the format’s filter and the default folder', async () => {
    const desktop = servicesWith({ dialogs });
    const handlers = createHandlers(desktop);
    expect(await handlers['export.capabilities'](undefined)).toMatchObject({ nativeDialogs: true });
    expect(await handlers['export.chooseFile']({ format: 'docx', fileName: 'Ferry.docx' })).toEqual({
      path: join(exportsDir, 'chosen.docx'),
    });
    expect(await handlers['export.chooseFolder'](undefined)).toEqual({ path: null });
    expect(dialogCalls).toEqual([
      {
        title: 'Save the export',
        defaultPath: join(exportsDir, 'Ferry.docx'),
        filters: [{ name: 'Word document (.docx)', extensions: ['docx'] }],
      },
      { title: 'Export into this folder', defaultPath: exportsDir },
    ]);
    await desktop.close();
  });
});

describe('a folder that was there and has gone', () => {
  it('is no longer there when it was the folder offered or one chosen in the dialog, for one file and for a batch', async () => {
    const offered = mkdtempSync(join(root, 'offered-'));
    const chosen = mkdtempSync(join(root, 'chosen-'));
    const desktop = composeServices({
      dataDir: mkdtempSync(join(root, 'data-')),
      appInfo: { name: 'Verbatim', version: '0', platform: 'linux' },
      secrets: new MemorySecrets({}),
      exportPlatform: {
        defaultFolder: offered,
        dialogs: { ...dialogs, chooseFolder: () => Promise.resolve(chosen) },
      },
    });
    await storeInterview(desktop.core.library, 'ferry');
    const handlers = createHandlers(desktop);
    const refusal = (promise: Promise<unknown>): Promise<unknown> =>
      promise.then(
        () => Promise.reject(new Error('should have failed')),
        (error: unknown) => error,
      );
    try {
      await handlers['export.capabilities'](undefined);
      await handlers['export.chooseFolder'](undefined);
      rmSync(offered, { recursive: true });
      rmSync(chosen, { recursive: true });
      const gone = (folder: string) =>
        `The folder ${folder} is no longer there (moved, renamed or on a drive that was removed). Choose another folder.`;
      expect(
        await refusal(
          handlers['export.save']({
            id: 'ferry',
            format: 'txt',
            options: defaultExportSettings,
            path: join(offered, 'ferry.txt'),
          }),
        ),
      ).toMatchObject({ code: 'storage', message: gone(offered) });
      expect(
        await refusal(
          handlers['export.batch']({
            batchId: 'b3',
            ids: ['ferry'],
            format: 'txt',
            options: defaultExportSettings,
            folder: chosen,
          }),
        ),
      ).toMatchObject({ code: 'storage', message: gone(chosen) });
    } finally {
      await desktop.close();
    }
  });
});
