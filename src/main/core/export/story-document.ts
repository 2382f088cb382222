import {
  formatCitation,
  recordedByText,
  sourceGone,
  sourceGoneNote,
  timeInRecording,
} from '../../../shared/citation';
import { formatDay } from '../../../shared/display-format';
import type { Story, StoryItem } from '../../../shared/highlights';
import { inQuotationMarks } from '../../../shared/quotation-marks';
import type { StoryExportOptions } from '../../../shared/story-export-options';
import type { DocBlock, DocModel } from './document-model';

/**
 * A story as the one document tree (document-model.ts): the title, then the items in order as
 * headings, the journalist's paragraphs and quotes with their citations, then optionally the
 * sources. DOCX, PDF, Markdown and plain text all render this, so they cannot disagree on what a
 * story says.
 *
 * The journalist's text: a line starting with "# " is a heading (the rest of the line); blank
 * lines separate paragraphs; other lines next to each other are one paragraph, joined by a
 * space, as Markdown reads them. Only "# " is a heading, so a line like "#1 priority" stays text.
 */

type QuoteItem = Extract<StoryItem, { kind: 'quote' }>;

/** Shown beside a quote whose words were deleted, so it is never exported as if still said. */
export const missingQuoteNote = '[words deleted in the transcript]';

interface StorySource {
  title: string;
  date: string;
  /** The quotes' start times in the recording, in story order, each once. */
  times: string[];
  /** The transcript was deleted from the library; its quotes were kept as text. */
  gone: boolean;
  /** "recorded by ana, City desk" for a copy kept from the newsroom, else null. */
  recordedBy: string | null;
}

/** The journalist's text as headings and paragraphs, by the rule above. */
export function textBlocks(text: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  let lines: string[] = [];
  const flush = (): void => {
    if (lines.length > 0) blocks.push({ kind: 'paragraph', text: lines.join(' ') });
    lines = [];
  };
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    if (line === '') flush();
    else if (raw.startsWith('# ') && line.slice(2).trim() !== '') {
      flush();
      blocks.push({ kind: 'heading', text: line.slice(2).trim() });
    } else lines.push(line);
  }
  flush();
  return blocks;
}

function noteFor(item: QuoteItem): string | null {
  return item.missing && !sourceGone(item) ? missingQuoteNote : null;
}

function sourcesOf(quotes: QuoteItem[], timeZone?: string): StorySource[] {
  const byTranscript = new Map<string, StorySource>();
  for (const q of quotes) {
    // A quote kept as text after its transcript was deleted has no id; its title and date still name it.
    const key = q.transcriptId ?? `deleted:${q.transcriptTitle}:${q.recordedAt}`;
    let source = byTranscript.get(key);
    if (!source) {
      source = {
        title: q.transcriptTitle,
        date: formatDay(q.recordedAt, timeZone),
        times: [],
        gone: sourceGone(q),
        recordedBy: q.recordedBy ? recordedByText(q.recordedBy.reporter, q.recordedBy.desk) : null,
      };
      byTranscript.set(key, source);
    }
    const time = timeInRecording(q.startMs);
    if (!source.times.includes(time)) source.times.push(time);
  }
  return [...byTranscript.values()];
}

/**
 * `“words” [note]`: the quotation as every format prints it, in the marks of its transcript's
 * language, the note outside them.
 */
function quotation(item: QuoteItem): string {
  const text = item.text.trim();
  const words = text === '' ? '' : inQuotationMarks(text, item.languageCode);
  return [words, noteFor(item)].filter((part): part is string => !!part).join(' ');
}

export function storyDocument(story: Story, options: StoryExportOptions): DocModel {
  const blocks: DocBlock[] = [];
  const quotes: QuoteItem[] = [];
  for (const item of story.items) {
    if (item.kind === 'text') {
      blocks.push(...textBlocks(item.text));
      continue;
    }
    quotes.push(item);
    blocks.push({
      kind: 'quote',
      text: quotation(item),
      citation: formatCitation(item, options.citation, options.timeZone),
    });
  }
  if (options.sourceList && quotes.length > 0) {
    blocks.push(
      { kind: 'section', title: 'Sources' },
      {
        kind: 'list',
        items: sourcesOf(quotes, options.timeZone).map((s) => ({ label: null, text: sourceLine(s) })),
      },
    );
  }
  return { title: story.name, head: { title: story.name, fields: [] }, blocks };
}

/** “Interview about the ferry contract”, Mar 14, 2025: quotes at 00:12:31, 00:15:02 */
function sourceLine(source: StorySource): string {
  const quoteWord = source.times.length === 1 ? 'quote at' : 'quotes at';
  // The list is written in the app's language, so a title is quoted as English quotes it.
  const recorded = source.recordedBy ? `, ${source.recordedBy}` : '';
  const line = `${inQuotationMarks(source.title, 'en')}, ${source.date}${recorded}: ${quoteWord} ${source.times.join(', ')}`;
  return source.gone ? `${line} ${sourceGoneNote}` : line;
}
