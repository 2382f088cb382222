import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSync, type NodeCue } from 'subtitle';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli';
import { exportSettingsFromFlags } from './export';
import { storeInterview, storedPhone } from '../../core/export/library-fixture.test-kit';
import { readDocx } from '../../core/export/read-back.test-kit';
import { openDatabase } from '../../core/library/database';
import { Library } from '../../core/library/library';

const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-export-'));
const outDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-export-out-'));
const env = { VERBATIM_DATA_DIR: dataDir };

beforeAll(async () => {
  const db = openDatabase(join(dataDir, 'library.sqlite'));
  const library = new Library(db);
  await storeInterview(library, 'ferry');
  await library.renameSpeaker('ferry', 'A', 'Maria Lopez');
  db.close();
});

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t), isTty: false, env });
  return { code, out: out.join('\n'), err: err.join('') };
}

describe('verbatim export', () => {
  it('writes a Word file with the renamed speaker in bold', async () => {
    const out = join(outDir, 'ferry.docx');
    const run = await cli(['export', 'ferry', '--format', 'docx', '--out', out]);
    expect(run).toMatchObject({ code: 0, out: `Saved ${out}`, err: '' });
    const paras = await readDocx(readFileSync(out));
    expect(paras.some((p) => p.runs[0]?.bold && p.runs[0].text === 'Maria Lopez: ')).toBe(true);
  });

  it('follows unit, timestamps, speakers, header, unredacted and range flags', async () => {
    const out = join(outDir, 'quote');
    const run = await cli([
      'export',
      'ferry',
      '--format',
      'txt',
      '--out',
      out,
      '--unit',
      'sentences',
      '--timestamps',
      'every:5',
      '--no-header',
      '--no-speakers',
      '--unredacted',
      '--range',
      '00:00:04-0:08',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const reply = JSON.parse(run.out) as { path: string; range: unknown; warnings: string[] };
    expect(reply.path).toBe(`${out}.txt`);
    // The whole sentence printed at 00:00:04, up to the one printed at 00:00:08.
    expect(reply.range).toEqual({ startMs: 4000, endMs: 7000 });
    expect(readFileSync(reply.path, 'utf8')).toBe(
      `[00:00:04] You can call me on ${storedPhone.unredacted} later.\n`,
    );
  });

  it('adds the appendix and writes subtitles a parser reads', async () => {
    const md = join(outDir, 'appendix.md');
    expect((await cli(['export', 'ferry', '--format', 'md', '--out', md, '--appendix'])).code).toBe(0);
    expect(readFileSync(md, 'utf8')).toContain('## Summary\n\nThe council signed the ferry contract.');
    const vtt = join(outDir, 'captions.vtt');
    expect((await cli(['export', 'ferry', '--format', 'vtt', '--out', vtt])).code).toBe(0);
    const cues = parseSync(readFileSync(vtt, 'utf8')).filter((n): n is NodeCue => n.type === 'cue');
    expect(cues[0]?.data.text).toMatch(/^<v Maria Lopez>Good morning/);
  });

  it('exits 2 on bad usage with a clear message, and writes nothing', async () => {
    const before = readdirSync(outDir).length;
    const cases: [string[], string][] = [
      [['export'], 'export needs one transcript id'],
      [['export', 'ferry', '--out', join(outDir, 'x')], '--format must be one of docx, pdf'],
      [['export', 'ferry', '--format', 'rtf', '--out', join(outDir, 'x')], '--format must be one of'],
      [['export', 'ferry', '--format', 'pdf'], '--out needs the path'],
      [
        ['export', 'ferry', '--format', 'txt', '--out', join(outDir, 'x'), '--unit', 'words'],
        '--unit must be',
      ],
      [
        ['export', 'ferry', '--format', 'txt', '--out', join(outDir, 'x'), '--timestamps', 'often'],
        '--timestamps',
      ],
      [['export', 'ferry', '--format', 'txt', '--out', join(outDir, 'x'), '--range', '10-5'], '--range'],
      [
        ['export', 'missing', '--format', 'txt', '--out', join(outDir, 'x')],
        'No transcript with id missing.',
      ],
      [
        ['export', 'ferry', '--format', 'txt', '--out', join(outDir, 'x'), '--colour'],
        'unknown option --colour for export',
      ],
    ];
    for (const [args, says] of cases) {
      const run = await cli(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.err).toContain(says);
    }
    expect(readdirSync(outDir).length).toBe(before);
  });

  it('exits 2 (bad input) with the reason when the folder to write into does not exist', async () => {
    const gone = join(outDir, 'no-such-folder', 'ferry.txt');
    const run = await cli(['export', 'ferry', '--format', 'txt', '--out', gone]);
    expect(run.code).toBe(2);
    expect(run.err).toContain(`There is no folder ${join(outDir, 'no-such-folder')}.`);
    expect(existsSync(join(outDir, 'no-such-folder'))).toBe(false);
  });
});

describe('exportSettingsFromFlags', () => {
  it('starts from the dialog’s defaults', () => {
    expect(exportSettingsFromFlags({})).toMatchObject({
      unit: 'paragraphs',
      timestamps: { kind: 'paragraph' },
      speakerNames: true,
      header: true,
      appendix: false,
      redacted: true,
    });
  });
});
