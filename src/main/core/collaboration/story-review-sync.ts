import { createHash } from 'node:crypto';
import { VerbatimError } from '../../../shared/errors';
import { formatCitation } from '../../../shared/citation';
import type { Story } from '../../../shared/highlights';
import { quoteNumberOf, type ReviewSyncOutcome, type SharedStoryItem } from '../../../shared/story-review';
import { checkRecording, type RecordingLookup } from '../export/story-clips';
import { cutWav } from '../export/wav-clip';
import type { Library } from '../library/library';
import type { ReviewNews, StoredShare } from '../library/story-review-store';
import { newsroomAddressText, type NewsroomAddress } from '../newsroom/newsroom-address';
import type { NewsroomConnection } from '../newsroom/newsroom-connection';
import {
  firstReviewCursor,
  pullStoryReview,
  putSharedClip,
  removeSharedClips,
  resolveComment,
  sendApproval,
  sendComment,
  shareStory,
  sharedClipSpans,
} from '../newsroom/shared-stories';
import type { CollaborationNotice, CollaborationNoticeSink } from './collaboration-notice';

/**
 * Keeps stories an editor reviews in step with the newsroom (issue #36, point 2): one run sends
 * what waits here — the stories shared (again as their next revision when they changed since),
 * with each quote's sound; comments and replies, resolves, approvals — then reads what changed
 * there since the last run, and tells the sink what others did. Everything sent is idempotent
 * (comment ids made here, revisions, the times users acted), so a run killed halfway, or two
 * processes of one user running at once, send it again to no effect. It is the `sync` a
 * SyncLoop runs; a newsroom that cannot be reached throws a VerbatimError 'network'/'timeout'.
 */

/** Who is reviewing, and in which newsroom: the user's login and the newsroom's address with it. */
export interface Reviewer {
  newsroom: string;
  me: string;
}

export function reviewerOf(address: NewsroomAddress): Reviewer {
  return { newsroom: newsroomAddressText(address), me: address.user };
}

export interface StoryReviewSyncOptions {
  library: Library;
  /** The newsroom of the user, as the reader or the CLI holds it. */
  newsroom: <T>(work: (newsroom: NewsroomConnection) => Promise<T>) => Promise<T>;
  reviewer: Reviewer;
  /** Where quotes' recordings are, to cut each one's sound; without it no sound is shared. */
  findRecording?: RecordingLookup;
  sink?: CollaborationNoticeSink;
  /** The citations' day is the recording's, in this time zone (the machine's unless given). */
  timeZone?: string;
}

/** What one run did that the user should hear of: what the newsroom refused, in sentences. */
export interface StoryReviewSyncReport {
  refused: string[];
}

export interface StoryReviewSync {
  sync(): Promise<StoryReviewSyncReport>;
}

