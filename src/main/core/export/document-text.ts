import type { DocBlock, DocField, DocListItem, DocModel } from './document-model';

/**
 * The document tree (document-model.ts) as Markdown or plain text, one renderer with two
 * spellings: Markdown escapes what it would read as formatting; plain text writes names and
 * headings in capitals, the newsroom convention, since it has no bold.
 */
interface Spelling {
  escape: (s: string) => string;
  head: (title: string, fields: DocField[]) => string[];
  speaker: (name: string) => string;
  heading: (t: string) => string[];
  part: string[];
  section: (t: string) => string[];
  quote: (text: string, citation: string) => string[];
  listItem: (item: DocListItem) => string;
}

/** Escapes the characters Markdown would read as formatting, so quotes render as spoken. */
export function escapeMarkdown(s: string): string {
  // Headings and list markers only mean something at the start of a line, so only escape them there.
  return s.replace(/([\\`*_[\]<>])/g, '\\$1').replace(/^(\s*)(#|[-+]|\d+\.)(?=\s|#|$)/gm, '$1\\$2');
}

const markdown: Spelling = {
  escape: escapeMarkdown,
  head: (title, fields) => [
    `# ${escapeMarkdown(title)}`,
    '',
    ...fields.map(
      (f) =>
        `- **${f.label}:** ${typeof f.value === 'string' ? escapeMarkdown(f.value) : `${f.value.from}–${f.value.to}`}`,
    ),
    ...(fields.length > 0 ? [''] : []),
  ],
  speaker: (name) => `**${escapeMarkdown(name)}:**`,
  heading: (t) => [`## ${escapeMarkdown(t)}`, ''],
  part: ['---', ''],
  section: (t) => [`## ${escapeMarkdown(t)}`, ''],
  quote: (text, citation) => [`> ${escapeMarkdown(text)}`, '>', `> — ${escapeMarkdown(citation)}`, ''],
  listItem: (item) =>
    item.label === null
      ? `- ${escapeMarkdown(item.text)}`
      : `- ${escapeMarkdown(item.text)} (${escapeMarkdown(item.label)})`,
};

const same = (s: string): string => s;

const plainText: Spelling = {
  escape: same,
  head: (title, fields) => [
    title,
    ...fields.map(
      (f) => `${f.label}: ${typeof f.value === 'string' ? f.value : `${f.value.from}-${f.value.to}`}`,
    ),
    '',
  ],
  speaker: (name) => `${name.toLocaleUpperCase()}:`,
  heading: (t) => [t.toLocaleUpperCase(), ''],
  part: [],
  // A section's title sits right above its lines, as a label.
  section: (t) => [t.toLocaleUpperCase()],
  quote: (text, citation) => [`${text} — ${citation}`, ''],
  listItem: (item) => (item.label === null ? `- ${item.text}` : `- ${item.text} (${item.label})`),
};

function blockLines(b: DocBlock, sp: Spelling): string[] {
  switch (b.kind) {
    case 'heading':
      return sp.heading(b.text);
    case 'paragraph':
      return [sp.escape(b.text), ''];
    case 'speech': {
      const prefix: string[] = [];
      if (b.stamp !== null) prefix.push(b.stamp);
      if (b.speaker) prefix.push(sp.speaker(b.speaker));
      // Each sentence is escaped on its own, as it was said on its own.
      const body = b.pieces.map((p) =>
        p.stamp === null ? sp.escape(p.text) : `${p.stamp} ${sp.escape(p.text)}`,
      );
      return [[...prefix, body.join(' ')].join(' '), ''];
    }
    case 'quote':
      return sp.quote(b.text, b.citation);
    case 'part':
      return sp.part;
    case 'section':
      return sp.section(b.title);
    case 'list':
      return [...b.items.map(sp.listItem), ''];
  }
}

function render(d: DocModel, sp: Spelling): string {
  const out: string[] = [];
  if (d.head) out.push(...sp.head(d.head.title, d.head.fields));
  for (const b of d.blocks) out.push(...blockLines(b, sp));
  return out.join('\n').replace(/\n+$/, '\n');
}

export function documentToMarkdown(d: DocModel): string {
  return render(d, markdown);
}

/** Plain text: headings in capitals, the newsroom convention, since plain text has no bold. */
export function documentToPlainText(d: DocModel): string {
  return render(d, plainText);
}
