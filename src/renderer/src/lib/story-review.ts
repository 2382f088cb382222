import type { Story } from '../../../shared/highlights';
import { wordIndicesInSpan } from './highlight-logic';
import type { ReaderModel } from './reader-model';
import {
  quoteNumberOf,
  type QuoteApproval,
  type SharedStory,
  type StoryComment,
  type StoryShare,
} from '../../../shared/story-review';

/**
 * What the window shows of a story under review (issue #36, point 2), worked out from the shared
 * story as the library last read it: its comments gathered into threads at their quotes and
 * passages, each quote's approval, and where a transcript's words are quoted in a shared story.
 */

/** A comment and the replies that answer it, oldest first; `number` is its place in `story comments`. */
export interface CommentThread {
  comment: StoryComment;
  number: number;
  replies: StoryComment[];
  /** Resolved: by whom is on the comment. */
  resolved: boolean;
}

/** The comment a reply answers at the top of its chain (replies to replies belong to the first). */
function rootOf(comment: StoryComment, byId: ReadonlyMap<string, StoryComment>): StoryComment {
  let at = comment;
  const seen = new Set<string>();
  while (at.replyTo !== null && !seen.has(at.id)) {
    seen.add(at.id);
    const parent = byId.get(at.replyTo);
    if (!parent) break;
    at = parent;
  }
  return at;
}

/** Every thread of the story, in the order their first comments were written. */
export function commentThreads(story: Pick<SharedStory, 'comments'>): CommentThread[] {
  const byId = new Map(story.comments.map((comment) => [comment.id, comment]));
  const threads = new Map<string, CommentThread>();
  story.comments.forEach((comment, index) => {
    const root = rootOf(comment, byId);
    if (root === comment)
      threads.set(comment.id, {
        comment,
        number: index + 1,
        replies: [],
        resolved: comment.resolvedBy !== null,
      });
  });
  for (const comment of story.comments) {
    const root = rootOf(comment, byId);
    if (root !== comment) threads.get(root.id)?.replies.push(comment);
  }
  return [...threads.values()];
}

/** The threads about one quote. */
export function threadsAtQuote(threads: readonly CommentThread[], quoteKey: string): CommentThread[] {
  return threads.filter(
    (thread) => thread.comment.anchor.kind === 'quote' && thread.comment.anchor.quoteKey === quoteKey,
  );
}

/** The threads about passages of one text item. */
export function threadsAtPassage(threads: readonly CommentThread[], itemKey: string): CommentThread[] {
  return threads.filter(
    (thread) => thread.comment.anchor.kind === 'passage' && thread.comment.anchor.itemKey === itemKey,
  );
}

export function openThreadCount(threads: readonly CommentThread[]): number {
  return threads.filter((thread) => !thread.resolved).length;
}

/** The quote's approval while it stands (a withdrawn one is none). */
export function standingApproval(
  approvals: readonly QuoteApproval[],
  quoteKey: string,
): QuoteApproval | undefined {
  return approvals.find((approval) => approval.quoteKey === quoteKey && !approval.withdrawn);
}

/** A piece of a text item: plain, or the words a passage comment is about. */
export interface TextPiece {
  text: string;
  /** The number of the first thread about these words, when they are commented. */
  thread?: number;
}

/**
 * The item's text cut where passages are commented, so their words can be marked. A passage whose
 * offsets no longer fit the text (the reporter rewrote it) is left unmarked: its thread still
 * shows, with the words it was about.
 */
export function piecesOfText(text: string, threads: readonly CommentThread[]): TextPiece[] {
  const spans = threads
    .map((thread) => ({ anchor: thread.comment.anchor, number: thread.number }))
    .flatMap(({ anchor, number }) =>
      anchor.kind === 'passage' &&
      anchor.from < anchor.to &&
      anchor.to <= text.length &&
      text.slice(anchor.from, anchor.to) === anchor.words
        ? [{ from: anchor.from, to: anchor.to, number }]
        : [],
    )
    .sort((a, b) => a.from - b.from || a.to - b.to);
  const pieces: TextPiece[] = [];
  let at = 0;
  for (const span of spans) {
    if (span.from < at) continue; // Overlapping passages: the first keeps its words marked.
    if (span.from > at) pieces.push({ text: text.slice(at, span.from) });
    pieces.push({ text: text.slice(span.from, span.to), thread: span.number });
    at = span.to;
  }
  if (at < text.length || pieces.length === 0) pieces.push({ text: text.slice(at) });
  return pieces;
}

