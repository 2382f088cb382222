import { z } from 'zod';

/**
 * Whether a quote was checked against the audio (issue #36, point 3), shared by main (which
 * computes it for every quote and story item), the exports' citations and the renderer.
 *
 * A paragraph is the transcript's paragraph span: a moment belongs to the last paragraph that
 * starts at or before it, as the review pass and "revert this paragraph" decide, so a stamp
 * means the same words everywhere. A kept copy of a colleague's transcript has the colleague's
 * paragraphs, so their stamps mean the same words in it.
 */

/** Who checked a quote's words against the audio, and when the last of its paragraphs was stamped. */
export const quoteCheckSchema = z.object({
  /** The newsroom login of the colleague who checked it; null when it was this library's reporter. */
  by: z.string().nullable(),
  at: z.number().int(),
});
export type QuoteCheck = z.infer<typeof quoteCheckSchema>;

/** A paragraph's stamp as the check reads it: its paragraph (0-based), when, and by whom (null: you). */
export interface CheckStamp {
  paragraph: number;
  checkedAt: number;
  checkedBy: string | null;
}

/** The paragraph (0-based) a moment falls in, or -1 before the first one or without paragraphs. */
export function paragraphAt(paragraphs: readonly { startMs: number }[], ms: number): number {
  let low = 0;
  let high = paragraphs.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    if ((paragraphs[mid]?.startMs ?? 0) <= ms) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found;
}

/**
 * The paragraphs a quote's span touches, first and last (inclusive); null when it starts before
 * the first paragraph (words no paragraph holds, so no stamp can cover them). The span's end is
 * exclusive: a quote ending where the next paragraph starts does not touch it.
 */
export function paragraphsTouched(
  paragraphs: readonly { startMs: number }[],
  span: { startMs: number; endMs: number },
): { first: number; last: number } | null {
  const first = paragraphAt(paragraphs, span.startMs);
  if (first < 0) return null;
  return { first, last: paragraphAt(paragraphs, Math.max(span.startMs, span.endMs - 1)) };
}

/**
 * Whether the quote was checked: every paragraph it touches is stamped. Then its check is the
 * latest of those stamps (when the quote's words were last listened to, and by whom); else
 * null. A quote only partly checked is not checked: a quotation is printed whole, and a
 * citation saying "partly checked" would read as a verified quote to the editor who sees it, so
 * it says "not checked" until the reporter (or the colleague) has listened to every word of it.
 */
export function quoteCheck(
  span: { startMs: number; endMs: number },
  paragraphs: readonly { startMs: number }[],
  stamps: readonly CheckStamp[],
): QuoteCheck | null {
  const touched = paragraphsTouched(paragraphs, span);
  if (!touched || stamps.length === 0) return null;
  const byParagraph = new Map(stamps.map((stamp) => [stamp.paragraph, stamp]));
  let latest: CheckStamp | undefined;
  for (let paragraph = touched.first; paragraph <= touched.last; paragraph++) {
    const stamp = byParagraph.get(paragraph);
    if (!stamp) return null;
    if (!latest || stamp.checkedAt >= latest.checkedAt) latest = stamp;
  }
  return latest ? { by: latest.checkedBy, at: latest.checkedAt } : null;
}
