import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatCitation } from '../../../shared/citation';
import { VerbatimError } from '../../../shared/errors';
import { citationTemplateProblem, storyExportOptionsSchema } from '../../../shared/story-export-options';
import type { AtomicWriteOps } from '../../base/fs';
import { systemCjkFonts } from './fonts';
import { readBack, readDocx } from './read-back.test-kit';
import type { Story } from '../../../shared/highlights';
import { ferryStory, storyQuote } from './story-fixture.test-kit';
import { textBlocks } from './story-document';
import { exportStory, renderStory } from './story-export';

const root = mkdtempSync(join(tmpdir(), 'verbatim-story-export-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Dates in UTC so the recording day does not depend on the machine running the tests.
const utc = { timeZone: 'UTC' };
const withSources = { ...utc, sourceList: true };

const mayorSource = '— Mayor Elena Alvarez, “Interview about the ferry contract”, Mar 14, 2025, 00:12:31';
// Every citation says whether the quote was checked against the audio, and by whom when a colleague did.
const mayorCitation = `${mayorSource}, checked against the audio by ana on Mar 16, 2025`;
const bidCitation =
  '— Mayor Elena Alvarez, “Interview about the ferry contract”, Mar 14, 2025, 00:15:05, checked against the audio on Mar 15, 2025';
const unionCitation = `— Unknown speaker, “Harbour workers' union”, Mar 20, 2025, 00:01:05, not checked against the audio`;

const text = async (format: 'md' | 'txt', options: object): Promise<string> =>
  new TextDecoder().decode((await renderStory(ferryStory(), format, options)).bytes);

describe('story as plain text and Markdown', () => {
  it('writes the plain text exactly: title, heading, paragraphs, quotes with citations, the note, sources', async () => {
    expect(await text('txt', withSources)).toBe(
      [
        'Ferry contract story',
        '',
        'THE FERRY CONTRACT',
        '',
        'The council signed in March. It cost more than planned.',
        '',
        'A second paragraph.',
        '',
        `“We signed the ferry contract in March.” ${mayorCitation}`,
        '',
        `“It was the only bid.” ${bidCitation}`,
        '',
        'Critics disagree. Καλημέρα.',
        '',
        `“The contract was rushed.” [words deleted in the transcript] ${unionCitation}`,
        '',
        'SOURCES',
        '- “Interview about the ferry contract”, Mar 14, 2025: quotes at 00:12:31, 00:15:05',
        `- “Harbour workers' union”, Mar 20, 2025: quote at 00:01:05`,
        '',
      ].join('\n'),
    );
  });

  it('writes the Markdown exactly, the quotes as block quotes and the note escaped to show as typed', async () => {
    expect(await text('md', withSources)).toBe(
      [
        '# Ferry contract story',
        '',
        '## The ferry contract',
        '',
        'The council signed in March. It cost more than planned.',
        '',
        'A second paragraph.',
        '',
        '> “We signed the ferry contract in March.”',
        '>',
        `> ${mayorCitation}`,
        '',
        '> “It was the only bid.”',
        '>',
        `> ${bidCitation}`,
        '',
        'Critics disagree. Καλημέρα.',
        '',
        '> “The contract was rushed.” \\[words deleted in the transcript\\]',
        '>',
        `> ${unionCitation}`,
        '',
        '## Sources',
        '',
        '- “Interview about the ferry contract”, Mar 14, 2025: quotes at 00:12:31, 00:15:05',
        `- “Harbour workers' union”, Mar 20, 2025: quote at 00:01:05`,
        '',
      ].join('\n'),
    );
  });

  it('leaves the source list out unless asked', async () => {
    const plain = await text('txt', utc);
    expect(plain).not.toContain('SOURCES');
    expect(plain.trimEnd().endsWith(unionCitation)).toBe(true);
  });

  it('follows a citation style of the journalist', async () => {
    const plain = await text('txt', { ...utc, citation: '({speaker}, {time})' });
    expect(plain).toContain('“It was the only bid.” — (Mayor Elena Alvarez, 00:15:05)');
  });
});

/** A story of one quote kept as text after its transcript was deleted, as the library gives it. */
function storyFromDeletedTranscript(): Story {
  const story = ferryStory();
  story.items = [storyQuote(1, { transcriptId: null, highlightId: null, missing: true })];
  return story;
}

describe('a quote whose transcript was deleted', () => {
  const goneCitation = `${mayorSource}, not checked against the audio (recording no longer in the library)`;

  it('keeps its words as they were, and says in the citation and the sources that the recording is gone, in every format', async () => {
    for (const format of ['md', 'txt', 'docx', 'pdf'] as const) {
      const { bytes } = await renderStory(storyFromDeletedTranscript(), format, withSources);
      // As a reader sees the Markdown: without its block-quote marks and escapes.
      const read = (await readBack(format, bytes))
        .replace(/^>\s?/gm, '')
        .replace(/\\/g, '')
        .replace(/\s+/g, ' ');
      expect(read, format).not.toContain('[transcript deleted');
      expect(read, format).toContain(`“We signed the ferry contract in March.” ${goneCitation}`);
      expect(read, format).toContain(
        '“Interview about the ferry contract”, Mar 14, 2025: quote at 00:12:31 (recording no longer in the library)',
      );
    }
  });

  it('prints the quotation exactly as it was, the note only in the citation', async () => {
    const { bytes } = await renderStory(storyFromDeletedTranscript(), 'txt', utc);
    expect(new TextDecoder().decode(bytes)).toBe(
      `Ferry contract story\n\n“We signed the ferry contract in March.” ${goneCitation}\n`,
    );
  });
});

describe('quotation marks', () => {
  it("prints each quote in its transcript's own marks, the same in every format", async () => {
    const story = ferryStory();
    story.items = [
      storyQuote(1, { text: 'Nous avons signé.', languageCode: 'fr' }),
      storyQuote(2, { text: 'Wir haben unterschrieben.', languageCode: 'de' }),
      storyQuote(3, { text: 'Firmamos.', languageCode: 'es' }),
      storyQuote(4, { text: 'We signed.', languageCode: null }),
    ];
    for (const format of ['md', 'txt', 'docx', 'pdf'] as const) {
      // Lines joined, the no-break spaces French sets its marks off with kept (pdftotext reads
      // the PDF's no-break space glyph back as a space).
      const read = (await readBack(format, (await renderStory(story, format, utc)).bytes)).replace(
        /[ \t\r\n]+/g,
        ' ',
      );
      const space = format === 'pdf' ? ' ' : '\u00a0';
      expect(read, format).toContain(`«${space}Nous avons signé.${space}»`);
      expect(read, format).toContain('„Wir haben unterschrieben.“');
      expect(read, format).toContain('«Firmamos.»');
      expect(read, format).toContain('“We signed.”');
      expect(read, format).not.toContain('"');
    }
  });
});

describe("the journalist's text", () => {
  it('reads "# " at the start of a line as a heading and nothing else', () => {
    expect(textBlocks('# Background\n#1 priority is the ferry.\n  # indented is text\n#\n\n\nLast.')).toEqual(
      [
        { kind: 'heading', text: 'Background' },
        { kind: 'paragraph', text: '#1 priority is the ferry. # indented is text #' },
        { kind: 'paragraph', text: 'Last.' },
      ],
    );
  });
});

describe('citation style', () => {
  it('fills every fact', () => {
    expect(formatCitation(storyQuote(1), '{time} {speaker} / {title} / {date}', 'UTC')).toBe(
      '00:12:31 Mayor Elena Alvarez / Interview about the ferry contract / Mar 14, 2025, not checked against the audio',
    );
  });

  it('names an unknown fact and the ones to use', () => {
    expect(citationTemplateProblem('{speeker}, {date}')).toBe(
      'The citation style has {speeker}, which is not a fact Verbatim knows. Use {speaker}, {title}, {date} or {time}.',
    );
    expect(citationTemplateProblem('{name} at {timecode}')).toBe(
      'The citation style has {name}, {timecode}, which are not facts Verbatim knows. Use {speaker}, {title}, {date} or {time}.',
    );
  });

  it('refuses a stray brace, an empty style and a very long one', () => {
    expect(citationTemplateProblem('{speaker, {date}')).toContain('a brace without its partner');
    expect(citationTemplateProblem('{speaker} }')).toContain('a brace without its partner');
    expect(citationTemplateProblem('  ')).toBe(
      'The citation style is empty. Use {speaker}, {title}, {date} or {time}.',
    );
    expect(citationTemplateProblem('x'.repeat(301))).toBe(
      'The citation style is longer than 300 characters.',
    );
    expect(citationTemplateProblem('{speaker}, “{title}”, {date}, {time}')).toBeUndefined();
  });

  it('is checked by the options schema with the same words', () => {
    const parsed = storyExportOptionsSchema.safeParse({ citation: '{who}' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toContain('{who}, which is not a fact Verbatim knows');
    expect(storyExportOptionsSchema.parse({})).toEqual({
      citation: '{speaker}, “{title}”, {date}, {time}',
      sourceList: false,
    });
  });

  it('refuses an export with a bad style as invalid input, before anything is written', async () => {
    const path = join(root, 'bad-style.txt');
    const error = await exportStory(ferryStory(), {
      format: 'txt',
      path,
      replace: false,
      options: { citation: '{speaker} {place}' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VerbatimError);
    expect((error as VerbatimError).code).toBe('invalid_input');
    expect((error as VerbatimError).message).toContain('{place}');
    expect(readdirSync(root)).not.toContain('bad-style.txt');
  });
});

describe('story as Word', () => {
  it('has the title, the heading, the paragraphs and each quote followed by its citation, in order', async () => {
    const { bytes } = await renderStory(ferryStory(), 'docx', withSources);
    const paragraphs = await readDocx(bytes);
    const texts = paragraphs.map((p) => p.text).filter((t) => t !== '');
    expect(paragraphs.find((p) => p.text === 'Ferry contract story')?.style).toBe('Title');
    expect(paragraphs.find((p) => p.text === 'The ferry contract')?.style).toBe('Heading1');
    const at = (t: string): number => texts.indexOf(t);
    const order = [
      'The ferry contract',
      'The council signed in March. It cost more than planned.',
      'A second paragraph.',
      '“We signed the ferry contract in March.”',
      mayorCitation,
      '“It was the only bid.”',
      bidCitation,
      'Critics disagree. Καλημέρα.',
      '“The contract was rushed.” [words deleted in the transcript]',
      unionCitation,
      'Sources',
      '“Interview about the ferry contract”, Mar 14, 2025: quotes at 00:12:31, 00:15:05',
      `“Harbour workers' union”, Mar 20, 2025: quote at 00:01:05`,
    ];
    for (const t of order) expect(at(t), t).toBeGreaterThanOrEqual(0);
    expect(order.map(at)).toEqual([...order.map(at)].sort((a, b) => a - b));
    // The quotation is set in from the journalist's text.
    expect(paragraphs.find((p) => p.text.startsWith('“We signed'))?.xml).toContain('<w:ind w:left="720"');
  });
});

describe('story as PDF', () => {
  it('reads back with pdftotext: citations, the note, Greek and the sources', async () => {
    const { bytes, warnings } = await renderStory(ferryStory(), 'pdf', withSources);
    expect(warnings).toEqual([]);
    const read = (await readBack('pdf', bytes)).replace(/\s+/g, ' ');
    expect(read).toContain('Ferry contract story');
    expect(read).toContain(`“We signed the ferry contract in March.” ${mayorCitation}`);
    expect(read).toContain(`“It was the only bid.” ${bidCitation}`);
    expect(read).toContain(`“The contract was rushed.” [words deleted in the transcript] ${unionCitation}`);
    expect(read).toContain('Critics disagree. Καλημέρα.');
    expect(read).toContain('Sources');
    expect(read).toContain(
      '• “Interview about the ferry contract”, Mar 14, 2025: quotes at 00:12:31, 00:15:05',
    );
    expect(read).toContain('Page 1 of 1');
    expect(read.indexOf('We signed')).toBeLessThan(read.indexOf('only bid'));
  });

  it('sets a Chinese quote and speaker in the system CJK font, read back with its citation', async () => {
    // As in pdf-export.test: the CI machine installs fonts-noto-cjk.
    expect(systemCjkFonts(), 'no CJK font: apt install fonts-noto-cjk').not.toBeNull();
    const story = ferryStory();
    story.items = [storyQuote(1, { text: '我们明天投票。', speakerName: '王小明' })];
    const { bytes, warnings } = await renderStory(story, 'pdf', utc);
    expect(warnings).toEqual([]);
    const read = (await readBack('pdf', bytes)).replace(/\s+/g, ' ');
    expect(read).toContain(
      '“我们明天投票。” — 王小明, “Interview about the ferry contract”, Mar 14, 2025, 00:12:31, not checked against the audio',
    );
  });

  it('warns when Chinese has no font on this computer, and still makes the PDF', async () => {
    const story = ferryStory();
    story.items.push(storyQuote(9, { text: '我们签了合同。' }));
    const { bytes, warnings } = await renderStory(story, 'pdf', utc, { cjkFonts: null });
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
    expect(warnings[0]).toContain('Chinese, Japanese or Korean text shows as empty boxes');
  });
});

function failure(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: simulated`), { code });
}

/** The real file system, except that the disk fills up after the first five bytes. */
const diskFullAfterFiveBytes: AtomicWriteOps = {
  mkdir,
  rm,
  rename,
  open: async (path, flags) => {
    const handle = await open(path, flags);
    return {
      writeFile: async (data) => {
        await handle.writeFile(typeof data === 'string' ? data.slice(0, 5) : data.subarray(0, 5));
        throw failure('ENOSPC');
      },
      sync: () => handle.sync(),
      close: () => handle.close(),
    };
  },
};

describe('saving a story', () => {
  it('writes each format whole to the path', async () => {
    for (const format of ['docx', 'pdf', 'md', 'txt'] as const) {
      const path = join(root, `story.${format}`);
      const result = await exportStory(ferryStory(), { format, path, replace: false, options: utc });
      expect(result.path).toBe(path);
      expect(await readBack(format, readFileSync(path))).toContain('Ferry contract story');
    }
  });

  it('leaves the earlier file and no half-written file when the disk fills up', async () => {
    const dir = join(root, 'full');
    await mkdir(dir);
    const path = join(dir, 'story.docx');
    writeFileSync(path, 'the earlier export');
    const error = await exportStory(
      ferryStory(),
      { format: 'docx', path, replace: true, options: utc },
      { ops: diskFullAfterFiveBytes },
    ).catch((e: unknown) => e);
    expect((error as VerbatimError).code).toBe('storage');
    expect((error as VerbatimError).message).toContain('not enough space');
    expect(readdirSync(dir)).toEqual(['story.docx']);
    expect(readFileSync(path, 'utf8')).toBe('the earlier export');
  });

  it('refuses to replace a file unless told to', async () => {
    const path = join(root, 'kept.txt');
    writeFileSync(path, 'kept');
    const error = await exportStory(ferryStory(), { format: 'txt', path, replace: false }).catch(
      (e: unknown) => e,
    );
    expect((error as VerbatimError).code).toBe('conflict');
    expect(readFileSync(path, 'utf8')).toBe('kept');
  });
});
