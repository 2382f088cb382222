import type { SnippetPart } from '../../../shared/library';
import type { MatchSpan } from '../../../shared/newsroom-search';

/**
 * A newsroom hit's sentence cut at the spans main marked (issue #35): every character of the
 * sentence in order, exactly once, the marked ones flagged. Spans outside the sentence, empty or
 * overlapping are clipped rather than trusted, so the quote is never altered or widened.
 */
export function markedParts(text: string, spans: readonly MatchSpan[]): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let at = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    const start = Math.max(at, Math.min(span.start, text.length));
    const end = Math.max(start, Math.min(span.end, text.length));
    if (end === start) continue;
    if (start > at) parts.push({ text: text.slice(at, start), match: false });
    parts.push({ text: text.slice(start, end), match: true });
    at = end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), match: false });
  return parts;
}

/** "recorded by ben, City desk", as a hit and the read-only reader's banner name who recorded it. */
export { recordedByText as recordedBy } from '../../../shared/citation';
