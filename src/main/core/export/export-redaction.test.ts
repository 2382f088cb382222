import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultExportSettings, exportFormats, type ExportFormat } from '../../../shared/export-options';
import { unwrap, type Envelope } from '../../../shared/ipc/envelope';
import { composeServices } from '../../compose';
import { createDispatcher } from '../../ipc/dispatcher';
import { createHandlers } from '../../ipc/create-handlers';
import { MemorySecrets } from '../secrets/secret-store';
import { interviewPii, storeRedactedInterview } from '../library/redacted-interview.test-kit';
import { exportBatch } from './export-batch';
import { exportTranscript } from './export-transcript';
import { loadExportTranscript } from './library-export';
import { pdftotext, readDocx } from './read-back.test-kit';
import { runCliProcess } from '../../cli/cli-process.test-kit';

/**
 * The appendix (summary, key phrases, entities) of every export keeps the source's phone number
 * and email hidden unless the journalist chose the original words, on every way out: the core
 * export in each format, the reader's Export dialog (preview and save), the library's batch
 * export and the CLI. The fixture is the emulator's interview transcribed with the phone number
 * and email redacted and the unredacted words kept.
 */

const root = mkdtempSync(join(tmpdir(), 'verbatim-export-redaction-'));
const exportsDir = join(root, 'exports');
mkdirSync(exportsDir);
const services = composeServices({
  dataDir: join(root, 'data'),
  appInfo: { name: 'Verbatim', version: '0', platform: 'linux' },
  secrets: new MemorySecrets({}),
  exportPlatform: { defaultFolder: exportsDir },
});
const library = services.core.library;
const dispatch = createDispatcher(createHandlers(services));
const call = async <T>(method: string, input: unknown): Promise<T> =>
  unwrap((await dispatch(method, input)) as Envelope<T>);

const withAppendix = { ...defaultExportSettings, appendix: true };
const original = { ...withAppendix, redacted: false };

beforeAll(async () => {
  await storeRedactedInterview(library, 'mayor');
});
afterAll(async () => {
  await services.close();
  rmSync(root, { recursive: true, force: true });
});

