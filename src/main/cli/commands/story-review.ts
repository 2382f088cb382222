import { VerbatimError } from '../../../shared/errors';
import {
  quoteNumberOf,
  type ReviewSyncOutcome,
  type SharedStory,
  type StoryComment,
} from '../../../shared/story-review';
import { libraryRecordings } from '../../core/export/library-story-export';
import type { Library } from '../../core/library/library';
import { NewsroomConnection } from '../../core/newsroom/newsroom-connection';
import {
  approveLocally,
  commentLocally,
  commentNumbered,
  passageAnchorOf,
  quoteKeyOf,
  requireSharedStory,
  resolveLocally,
  shareStoryLocally,
  sharedStoryKeyOf,
} from '../../core/collaboration/story-review-actions';
import {
  createStoryReviewSync,
  reviewerOf,
  syncOnce,
  type Reviewer,
} from '../../core/collaboration/story-review-sync';
import { printResult } from '../cli-io';
import type { OptionValues } from '../cli-options';
import type { CommandContext } from '../command';
import { newsroomAccessOf } from '../environment';
import { UsageError } from '../usage-error';

/**
 * `story share|comment|comments|approve|resolve|reviews`: stories an editor reviews, from a
 * terminal (issue #36, point 5), as the user of VERBATIM_NEWSROOM_URL. Each writes to the library
 * first, then runs one sync and says whether it was sent or waits (and why): what waits is sent
 * by the next command or the app. A story is the user's own by id or name, or `reporter/id`.
 */
export const storyReviewOptions = {
  desk: { type: 'string', valueName: 'NAME', description: 'story share: the desk whose editor reviews it' },
  quote: {
    type: 'string',
    valueName: 'N',
    description: 'story comment, approve: the Nth quote of the story',
  },
  passage: {
    type: 'string',
    valueName: 'WORDS',
    description: "story comment: the words of the reporter's text the comment is about",
  },
  reply: { type: 'string', valueName: 'N', description: 'story comment: answers the Nth comment' },
  text: { type: 'string', valueName: 'WORDS', description: 'story comment: what the comment says' },
  change: { type: 'boolean', description: 'story comment: asks the reporter for a change' },
  comment: {
    type: 'string',
    valueName: 'N',
    description: 'story resolve: the Nth comment (as story comments numbers them)',
  },
  withdraw: { type: 'boolean', description: 'story approve: takes the approval of the quote back' },
} as const;

export const storyReviewUsages = [
  'share <story> --desk NAME [--json]',
  'comment <story> (--quote N | --passage WORDS | --reply N) --text WORDS [--change] [--json]',
  'comments <story> [--json]',
  'approve <story> --quote N [--withdraw] [--json]',
  'resolve <story> --comment N [--json]',
  'reviews [--json]',
] as const;

type Values = Partial<OptionValues<typeof storyReviewOptions>> & { json?: boolean | undefined };
type Context = Pick<CommandContext, 'io' | 'openLibrary'>;
type ReviewAction = (words: string[], values: Values, context: Context) => Promise<number>;

interface Session {
  library: Library;
  reviewer: Reviewer;
  /** One sync: sent, or waiting and why; what the newsroom refused is an error in its words. */
  sync(): Promise<ReviewSyncOutcome>;
}

async function withReview(context: Context, work: (session: Session) => Promise<number>): Promise<number> {
  const access = newsroomAccessOf(context.io.env);
  const { core } = context.openLibrary({ showProgress: false });
  const connection = new NewsroomConnection(access.address, access.password);
  const reviewer = reviewerOf(access.address);
  const sync = createStoryReviewSync({
    library: core.library,
    newsroom: (run) => run(connection),
    reviewer,
    findRecording: libraryRecordings(core.library, core.redactions),
  });
  try {
    return await work({
      library: core.library,
      reviewer,
      async sync() {
        const { outcome, refused } = await syncOnce(sync);
        if (refused.length > 0) throw new VerbatimError('forbidden', refused.join('\n'));
        return outcome;
      },
    });
  } finally {
    await connection.close();
  }
}

function sentOrWaiting(outcome: ReviewSyncOutcome): string {
  return outcome.state === 'sent'
    ? 'sent.'
    : `waits: ${outcome.reason.replace(/\.$/, '')}; it is sent by the next command or the app.`;
}

function numberOption(value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${option} takes a number from 1`);
  return Number(value);
}

function oneStory(words: string[], command: string): string {
  if (words.length !== 1 || !words[0])
    throw new UsageError(
      `story ${command} needs one story: its id or name, or reporter/id for a colleague's`,
    );
  return words[0];
}

