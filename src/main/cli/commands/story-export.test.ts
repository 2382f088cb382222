import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDay } from '../../../shared/display-format';
import { storeInterview } from '../../core/export/library-fixture.test-kit';
import { readBack, readDocx } from '../../core/export/read-back.test-kit';
import { openDatabase } from '../../core/library/database';
import { Library } from '../../core/library/library';
import { runCliProcess } from '../cli-process.test-kit';

const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-story-'));
const outDir = mkdtempSync(join(tmpdir(), 'verbatim-cli-story-out-'));
// Recording dates are written in the machine's time zone: the child runs in UTC so they are known.
const env = { VERBATIM_DATA_DIR: dataDir, TZ: 'UTC' };
const sampleRate = 16_000;

/** 16 s of mono 16-bit sound whose every sample is its own frame number (mod 2^16). */
function wavOf16Seconds(): Buffer {
  const frames = 16 * sampleRate;
  const data = Buffer.alloc(frames * 2);
  for (let i = 0; i < frames; i++) data.writeUInt16LE(i % 65_536, i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

let ferryCitation = '';
/** The day the harbour interview was recorded, as every surface writes it. */
let harbourDay = '';
let quote = { startMs: 0, endMs: 0 };

beforeAll(async () => {
  const db = openDatabase(join(dataDir, 'library.sqlite'));
  const library = new Library(db);
  await storeInterview(library, 'ferry', 'Interview about the ferry contract');
  await storeInterview(library, 'council', 'Council meeting');
  await library.renameSpeaker('ferry', 'B', 'Mayor Elena Alvarez');
  const wav = join(outDir, 'ferry.wav');
  writeFileSync(wav, wavOf16Seconds());
  await library.relink('ferry', wav);
  const mp3 = join(outDir, 'council.mp3');
  writeFileSync(
    mp3,
    Buffer.concat([Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00', 'latin1'), Buffer.alloc(400)]),
  );
  await library.relink('council', mp3);

  const signed = await library.createHighlight({ transcriptId: 'ferry', startMs: 8000, endMs: 10_500 });
  const morning = await library.createHighlight({ transcriptId: 'council', startMs: 1000, endMs: 3000 });
  const story = await library.createStory('Ferry contract');
  await library.addTextToStory(story.id, '# Background\nThe council decided in March.');
  await library.addQuoteToStory(story.id, signed.id);
  await library.addQuoteToStory(story.id, morning.id);
  // A story whose only source the test deletes through the command line.
  await storeInterview(library, 'harbour', 'Harbour interview');
  const harbour = await library.createStory('Harbour piece');
  await library.addQuoteToStory(
    harbour.id,
    (await library.createHighlight({ transcriptId: 'harbour', startMs: 8000, endMs: 10_500 })).id,
  );
  quote = { startMs: signed.startMs, endMs: signed.endMs };
  harbourDay = formatDay((await library.requireJob('harbour')).createdAt, 'UTC');
  ferryCitation = `— Mayor Elena Alvarez, “Interview about the ferry contract”, ${formatDay(
    (await library.story(story.id)).items.find((i) => i.kind === 'quote')?.recordedAt ?? Number.NaN,
    'UTC',
  )}, 00:00:08, not checked against the audio`;
  db.close();
});

describe('verbatim story export', () => {
  it('writes the story in Markdown with its citations, and one clip per WAV quote, saying which was not cut', async () => {
    const out = join(outDir, 'ferry-story');
    const clips = join(outDir, 'clips');
    const run = await runCliProcess(
      ['story', 'export', 'ferry contract', '--format', 'md', '--out', out, '--clips', clips, '--sources'],
      env,
    );
    expect(run.stdout).toBe(`Saved ${out}.md\nSaved 1 clip in ${clips}\n`);
    expect(run.stderr).toContain(
      'Quote 2 ("Good morning, thank you for coming.") was not cut: the recording of "Council meeting" is MP3, and Verbatim can cut clips only from WAV recordings (it has no MP3 decoder); convert council.mp3 to WAV to cut this quote.',
    );
    expect(run.code).toBe(0);

    const markdown = readFileSync(`${out}.md`, 'utf8');
    expect(markdown).toContain('# Ferry contract\n\n## Background\n\nThe council decided in March.\n');
    expect(markdown).toContain(`> “The ferry contract was signed in March.”\n>\n> ${ferryCitation}\n`);
    expect(markdown).toContain('## Sources');

    const [clip, ...more] = readdirSync(clips);
    expect(more).toEqual([]);
    expect(clip).toBe('01 Mayor Elena Alvarez - The ferry contract was signed in March.wav');
    const bytes = readFileSync(join(clips, clip ?? ''));
    const frames = ((quote.endMs - quote.startMs) * sampleRate) / 1000;
    expect(bytes.readUInt32LE(40)).toBe(frames * 2);
    // The first sample is the quote's first frame (its number, as the fixture wrote it, mod 2^16).
    expect(bytes.readUInt16LE(44)).toBe(((quote.startMs * sampleRate) / 1000) % 65_536);
  });

  it('writes Word, read back with the citation after the quote', async () => {
    const out = join(outDir, 'story.docx');
    const run = await runCliProcess(
      ['story', 'export', 'Ferry contract', '--format', 'docx', '--out', out],
      env,
    );
    expect(run).toMatchObject({ code: 0, stdout: `Saved ${out}\n`, stderr: '' });
    const texts = (await readDocx(readFileSync(out))).map((p) => p.text);
    expect(texts[texts.indexOf('“The ferry contract was signed in March.”') + 1]).toBe(ferryCitation);
  });

  it('follows --citation and refuses an unknown fact in it, writing nothing', async () => {
    const out = join(outDir, 'styled.txt');
    const styled = await runCliProcess(
      [
        'story',
        'export',
        'Ferry contract',
        '--format',
        'txt',
        '--out',
        out,
        '--citation',
        '{speaker} at {time}',
        '--json',
      ],
      env,
    );
    expect(styled.code).toBe(0);
    expect(JSON.parse(styled.stdout)).toMatchObject({ path: out, warnings: [], clips: null });
    expect(readFileSync(out, 'utf8')).toContain(
      '“The ferry contract was signed in March.” — Mayor Elena Alvarez at 00:00:08',
    );

    const refused = join(outDir, 'refused.txt');
    const bad = await runCliProcess(
      [
        'story',
        'export',
        'Ferry contract',
        '--format',
        'txt',
        '--out',
        refused,
        '--citation',
        '{speaker} {place}',
      ],
      env,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('The citation style has {place}, which is not a fact Verbatim knows.');
    expect(readdirSync(outDir)).not.toContain('refused.txt');
  });

  it('names a story that is not there, and a wrong format', async () => {
    const missing = await runCliProcess(
      ['story', 'export', 'Budget', '--format', 'pdf', '--out', join(outDir, 'x.pdf')],
      env,
    );
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('There is no story called “Budget”.');
    const wrong = await runCliProcess(
      ['story', 'export', 'Ferry contract', '--format', 'odt', '--out', join(outDir, 'x.odt')],
      env,
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--format must be one of docx, pdf, md, txt');
  });

  it('refuses to replace the story file without --force, before cutting any clip', async () => {
    const out = join(outDir, 'kept.md');
    writeFileSync(out, 'kept');
    const clips = join(outDir, 'kept-clips');
    const run = await runCliProcess(
      ['story', 'export', 'Ferry contract', '--format', 'md', '--out', out, '--clips', clips],
      env,
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('kept.md already exists');
    expect(readFileSync(out, 'utf8')).toBe('kept');
    expect(() => readdirSync(clips)).toThrow();
  });

  // Five runs of the command line: the time limit leaves room for a loaded machine.
  it('after its transcript is deleted, writes the quote as it was and says in the citation that the recording is gone, in every format', async () => {
    const deleted = await runCliProcess(['delete', 'harbour'], env);
    expect(deleted.code, deleted.stderr).toBe(0);
    for (const format of ['md', 'txt', 'docx', 'pdf'] as const) {
      const out = join(outDir, `harbour.${format}`);
      const run = await runCliProcess(
        ['story', 'export', 'Harbour piece', '--format', format, '--out', out, '--sources'],
        env,
      );
      expect(run, format).toMatchObject({ code: 0, stdout: `Saved ${out}\n`, stderr: '' });
      // As a reader sees it: without Markdown's block-quote marks and escapes, lines joined.
      const read = (await readBack(format, readFileSync(out)))
        .replace(/^>\s?/gm, '')
        .replace(/\\/g, '')
        .replace(/\s+/g, ' ');
      expect(read, format).not.toContain('[transcript deleted');
      expect(read, format).toContain(
        `“The ferry contract was signed in March.” — Speaker B, “Harbour interview”, ${harbourDay}, 00:00:08, not checked against the audio (recording no longer in the library)`,
      );
      expect(read, format).toContain(
        `“Harbour interview”, ${harbourDay}: quote at 00:00:08 (recording no longer in the library)`,
      );
    }
  }, 120_000);
});
