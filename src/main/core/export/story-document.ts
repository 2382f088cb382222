import { formatCitation, sourceGone, sourceGoneNote, timeInRecording } from '../../../shared/citation';
import { formatDay } from '../../../shared/display-format';
import type { Story, StoryItem } from '../../../shared/highlights';
import { inQuotationMarks } from '../../../shared/quotation-marks';
import type { StoryExportOptions } from '../../../shared/story-export-options';

/**
 * The layout every story format shares: the title, then the items in order as headings, the
 * journalist's paragraphs and quotes with their citations, then optionally the sources. DOCX,
 * PDF, Markdown and plain text all walk this, so they cannot disagree on what a story says.
 *
 * The journalist's text: a line starting with "# " is a heading (the rest of the line); blank
 * lines separate paragraphs; other lines next to each other are one paragraph, joined by a
 * space, as Markdown reads them. Only "# " is a heading, so a line like "#1 priority" stays text.
 */

type QuoteItem = Extract<StoryItem, { kind: 'quote' }>;

/** Shown beside a quote whose words were deleted, so it is never exported as if still said. */
export const missingQuoteNote = '[words deleted in the transcript]';

export type StoryBlock =
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; text: string }
  | {
      kind: 'quote';
      /** The words as they read now (or last read), without quotation marks. */
      text: string;
      /** The transcript's language: the quotation marks the words are printed in. */
      languageCode: string | null;
      /** The visible note for a quote whose words were deleted, or null. */
      note: string | null;
      /** The citation without its leading dash, saying so when the recording is gone. */
      citation: string;
    };

export interface StorySource {
  title: string;
  date: string;
  /** The quotes' start times in the recording, in story order, each once. */
  times: string[];
  /** The transcript was deleted from the library; its quotes were kept as text. */
  gone: boolean;
}

export interface StoryDocument {
  title: string;
  blocks: StoryBlock[];
  /** Null when the source list is off or the story has no quotes. */
  sources: StorySource[] | null;
}

/** The journalist's text as headings and paragraphs, by the rule above. */
export function textBlocks(text: string): StoryBlock[] {
  const blocks: StoryBlock[] = [];
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
      };
      byTranscript.set(key, source);
    }
    const time = timeInRecording(q.startMs);
    if (!source.times.includes(time)) source.times.push(time);
  }
  return [...byTranscript.values()];
}

export function storyDocument(story: Story, options: StoryExportOptions): StoryDocument {
  const blocks: StoryBlock[] = [];
  const quotes: QuoteItem[] = [];
  for (const item of story.items) {
    if (item.kind === 'text') {
      blocks.push(...textBlocks(item.text));
      continue;
    }
    quotes.push(item);
    blocks.push({
      kind: 'quote',
      text: item.text.trim(),
      languageCode: item.languageCode,
      note: noteFor(item),
      citation: formatCitation(item, options.citation, options.timeZone),
    });
  }
  const sources = options.sourceList && quotes.length > 0 ? sourcesOf(quotes, options.timeZone) : null;
  return { title: story.name, blocks, sources };
}

/**
 * `“words” [note]`: the quotation as every format prints it, in the marks of its transcript's
 * language, the note outside them.
 */
export function quotation(block: Extract<StoryBlock, { kind: 'quote' }>): string {
  const words = block.text === '' ? '' : inQuotationMarks(block.text, block.languageCode);
  return [words, block.note].filter((part): part is string => !!part).join(' ');
}

/** “Interview about the ferry contract”, Mar 14, 2025: quotes at 00:12:31, 00:15:02 */
export function sourceLine(source: StorySource): string {
  const quoteWord = source.times.length === 1 ? 'quote at' : 'quotes at';
  // The list is written in the app's language, so a title is quoted as English quotes it.
  const line = `${inQuotationMarks(source.title, 'en')}, ${source.date}: ${quoteWord} ${source.times.join(', ')}`;
  return source.gone ? `${line} ${sourceGoneNote}` : line;
}