/** The shared story, read from the newsroom first when this library has not seen it yet. */
async function sharedStory(session: Session, key: string): Promise<SharedStory> {
  const known = await session.library.reviews((store) =>
    store.get(session.reviewer.newsroom, session.reviewer.me, key),
  );
  if (!known) await session.sync();
  return requireSharedStory(session.library, session.reviewer, key);
}

function excerpt(text: string): string {
  const words = text.trim().split(/\s+/);
  return words.length > 8 ? `${words.slice(0, 8).join(' ')}…` : text.trim();
}

/** "quote 2 “We signed…”", "the passage “bid was rushed”", or "a quote no longer in the story". */
export function anchorText(story: SharedStory, comment: StoryComment): string {
  const { anchor } = comment;
  if (anchor.kind === 'passage') return `the passage “${anchor.words}”`;
  const number = quoteNumberOf(story.items, anchor.quoteKey);
  const quote = story.items.find((item) => item.key === anchor.quoteKey);
  return number === undefined || !quote
    ? 'a quote no longer in the story'
    : `quote ${number} “${excerpt(quote.text)}”`;
}

export function commentLines(story: SharedStory): string {
  const header = `Comments on “${story.title}” (${story.key}), revision ${story.revision}:`;
  if (story.comments.length === 0) return `No comments on “${story.title}” (${story.key}) yet.`;
  const numbers = new Map(story.comments.map((comment, index) => [comment.id, index + 1]));
  const line = (comment: StoryComment, indent: string): string => {
    const number = `${numbers.get(comment.id)}.`;
    const about =
      comment.replyTo !== null
        ? ''
        : comment.kind === 'change-request'
          ? ` asks for a change to ${anchorText(story, comment)}`
          : ` on ${anchorText(story, comment)}`;
    const state = [
      comment.resolvedBy !== null
        ? `resolved by ${comment.resolvedBy}`
        : comment.replyTo === null
          ? 'open'
          : '',
      comment.waiting ? 'not sent yet' : '',
    ].filter(Boolean);
    return `${indent}${number} ${comment.author}${about}: ${comment.body}${state.length > 0 ? `  (${state.join(', ')})` : ''}`;
  };
  const lines = [header];
  for (const comment of story.comments.filter((each) => each.replyTo === null)) {
    lines.push(line(comment, '  '));
    for (const reply of story.comments.filter((each) => each.replyTo === comment.id))
      lines.push(line(reply, '      '));
  }
  return lines.join('\n');
}

