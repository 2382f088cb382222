import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Segment } from '../../../shared/library';
import { defaultExportOptions } from './export-model';
import type { ExportOptions } from './export-model';
import { toPdf } from './pdf-export';
import { systemCjkFonts } from './fonts';
import { phoneRedacted, phoneUnredacted, richFixture } from './rich-fixture.test-kit';
import { pdftotext } from './read-back.test-kit';

const dir = mkdtempSync(join(tmpdir(), 'verbatim-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const opts = (o: Partial<ExportOptions>): ExportOptions => ({ ...defaultExportOptions, ...o });

let n = 0;
function save(bytes: Uint8Array): string {
  const file = join(dir, `export-${n++}.pdf`);
  writeFileSync(file, bytes);
  return file;
}

describe('toPdf', () => {
  it('has the title block, renamed speakers, timestamps, Greek and Arabic text', async () => {
    const bytes = await toPdf(richFixture(), opts({ appendix: true }));
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    const file = save(bytes);
    const text = pdftotext(file);
    expect(text).toContain('Council meeting interview');
    expect(text).toContain('interview-2026-11-20.mp3');
    expect(text).toContain('2026-11-20');
    expect(text).toContain('01:01:50');
    expect(text).toContain('Maria Papadopoulou:');
    expect(text).toContain('Karim Haddad:');
    expect(text).toContain('Speaker C:');
    expect(text).toContain('[00:00:01]');
    expect(text).toContain('[00:01:05]');
    expect(text).toContain('[01:01:40]');
    expect(text).toContain('Καλημέρα σας από την Αθήνα.');
    // Laid out right to left, so poppler reads the Arabic words back in their spoken order.
    expect(text).toContain('مرحبا بكم في البرنامج اليوم');
    expect(text).toContain(phoneRedacted);
    expect(text).not.toContain(phoneUnredacted);
    for (const h of ['Appendix', 'Summary', 'Key phrases', 'Entities', 'public transport']) {
      expect(text).toContain(h);
    }
    expect(text).toContain('Page 1 of 1');

    const shots = join(process.cwd(), 'test-results', 'screenshots');
    mkdirSync(shots, { recursive: true });
    const prefix = join(shots, 'export-pdf-page1');
    const r = spawnSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', '-singlefile', file, prefix]);
    expect(r.status).toBe(0);
    expect(statSync(`${prefix}.png`).size).toBeGreaterThan(5_000);
  });

  it('uses unredacted words when asked and drops what is switched off', async () => {
    const file = save(
      await toPdf(
        richFixture(),
        opts({ redacted: false, speakerNames: false, timestamps: { kind: 'none' }, header: false }),
      ),
    );
    const text = pdftotext(file);
    expect(text).toContain(phoneUnredacted);
    expect(text).not.toContain(phoneRedacted);
    expect(text).not.toContain('Maria Papadopoulou');
    expect(text).not.toContain('interview-2026-11-20.mp3');
    expect(text).not.toMatch(/\[\d\d:\d\d:\d\d\]/);
    expect(text).toContain('Καλημέρα');
  });

  it('reads an Arabic phrase inside a Latin sentence back in spoken order', async () => {
    const t = richFixture();
    const text = 'He said مرحبا بكم في البرنامج and then left the room quietly.';
    const words = text
      .split(' ')
      .map((w, j) => ({ text: w, start: j * 300, end: j * 300 + 250, confidence: 0.9 }));
    const s: Segment = { position: 0, startMs: 0, endMs: 4000, speaker: 'A', confidence: 0.9, text, words };
    const out = pdftotext(
      save(await toPdf({ ...t, sentences: [s], paragraphs: [] }, opts({ header: false }))),
    );
    // poppler wraps right-to-left runs in bidi marks and may drop the space after them.
    const plain = out.replace(/[\u202A-\u202E]/g, '').replace(/\s+/g, ' ');
    expect(plain).toMatch(/He said ?مرحبا بكم في البرنامج ?and then left/);
  });

  it('sets Chinese in the system CJK font, mid-sentence too, with Greek and Arabic still readable', async () => {
    const cjk = systemCjkFonts();
    // The CI machine installs fonts-noto-cjk (.ci/run); without it this test cannot say anything.
    expect(cjk, 'no CJK font: apt install fonts-noto-cjk').not.toBeNull();
    const t = richFixture();
    const chinese = '今天的会议讨论了预算。';
    const mixed = 'The mayor said 我们明天投票 before leaving.';
    const segment = (position: number, text: string, startMs: number): Segment => ({
      position,
      startMs,
      endMs: startMs + 2000,
      speaker: 'A',
      confidence: 0.9,
      text,
      words: [{ text, start: startMs, end: startMs + 2000, confidence: 0.9 }],
    });
    const sentences = [segment(0, chinese, 0), segment(1, mixed, 3000), ...t.sentences.slice(1, 3)];
    const speakers = new Map([...t.speakers, ['A', '王小明']]);
    const file = save(
      await toPdf({ ...t, speakers, sentences, paragraphs: [] }, opts({ unit: 'sentences' }), cjk),
    );
    const text = pdftotext(file);
    expect(text).toContain('王小明:');
    expect(text).toContain(chinese);
    expect(text.replace(/\s+/g, ' ')).toContain('The mayor said 我们明天投票 before leaving.');
    expect(text).toContain('Καλημέρα σας από την Αθήνα.');
    expect(text).toContain('مرحبا بكم في البرنامج اليوم');
    // pdfkit embeds a subset: a few characters, not the 20 MB collection.
    expect(statSync(file).size).toBeLessThan(300_000);
    const shot = join(process.cwd(), 'test-results', 'screenshots', 'export-pdf-chinese');
    mkdirSync(dirname(shot), { recursive: true });
    const r = spawnSync('pdftoppm', ['-png', '-r', '50', '-f', '1', '-l', '1', '-singlefile', file, shot]);
    expect(r.status).toBe(0);
    expect(statSync(`${shot}.png`).size).toBeGreaterThan(5_000);
  });

  it('still makes the PDF without a CJK font, the rest of it readable', async () => {
    const t = richFixture();
    const text = '今天的会议讨论了预算。';
    const words = [{ text, start: 0, end: 2000, confidence: 0.9 }];
    const s: Segment = { position: 0, startMs: 0, endMs: 2000, speaker: 'A', confidence: 0.9, text, words };
    const out = pdftotext(save(await toPdf({ ...t, sentences: [s], paragraphs: [] }, opts({}), null)));
    expect(out).toContain('Maria Papadopoulou:');
    expect(out).not.toContain(text);
  });

  it('breaks long transcripts over pages and numbers every page', async () => {
    const t = richFixture();
    const sentences: Segment[] = [];
    // One hour of 5-second sentences in three alternating speakers.
    for (let i = 0; i < 720; i++) {
      const speaker = ['A', 'B', 'C'][Math.floor(i / 4) % 3] ?? 'A';
      const text = `Sentence number ${i} says something about the budget and the buses.`;
      sentences.push({
        position: i,
        startMs: i * 5000,
        endMs: i * 5000 + 4800,
        speaker,
        confidence: 0.9,
        text,
        words: text.split(' ').map((w, j) => ({
          text: w,
          start: i * 5000 + j * 300,
          end: i * 5000 + j * 300 + 250,
          confidence: 0.9,
          speaker,
        })),
      });
    }
    const started = performance.now();
    const bytes = await toPdf(
      { ...t, sentences, paragraphs: [] },
      opts({ unit: 'turns', timestamps: { kind: 'sentence' } }),
    );
    const elapsed = performance.now() - started;
    const text = pdftotext(save(bytes));
    const pages = text.split('\f').filter((p) => p.trim() !== '');
    expect(pages.length).toBeGreaterThan(5);
    pages.forEach((p, i) => expect(p).toContain(`Page ${i + 1} of ${pages.length}`));
    expect(text).toContain('Sentence number 719 says');
    expect(text).toContain('[00:59:55]');
    // Generous bound for a shared 2-core machine; the real bench lives elsewhere.
    expect(elapsed).toBeLessThan(5_000);
  });
});