/** The selected passage of a text item, as a comment anchors it (offsets into the item's text). */
export function passageOf(
  text: string,
  from: number,
  to: number,
): { from: number; to: number; words: string } | undefined {
  let start = Math.max(0, Math.min(from, to));
  let end = Math.min(text.length, Math.max(from, to));
  // The spaces around a selection are not part of what it points at.
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  if (start === end) return undefined;
  return { from: start, to: end, words: text.slice(start, end).slice(0, 2000) };
}

/** Where a story of the reporter's stands with the newsroom, in a few words. */
export function shareStateText(share: StoryShare): string {
  if (share.error) return `Not shared: ${share.error}`;
  if (share.revisionSent === 0) return `Waiting to be sent to ${share.desk}’s editor`;
  if (share.revisionSent < share.revisionAsked)
    return `Shared with ${share.desk}’s editor (revision ${share.revisionSent}); revision ${share.revisionAsked} waits to be sent`;
  return `Shared with ${share.desk}’s editor · revision ${share.revisionSent}`;
}

/** A transcript's words quoted in a shared story of the reporter's, with what was said about them. */
export interface QuotedHere {
  storyKey: string;
  storyTitle: string;
  /** The quote's number in the shared story (from 1). */
  quote: number;
  highlightId: number | null;
  startMs: number;
  endMs: number;
  threads: CommentThread[];
  approval: QuoteApproval | undefined;
}

/**
 * The quotes of one transcript in a shared story, matched through the reporter's own story (the
 * shared quote's key is its item id there): what the reader shows at those words.
 */
export function quotedInTranscript(transcriptId: string, own: Story, shared: SharedStory): QuotedHere[] {
  const threads = commentThreads(shared);
  return own.items.flatMap((item) => {
    if (item.kind !== 'quote' || item.transcriptId !== transcriptId) return [];
    const quote = quoteNumberOf(shared.items, String(item.id));
    if (quote === undefined) return [];
    return [
      {
        storyKey: shared.key,
        storyTitle: shared.title,
        quote,
        highlightId: item.highlightId,
        startMs: item.startMs,
        endMs: item.endMs,
        threads: threadsAtQuote(threads, String(item.id)),
        approval: standingApproval(shared.approvals, String(item.id)),
      },
    ];
  });
}

/** What the reader says at a turn whose words a shared story quotes, about that quote's review. */
export interface TurnReview {
  /** Comment threads about the quotes starting in this turn, and how many are still open. */
  threads: number;
  open: number;
  /** The first such quote's highlight, which the Highlights panel shows the threads under. */
  highlightId: number | null;
}

/**
 * Per turn of the reader, the review of the quotes whose words start in it (issue #36: the
 * reporter sees the comments "in the reader at the quoted words"); turns with no comments about
 * them are absent. A quote whose words are no longer in the transcript marks nothing.
 */
export function reviewByTurn(model: ReaderModel, quoted: readonly QuotedHere[]): Map<number, TurnReview> {
  const byTurn = new Map<number, TurnReview>();
  for (const quote of quoted) {
    if (quote.threads.length === 0) continue;
    const [first] = wordIndicesInSpan(model, quote.startMs, quote.endMs);
    const turn = first === undefined ? undefined : model.turnOf[first];
    if (turn === undefined) continue;
    const known = byTurn.get(turn);
    byTurn.set(turn, {
      threads: (known?.threads ?? 0) + quote.threads.length,
      open: (known?.open ?? 0) + openThreadCount(quote.threads),
      highlightId: known ? known.highlightId : quote.highlightId,
    });
  }
  return byTurn;
}

/** "1 open comment", "2 comments, resolved": the marker's words. */
export function turnReviewText(review: TurnReview): string {
  if (review.open > 0) return `${review.open} open comment${review.open === 1 ? '' : 's'}`;
  return `${review.threads} comment${review.threads === 1 ? '' : 's'}, resolved`;
}