const actions: Record<string, ReviewAction> = {
  share: (words, values, context) => {
    const reference = oneStory(words, 'share');
    if (values.desk === undefined)
      throw new UsageError('story share needs --desk NAME: the desk whose editor reviews it');
    return withReview(context, async (session) => {
      const share = await shareStoryLocally(session.library, session.reviewer, reference, values.desk!);
      const outcome = await session.sync();
      const title = (await session.library.story(share.storyId)).name;
      printResult(
        context.io,
        values.json ?? false,
        { key: share.key, desk: share.desk, revision: share.revisionAsked, ...outcome },
        () =>
          `Shared “${title}” (${share.key}) with the editor of ${share.desk}, revision ${share.revisionAsked}: ${sentOrWaiting(outcome)}`,
      );
      return 0;
    });
  },

  comment: (words, values, context) => {
    const reference = oneStory(words, 'comment');
    const anchors = [values.quote, values.passage, values.reply].filter((each) => each !== undefined);
    if (anchors.length !== 1)
      throw new UsageError('story comment needs one of --quote N, --passage WORDS or --reply N');
    if (values.text === undefined)
      throw new UsageError('story comment needs --text WORDS: what the comment says');
    if (values.change && values.reply !== undefined)
      throw new UsageError('--change asks for a change in a comment of its own, not in a reply');
    return withReview(context, async (session) => {
      const key = await sharedStoryKeyOf(session.library, session.reviewer, reference);
      const story = await sharedStory(session, key);
      const quote = numberOption(values.quote, 'quote');
      const reply = numberOption(values.reply, 'reply');
      const written = await commentLocally(session.library, session.reviewer, {
        storyKey: key,
        anchor:
          quote !== undefined
            ? { kind: 'quote', quoteKey: quoteKeyOf(story, quote) }
            : values.passage !== undefined
              ? passageAnchorOf(story, values.passage)
              : undefined,
        replyTo: reply === undefined ? null : commentNumbered(story, reply).id,
        body: values.text!,
        kind: values.change ? 'change-request' : 'comment',
        at: Date.now(),
      });
      const outcome = await session.sync();
      const after = await requireSharedStory(session.library, session.reviewer, key);
      const number = after.comments.findIndex((comment) => comment.id === written.id) + 1;
      const what =
        reply !== undefined
          ? `Reply to comment ${reply}`
          : written.kind === 'change-request'
            ? 'Request for a change'
            : 'Comment';
      printResult(context.io, values.json ?? false, { ...written, number, ...outcome }, () =>
        reply !== undefined
          ? `${what} (comment ${number}) on “${after.title}” saved: ${sentOrWaiting(outcome)}`
          : `${what} ${number} on ${anchorText(after, written)} of “${after.title}” saved: ${sentOrWaiting(outcome)}`,
      );
      return 0;
    });
  },

  comments: (words, values, context) => {
    const reference = oneStory(words, 'comments');
    return withReview(context, async (session) => {
      const key = await sharedStoryKeyOf(session.library, session.reviewer, reference);
      const outcome = await session.sync();
      const story = await requireSharedStory(session.library, session.reviewer, key);
      printResult(context.io, values.json ?? false, { ...story, ...outcome }, () =>
        [
          commentLines(story),
          ...(outcome.state === 'waiting'
            ? [`(The newsroom could not be reached, so this is what this computer has: ${outcome.reason})`]
            : []),
        ].join('\n'),
      );
      return 0;
    });
  },

  approve: (words, values, context) => {
    const reference = oneStory(words, 'approve');
    const quote = numberOption(values.quote, 'quote');
    if (quote === undefined) throw new UsageError('story approve needs --quote N: the quote it approves');
    return withReview(context, async (session) => {
      const key = await sharedStoryKeyOf(session.library, session.reviewer, reference);
      const story = await sharedStory(session, key);
      const approval = await approveLocally(session.library, session.reviewer, {
        storyKey: key,
        quoteKey: quoteKeyOf(story, quote),
        withdrawn: values.withdraw ?? false,
        at: Date.now(),
      });
      const outcome = await session.sync();
      printResult(
        context.io,
        values.json ?? false,
        { ...approval, quote, ...outcome },
        () =>
          `${values.withdraw ? 'Withdrew the approval of' : 'Approved'} quote ${quote} of “${story.title}”: ${sentOrWaiting(outcome)}`,
      );
      return 0;
    });
  },

  resolve: (words, values, context) => {
    const reference = oneStory(words, 'resolve');
    const number = numberOption(values.comment, 'comment');
    if (number === undefined)
      throw new UsageError('story resolve needs --comment N: its number in story comments');
    return withReview(context, async (session) => {
      const key = await sharedStoryKeyOf(session.library, session.reviewer, reference);
      const story = await sharedStory(session, key);
      const comment = commentNumbered(story, number);
      const resolved = await resolveLocally(session.library, session.reviewer, {
        storyKey: key,
        commentId: comment.id,
        at: Date.now(),
      });
      const outcome = await session.sync();
      printResult(
        context.io,
        values.json ?? false,
        { ...resolved, number, ...outcome },
        () =>
          `Resolved comment ${number} (${comment.author}: “${excerpt(comment.body)}”) on “${story.title}”: ${sentOrWaiting(outcome)}`,
      );
      return 0;
    });
  },

  reviews: (words, values, context) => {
    if (words.length > 0) throw new UsageError('story reviews takes no more words');
    return withReview(context, async (session) => {
      const outcome = await session.sync();
      const stories = await session.library.reviews((store) =>
        store.list(session.reviewer.newsroom, session.reviewer.me),
      );
      printResult(context.io, values.json ?? false, stories, () =>
        [
          stories.length === 0
            ? 'No shared stories: share one of yours with story share <story> --desk NAME.'
            : stories
                .map(
                  (story) =>
                    `${story.key.padEnd(10)} “${story.title}”  ${story.mine ? `shared with the editor of ${story.desk}` : `by ${story.reporter}, ${story.desk}`}, revision ${story.revision}, ${story.quotes} quote${story.quotes === 1 ? '' : 's'}, ${story.openComments} open comment${story.openComments === 1 ? '' : 's'}`,
                )
                .join('\n'),
          ...(outcome.state === 'waiting'
            ? [`(The newsroom could not be reached, so this is what this computer has: ${outcome.reason})`]
            : []),
        ].join('\n'),
      );
      return 0;
    });
  },
};

export const storyReviewActions: ReadonlyMap<string, ReviewAction> = new Map(Object.entries(actions));