export function createStoryReviewSync(options: StoryReviewSyncOptions): StoryReviewSync {
  const { library, reviewer } = options;
  const { newsroom: where, me } = reviewer;
  return {
    sync: () =>
      options.newsroom(async (newsroom) => {
        const refused: string[] = [];
        for (const share of await library.reviews((store) => store.shares(where)))
          await sendShare(newsroom, share, refused);
        await sendComments(newsroom, refused);
        await sendResolves(newsroom);
        await sendApprovals(newsroom, refused);
        await pull(newsroom);
        return { refused };
      }),
  };

  async function sendShare(
    newsroom: NewsroomConnection,
    share: StoredShare,
    refused: string[],
  ): Promise<void> {
    if (share.error !== null) return;
    // A story deleted here after it was shared stays shared as it was.
    const story = await library.story(share.storyId).catch(() => undefined);
    if (!story) return;
    const items = sharedItemsOf(story, me, options.timeZone);
    const digest = digestOf(story.name, share.desk, items);
    let asked = share;
    if (asked.revisionAsked <= asked.revisionSent) {
      if (digest === share.sentDigest) return;
      asked = await library.reviews((store) => store.askNextRevision(where, share.storyId));
    }
    try {
      await shareStory(newsroom, {
        storyId: story.id,
        desk: asked.desk,
        title: story.name,
        revision: asked.revisionAsked,
        items,
      });
    } catch (error) {
      if (error instanceof VerbatimError && (error.code === 'forbidden' || error.code === 'not_found')) {
        await library.reviews((store) => store.shareRefused(where, share.storyId, error.message));
        refused.push(`“${story.name}” was not shared: ${error.message}`);
        return;
      }
      throw error;
    }
    await sendClips(newsroom, story, items);
    await library.reviews((store) => store.shareSent(where, share.storyId, asked.revisionAsked, digest));
  }

  /** Each quote's sound, sent when the newsroom has none of its words yet; those of removed quotes go. */
  async function sendClips(
    newsroom: NewsroomConnection,
    story: Story,
    items: SharedStoryItem[],
  ): Promise<void> {
    const held = await sharedClipSpans(newsroom, story.id);
    const wanted = new Map<string, { transcriptId: string; startMs: number; endMs: number }>();
    for (const item of story.items)
      if (item.kind === 'quote' && item.transcriptId !== null)
        wanted.set(String(item.id), {
          transcriptId: item.transcriptId,
          startMs: item.startMs,
          endMs: item.endMs,
        });
    const stale = [...held.keys()].filter(
      (key) => !items.some((item) => item.key === key && wanted.has(key)),
    );
    for (const [quoteKey, quote] of wanted) {
      const span = `${quote.transcriptId}:${quote.startMs}-${quote.endMs}`;
      if (held.get(quoteKey) === span) continue;
      const bytes = options.findRecording && (await cutQuote(options.findRecording, quote));
      if (bytes)
        await putSharedClip(newsroom, { storyId: story.id, quoteKey, span, mimeType: 'audio/wav', bytes });
      // The old sound is of other words: better none than a wrong one.
      else if (held.has(quoteKey)) stale.push(quoteKey);
    }
    await removeSharedClips(newsroom, story.id, stale);
  }

  async function sendComments(newsroom: NewsroomConnection, refused: string[]): Promise<void> {
    for (const comment of await library.reviews((store) => store.waitingComments(where))) {
      const story = parseKey(comment.storyKey);
      const stored = await sendComment(newsroom, {
        id: comment.id,
        reporter: story.reporter,
        storyId: story.storyId,
        anchor: comment.anchor,
        kind: comment.kind,
        body: comment.body,
        replyTo: comment.replyTo,
      });
      if (stored) await library.reviews((store) => store.store(where, { comments: [stored] }));
      else {
        await library.reviews((store) => store.dropComment(comment.id));
        refused.push(
          `Your comment on ${comment.storyKey} (“${comment.body}”) was not sent: that story is no longer shared with you.`,
        );
      }
    }
  }

  async function sendResolves(newsroom: NewsroomConnection): Promise<void> {
    for (const comment of await library.reviews((store) => store.waitingResolves(where))) {
      const stored = await resolveComment(newsroom, comment.id, comment.resolvedAt ?? Date.now());
      if (stored) await library.reviews((store) => store.store(where, { comments: [stored] }));
    }
  }

  async function sendApprovals(newsroom: NewsroomConnection, refused: string[]): Promise<void> {
    for (const approval of await library.reviews((store) => store.waitingApprovals(where))) {
      const story = parseKey(approval.storyKey);
      try {
        const stored = await sendApproval(newsroom, {
          reporter: story.reporter,
          storyId: story.storyId,
          quoteKey: approval.quoteKey,
          at: approval.at,
          withdrawn: approval.withdrawn,
        });
        await library.reviews((store) => store.store(where, { approvals: [stored] }));
      } catch (error) {
        if (!(error instanceof VerbatimError && error.code === 'forbidden')) throw error;
        await library.reviews((store) => store.dropApproval(where, approval.storyKey, approval.quoteKey));
        refused.push(`Your approval on ${approval.storyKey} was not sent: ${error.message}`);
      }
    }
  }

  async function pull(newsroom: NewsroomConnection): Promise<void> {
    const [cursor, known] = await library.reviews(
      (store) => [store.cursor(where) ?? firstReviewCursor, store.knownKeys(where)] as const,
    );
    const changes = await pullStoryReview(newsroom, cursor, known);
    const news = await library.reviews((store) => store.store(where, changes));
    if (options.sink) for (const notice of await noticesOf(news)) await options.sink(notice);
  }

  /** What others did, in sentences: never the user's own doing. */
  async function noticesOf(news: ReviewNews): Promise<CollaborationNotice[]> {
    const stories = new Map(
      (await library.reviews((store) => store.list(where, me))).map((story) => [story.key, story]),
    );
    const itemsOf = (key: string) => library.reviews((store) => store.get(where, me, key)?.items ?? []);
    const title = (key: string) => stories.get(key)?.title ?? key;
    const notices: CollaborationNotice[] = [];
    for (const story of news.stories)
      if (story.reporter !== me)
        notices.push({
          kind: 'story-shared',
          by: story.reporter,
          text: `${story.reporter} shared “${story.title}” with you for review.`,
          target: { kind: 'story', storyKey: story.key },
          key: `story-shared:${story.key}`,
          at: story.sharedAt,
        });
    for (const comment of news.comments) {
      if (comment.author === me) continue;
      const quote =
        comment.anchor.kind === 'quote'
          ? quoteNumberOf(await itemsOf(comment.storyKey), comment.anchor.quoteKey)
          : undefined;
      const about =
        quote === undefined
          ? `“${title(comment.storyKey)}”`
          : `quote ${quote} of “${title(comment.storyKey)}”`;
      const [kind, verb] =
        comment.replyTo !== null
          ? (['reply', 'replied on'] as const)
          : comment.kind === 'change-request'
            ? (['change-request', 'asked for a change to'] as const)
            : (['comment', 'commented on'] as const);
      notices.push({
        kind,
        by: comment.author,
        text: `${comment.author} ${verb} ${about}: “${comment.body}”`,
        target: { kind: 'story', storyKey: comment.storyKey, ...(quote === undefined ? {} : { quote }) },
        key: `comment:${comment.id}`,
        at: comment.createdAt,
      });
    }
    for (const comment of news.resolved)
      if (comment.resolvedBy !== null && comment.resolvedBy !== me)
        notices.push({
          kind: 'resolved',
          by: comment.resolvedBy,
          text: `${comment.resolvedBy} resolved the comment “${comment.body}” on “${title(comment.storyKey)}”.`,
          target: { kind: 'story', storyKey: comment.storyKey },
          key: `resolved:${comment.id}`,
          at: comment.resolvedAt ?? comment.createdAt,
        });
    for (const approval of news.approvals) {
      if (approval.by === me) continue;
      const quote = quoteNumberOf(await itemsOf(approval.storyKey), approval.quoteKey);
      const which = quote === undefined ? 'a quote' : `quote ${quote}`;
      notices.push({
        kind: 'approval',
        by: approval.by,
        text: approval.withdrawn
          ? `${approval.by} withdrew the approval of ${which} of “${title(approval.storyKey)}”.`
          : `${approval.by} approved ${which} of “${title(approval.storyKey)}”.`,
        target: { kind: 'story', storyKey: approval.storyKey, ...(quote === undefined ? {} : { quote }) },
        key: `approval:${approval.storyKey}:${approval.quoteKey}:${approval.at}:${approval.withdrawn}`,
        at: approval.at,
      });
    }
    return notices;
  }
}

