import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliProcess } from '../cli-process.test-kit';

/**
 * `glossary import` of the files spreadsheets save: every letter arrives as written whatever
 * the Unicode encoding, and a file in another code page (Windows-1252, Latin-1) is refused
 * naming its line, never imported with "é" turned into "\uFFFD".
 */
const csv =
  'term,kind,misheard,note\nCafé Müller,organisation,Cafe Muller,the bakery\nSiobhán Brennan,person,,\n';

async function imported(
  bytes: Buffer,
): Promise<{ code: number | null; stdout: string; stderr: string; list: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-glossary-encoding-'));
  const file = join(dataDir, 'newsroom.csv');
  writeFileSync(file, bytes);
  const env = { VERBATIM_DATA_DIR: dataDir };
  const run = await runCliProcess(['glossary', 'import', file, '--glossary', 'Newsroom'], env);
  const listed =
    run.code === 0
      ? await runCliProcess(['glossary', 'list', '--glossary', 'Newsroom', '--json'], env)
      : undefined;
  return { ...run, list: listed?.stdout ?? '' };
}

describe('glossary import of a file in any encoding a spreadsheet saves', () => {
  it.each([
    ['UTF-8', Buffer.from(csv, 'utf8')],
    [
      'UTF-8 with a byte order mark',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(csv, 'utf8')]),
    ],
    ['UTF-16 little-endian', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(csv, 'utf16le')])],
    ['UTF-16 big-endian', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(csv, 'utf16le').swap16()])],
  ])(
    '%s: every letter as written',
    async (_encoding, bytes) => {
      const run = await imported(bytes);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe('Imported into Newsroom: 2 added, 0 updated.\n');
      const [glossary] = JSON.parse(run.list) as { entries: { term: string }[] }[];
      const entries = glossary!.entries;
      expect(entries.map((entry) => entry.term).toSorted()).toEqual(['Café Müller', 'Siobhán Brennan']);
    },
    30_000,
  );

  it('Latin-1 is refused, naming the first line that is not UTF-8 and how to save it', async () => {
    const run = await imported(Buffer.from(csv, 'latin1'));
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'verbatim: newsroom.csv is not UTF-8: line 2 has a letter saved in another encoding (Windows-1252 or Latin-1, as some spreadsheets save CSV). Save it again as "CSV UTF-8" (Excel: File, Save As, CSV UTF-8; LibreOffice: character set Unicode (UTF-8)), then import it again.\n',
    );
  }, 30_000);
});