/** What a reader of the file sees. */
async function readBack(format: ExportFormat, bytes: Uint8Array): Promise<string> {
  if (format === 'docx') return (await readDocx(bytes)).map((p) => p.text).join('\n');
  if (format === 'pdf') {
    const file = join(root, `read-back-${Math.random().toString(36).slice(2)}.pdf`);
    writeFileSync(file, bytes);
    // pdftotext breaks lines where the page does; joined, an email cut at a line end is whole again.
    return pdftotext(file).replace(/\s*\n\s*/g, ' ');
  }
  const text = new TextDecoder().decode(bytes);
  // Markdown escapes the brackets and underscores of "[PHONE_NUMBER]"; a reader sees them plain.
  return format === 'md' ? text.replace(/\\([\\`*_[\]<>#+\-.])/g, '$1') : text;
}

function expectHidden(text: string): void {
  expect(text).not.toContain(interviewPii.phone);
  expect(text.toLowerCase()).not.toContain(interviewPii.email);
}

/** The formats whose file has an appendix; subtitles and CSV rows have nowhere to put one. */
const withAppendixSection: ExportFormat[] = ['docx', 'pdf', 'md', 'txt', 'json'];

describe('the export appendix of a redacted transcript', () => {
  it('is loaded twice: redacted for every export, as said only for the original words', async () => {
    const t = await loadExportTranscript(library, 'mayor');
    expect(t.analyses?.entities).toContainEqual({ type: 'person name', text: 'Elena Alvarez' });
    // The redacted ones are counted by kind, not listed as their marks.
    expect(JSON.stringify(t.analyses?.entities)).not.toMatch(/PHONE_NUMBER|EMAIL_ADDRESS/);
    expect(t.analyses?.redactedEntities).toEqual([
      { kind: 'phone number', count: 1 },
      { kind: 'e-mail', count: 1 },
    ]);
    expectHidden(JSON.stringify(t.analyses));
    expect(t.unredacted?.analyses?.entities).toEqual(
      expect.arrayContaining([
        { type: 'phone number', text: interviewPii.phone },
        { type: 'email address', text: interviewPii.email },
      ]),
    );
  });

  for (const format of exportFormats) {
    it(`${format}: hides the phone number and email everywhere unless the original is chosen`, async () => {
      const t = await loadExportTranscript(library, 'mayor');
      const redacted = await readBack(format, (await exportTranscript(format, t, withAppendix)).bytes);
      expectHidden(redacted);
      expect(redacted).toContain('[PHONE_NUMBER]');

      const clear = await readBack(format, (await exportTranscript(format, t, original)).bytes);
      expect(clear).toContain(interviewPii.phone);
      expect(clear).toContain(interviewPii.email);
      if (withAppendixSection.includes(format)) {
        // The appendix itself names the entities as said, not only the transcript's lines.
        const entities = clear.slice(clear.search(/entities/i));
        expect(entities).toContain(interviewPii.phone);
        expect(entities).toContain(interviewPii.email);
        const hidden = redacted.slice(redacted.search(/entities/i));
        expect(hidden).not.toMatch(/PHONE_NUMBER|EMAIL_ADDRESS/);
        expect(hidden).toContain(
          format === 'json' ? '"kind": "phone number"' : '2 redacted: phone number, e-mail',
        );
      }
    });
  }

  it('the reader’s Export dialog previews and saves the appendix redacted', async () => {
    const preview = await call<{ lines: string[] }>('export.preview', {
      id: 'mayor',
      format: 'md',
      options: withAppendix,
    });
    expectHidden(preview.lines.join('\n'));
    const saved = await call<{ path: string }>('export.save', {
      id: 'mayor',
      format: 'md',
      options: withAppendix,
      path: join(exportsDir, 'dialog.md'),
    });
    const text = readFileSync(saved.path, 'utf8');
    expect(text).toContain('## Entities');
    expectHidden(text);
    const clear = await call<{ path: string }>('export.save', {
      id: 'mayor',
      format: 'md',
      options: original,
      path: join(exportsDir, 'dialog-original.md'),
    });
    expect(readFileSync(clear.path, 'utf8')).toContain(`- ${interviewPii.phone} (phone number)`);
  });

  it('the library’s batch export writes every file with the appendix redacted', async () => {
    await storeRedactedInterview(library, 'mayor-again', { redact_pii_sub: 'hash' });
    const folder = mkdtempSync(join(root, 'batch-'));
    const results = await exportBatch({
      library,
      ids: ['mayor', 'mayor-again'],
      format: 'txt',
      options: withAppendix,
      folder,
    });
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    const files = readdirSync(folder).map((name) => readFileSync(join(folder, name), 'utf8'));
    expect(files).toHaveLength(2);
    for (const text of files) {
      expect(text).toContain('ENTITIES');
      expectHidden(text);
    }
    // The hashed transcript's appendix counts them, as the other's does.
    for (const text of files) {
      const entities = text.slice(text.indexOf('ENTITIES'));
      expect(entities).toContain('- 2 redacted: phone number, e-mail');
      expect(entities).not.toMatch(/#|PHONE|EMAIL/);
    }
  });

  it('the CLI writes the appendix redacted unless --unredacted is given', async () => {
    const dataDir = mkdtempSync(join(root, 'cli-'));
    const { openDatabase } = await import('../library/database');
    const { Library } = await import('../library/library');
    const db = openDatabase(join(dataDir, 'library.sqlite'));
    await storeRedactedInterview(new Library(db), 'mayor');
    await storeRedactedInterview(new Library(db), 'hashed', {
      redact_pii_sub: 'hash',
      redact_pii_policies: ['phone_number', 'email_address', 'person_name'],
      redact_pii_return_unredacted: false,
    });
    db.close();

    const run = async (args: string[]): Promise<{ code: number | null; stderr: string }> => {
      const { code, stderr } = await runCliProcess(args, { VERBATIM_DATA_DIR: dataDir });
      return { code, stderr };
    };
    const redactedOut = join(dataDir, 'appendix.md');
    expect(await run(['export', 'mayor', '--appendix', '--format', 'md', '--out', redactedOut])).toEqual({
      code: 0,
      stderr: '',
    });
    const redacted = readFileSync(redactedOut, 'utf8');
    const redactedEntities = redacted.slice(redacted.indexOf('## Entities'));
    expect(redactedEntities).toContain('- 2 redacted: phone number, e-mail');
    expect(redactedEntities).not.toMatch(/PHONE|EMAIL/);
    expectHidden(redacted);

    const clearOut = join(dataDir, 'appendix-original.md');
    const clearRun = await run([
      'export',
      'mayor',
      '--appendix',
      '--unredacted',
      '--format',
      'md',
      '--out',
      clearOut,
    ]);
    expect(clearRun.code).toBe(0);
    expect(readFileSync(clearOut, 'utf8')).toContain(`- ${interviewPii.phone} (phone number)`);

    // Hashed, as a reporter exports it to plain text: the appendix counts, it lists no hashes.
    const hashedOut = join(dataDir, 'hashed.txt');
    expect(await run(['export', 'hashed', '--appendix', '--format', 'txt', '--out', hashedOut])).toEqual({
      code: 0,
      stderr: '',
    });
    const hashed = readFileSync(hashedOut, 'utf8');
    const entities = hashed.slice(hashed.indexOf('ENTITIES'));
    expect(entities).toContain('- 6 redacted: person ×4, phone number, e-mail');
    expect(entities).not.toContain('#');
    expect(entities).toContain('- Northwind Ferries (organization)');
  }, 60_000);
});