function parseKey(key: string): { reporter: string; storyId: number } {
  const slash = key.indexOf('/');
  return { reporter: key.slice(0, slash), storyId: Number(key.slice(slash + 1)) };
}

/**
 * The story as shared: its text and its quotes with their source and citation, keyed by item id.
 * A quote checked against the audio says by whom (issue #36, point 3): the reporter's own stamps
 * name the reporter (`me`), since the editor reads them, a kept colleague's copy its colleague.
 */
export function sharedItemsOf(story: Story, me: string, timeZone?: string): SharedStoryItem[] {
  return story.items.map((item) => {
    if (item.kind === 'text') return { kind: 'text', key: String(item.id), text: item.text };
    const checked = item.checked ? { by: item.checked.by ?? me, at: item.checked.at } : null;
    return {
      kind: 'quote',
      key: String(item.id),
      text: item.text,
      speakerName: item.speakerName,
      transcriptTitle: item.transcriptTitle,
      recordedAt: item.recordedAt,
      languageCode: item.languageCode,
      startMs: item.startMs,
      endMs: item.endMs,
      citation: formatCitation({ ...item, checked }, undefined, timeZone),
      checked,
    };
  });
}

function digestOf(title: string, desk: string, items: readonly SharedStoryItem[]): string {
  return createHash('sha256').update(JSON.stringify({ title, desk, items })).digest('hex');
}

async function cutQuote(
  findRecording: RecordingLookup,
  quote: { transcriptId: string; startMs: number; endMs: number },
): Promise<Uint8Array | undefined> {
  const checked = await checkRecording(quote.transcriptId, findRecording);
  if (!checked.ok) return undefined;
  const { handle, layout, silence } = checked.recording;
  try {
    const lengthMs = (layout.frames * 1000) / layout.sampleRate;
    if (quote.startMs >= lengthMs || quote.endMs <= quote.startMs) return undefined;
    return await cutWav(handle, layout, quote.startMs, quote.endMs, silence);
  } finally {
    await handle.close();
  }
}

/** One run, as a command reports it: sent, or waiting because the newsroom could not be reached. */
export async function syncOnce(
  sync: StoryReviewSync,
): Promise<{ outcome: ReviewSyncOutcome; refused: string[] }> {
  try {
    const { refused } = await sync.sync();
    return { outcome: { state: 'sent' }, refused };
  } catch (error) {
    if (error instanceof VerbatimError && (error.code === 'network' || error.code === 'timeout'))
      return { outcome: { state: 'waiting', reason: error.message }, refused: [] };
    throw error;
  }
}
