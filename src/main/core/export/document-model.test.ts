import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DocBlock, type DocModel, fieldText } from './document-model';
import { documentToDocx } from './docx-export';
import { documentToMarkdown, documentToPlainText } from './document-text';
import { documentToPdf } from './pdf-export';
import { readBack } from './read-back.test-kit';

/**
 * The one document tree, rendered by each format, must carry the same words in the same order:
 * no renderer may drop, add or reorder a word a reporter wrote or a speaker said.
 *
 * The words of the document are made of consonants only, so that each format's own words
 * ("Page 1 of 2", "Appendix", the bullets, the stamps) are told apart from them when read back.
 * List labels and the part title are in vowels: each format places a label by its convention
 * ("person: Maria" in Word and PDF, "Maria (person)" in text), and plain text has no part title.
 */
const consonants = 'bcdfghjklmnpqrstvwxz'.split('');
const word = fc
  .array(fc.constantFrom(...consonants), { minLength: 3, maxLength: 7 })
  .map((cs) => cs.join(''));
const words = fc.array(word, { minLength: 1, maxLength: 6 }).map((ws) => ws.join(' '));
const convention = fc
  .array(fc.constantFrom('a', 'e', 'i', 'o', 'u'), { minLength: 2, maxLength: 5 })
  .map((cs) => cs.join(''));
const stamp = fc.nat(359_999).map((s) => {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `[${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}]`;
});

const block: fc.Arbitrary<DocBlock> = fc.oneof(
  fc.record({ kind: fc.constant('heading' as const), text: words }),
  fc.record({ kind: fc.constant('paragraph' as const), text: words }),
  fc.record({
    kind: fc.constant('speech' as const),
    speaker: fc.option(words),
    stamp: fc.option(stamp),
    pieces: fc.array(fc.record({ stamp: fc.option(stamp), text: words }), { minLength: 1, maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant('quote' as const), text: words, citation: words }),
  fc.record({ kind: fc.constant('part' as const), title: convention }),
  fc.record({ kind: fc.constant('section' as const), title: words }),
  fc.record({
    kind: fc.constant('list' as const),
    items: fc.array(fc.record({ label: fc.option(convention), text: words }), { minLength: 1, maxLength: 3 }),
  }),
);

const documentModel: fc.Arbitrary<DocModel> = fc
  .record({
    title: words,
    head: fc.option(
      fc.record({
        fields: fc.array(fc.record({ label: word, value: words }), { maxLength: 3 }),
      }),
    ),
    blocks: fc.array(block, { maxLength: 8 }),
  })
  .map(({ title, head, blocks }) => ({
    title,
    head: head ? { title, fields: head.fields } : null,
    blocks,
  }));

/** The document's own words, in the order a reader meets them. */
function modelWords(d: DocModel): string[] {
  const texts: string[] = [];
  if (d.head) texts.push(d.head.title, ...d.head.fields.flatMap((f) => [f.label, fieldText(f)]));
  for (const b of d.blocks) {
    if (b.kind === 'heading' || b.kind === 'paragraph') texts.push(b.text);
    else if (b.kind === 'speech') texts.push(b.speaker ?? '', ...b.pieces.map((p) => p.text));
    else if (b.kind === 'quote') texts.push(b.text, b.citation);
    else if (b.kind === 'section') texts.push(b.title);
    else if (b.kind === 'list') texts.push(...b.items.map((i) => i.text));
  }
  return texts.flatMap((t) => t.split(' ')).filter((w) => w !== '');
}

const isDocumentWord = (w: string): boolean => w.length >= 3 && [...w].every((c) => consonants.includes(c));

/** The consonant-only words of a rendering, lower-cased (plain text writes headings in capitals). */
function renderedWords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z]+/g) ?? []).filter(isDocumentWord);
}

describe('one document model', () => {
  it('Word, PDF, Markdown and plain text carry the same words in the same order', async () => {
    await fc.assert(
      fc.asyncProperty(documentModel, async (d) => {
        const expected = modelWords(d);
        const docx = await readBack('docx', await documentToDocx(d));
        const pdf = await readBack('pdf', await documentToPdf(d, null));
        expect(renderedWords(docx)).toEqual(expected);
        expect(renderedWords(pdf)).toEqual(expected);
        expect(renderedWords(documentToMarkdown(d))).toEqual(expected);
        expect(renderedWords(documentToPlainText(d))).toEqual(expected);
      }),
      { numRuns: 20 },
    );
  }, 120_000);
});
