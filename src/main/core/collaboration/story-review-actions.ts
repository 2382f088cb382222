import { randomUUID } from 'node:crypto';
import { VerbatimError } from '../../../shared/errors';
import {
  parseSharedStoryKey,
  sharedStoryKey,
  storyCommentMaxLength,
  type CommentAnchor,
  type QuoteApproval,
  type SharedStory,
  type StoryComment,
  type StoryCommentKind,
  type StoryShare,
} from '../../../shared/story-review';
import type { Library } from '../library/library';
import type { Reviewer } from './story-review-sync';

/**
 * What a user does to a shared story, written to the library first (one transaction each) and
 * sent by the next sync (issue #36, point 2): the command line and the app check the same things
 * and refuse them in the same sentences.
 */

/** A story as the user names it: their own by id or name, a colleague's as `reporter/id`. */
export async function sharedStoryKeyOf(
  library: Library,
  reviewer: Reviewer,
  reference: string,
): Promise<string> {
  const parsed = parseSharedStoryKey(reference);
  if (parsed) return sharedStoryKey(parsed.reporter, parsed.storyId);
  const story = await library.findStory(reference);
  return sharedStoryKey(reviewer.me, story.id);
}

/** Shares one of the user's stories with the editor of `desk` (or its next revision). */
export async function shareStoryLocally(
  library: Library,
  reviewer: Reviewer,
  reference: string,
  desk: string,
): Promise<StoryShare> {
  const name = desk.trim();
  if (!name || name.length > 50)
    throw new VerbatimError(
      'invalid_input',
      'Name the desk whose editor reviews the story, in at most 50 characters.',
    );
  if (parseSharedStoryKey(reference) && !reference.startsWith(`${reviewer.me}/`))
    throw new VerbatimError(
      'invalid_input',
      `Only ${reference.split('/')[0]} can share ${reference}: you share your own stories.`,
    );
  const story = await library.findStory(parseSharedStoryKey(reference)?.storyId.toString() ?? reference);
  if (story.items.length === 0)
    throw new VerbatimError(
      'invalid_input',
      `The story “${story.name}” is empty: add quotes to it before you share it.`,
    );
  return library.reviews((store) => {
    store.askShare(reviewer.newsroom, story.id, name);
    return store.shareState(reviewer.newsroom, reviewer.me, story.id)!;
  });
}

/** The shared story as this library last read it, or a sentence saying why there is none. */
export async function requireSharedStory(
  library: Library,
  reviewer: Reviewer,
  key: string,
): Promise<SharedStory> {
  const story = await library.reviews((store) => store.get(reviewer.newsroom, reviewer.me, key));
  if (story) return story;
  const own = parseSharedStoryKey(key);
  const share =
    own && own.reporter === reviewer.me
      ? await library.reviews((store) => store.share(reviewer.newsroom, own.storyId))
      : undefined;
  throw new VerbatimError(
    'not_found',
    share
      ? `The story ${key} is not in the newsroom yet: it is sent by the next sync (share it again if it was refused).`
      : own && own.reporter === reviewer.me
        ? `The story ${key} is not shared: share it with your desk's editor first (story share ${own.storyId} --desk NAME).`
        : `There is no story ${key} shared with you: check the reporter and the id (story reviews lists them).`,
  );
}

/** The key of the story's Nth quote (from 1), or a sentence naming how many it has. */
export function quoteKeyOf(story: SharedStory, number: number): string {
  const quotes = story.items.filter((item) => item.kind === 'quote');
  const quote = Number.isInteger(number) && number >= 1 ? quotes[number - 1] : undefined;
  if (!quote)
    throw new VerbatimError(
      'invalid_input',
      quotes.length === 0
        ? `“${story.title}” has no quotes.`
        : `“${story.title}” has no quote ${number}: its quotes are numbered 1 to ${quotes.length}.`,
    );
  return quote.key;
}

/** A passage of the reporter's own text that reads `words` (ignoring case), as an anchor. */
export function passageAnchorOf(story: SharedStory, words: string): CommentAnchor {
  const wanted = words.trim();
  if (!wanted)
    throw new VerbatimError('invalid_input', 'Give the words of the passage the comment is about.');
  for (const item of story.items) {
    if (item.kind !== 'text') continue;
    const from = item.text.toLowerCase().indexOf(wanted.toLowerCase());
    if (from !== -1)
      return {
        kind: 'passage',
        itemKey: item.key,
        from,
        to: from + wanted.length,
        words: item.text.slice(from, from + wanted.length),
      };
  }
  throw new VerbatimError('invalid_input', `No passage of the text of “${story.title}” reads “${wanted}”.`);
}

/** The story's Nth comment (from 1, oldest first, as `story comments` numbers them). */
export function commentNumbered(story: SharedStory, number: number): StoryComment {
  const comment = Number.isInteger(number) && number >= 1 ? story.comments[number - 1] : undefined;
  if (!comment)
    throw new VerbatimError(
      'invalid_input',
      story.comments.length === 0
        ? `“${story.title}” has no comments.`
        : `“${story.title}” has no comment ${number}: its comments are numbered 1 to ${story.comments.length}.`,
    );
  return comment;
}

export async function commentLocally(
  library: Library,
  reviewer: Reviewer,
  input: {
    storyKey: string;
    /** What it is about; a reply is about what the comment it answers is about. */
    anchor?: CommentAnchor | undefined;
    body: string;
    kind: StoryCommentKind;
    replyTo?: string | null;
    at: number;
  },
): Promise<StoryComment> {
  const story = await requireSharedStory(library, reviewer, input.storyKey);
  const body = input.body.trim();
  if (!body) throw new VerbatimError('invalid_input', 'A comment needs words.');
  if (body.length > storyCommentMaxLength)
    throw new VerbatimError('invalid_input', `A comment can be at most ${storyCommentMaxLength} characters.`);
  let anchor: CommentAnchor;
  if (input.replyTo) {
    const parent = story.comments.find((comment) => comment.id === input.replyTo);
    if (!parent) throw new VerbatimError('not_found', 'The comment you answer is no longer in this story.');
    anchor = parent.anchor;
  } else if (!input.anchor)
    throw new VerbatimError('invalid_input', 'Say what the comment is about: a quote or a passage.');
  else anchor = input.anchor;
  if (
    !input.replyTo &&
    !story.items.some((item) => item.key === (anchor.kind === 'quote' ? anchor.quoteKey : anchor.itemKey))
  )
    throw new VerbatimError('invalid_input', `That part is no longer in “${story.title}”.`);
  return library.reviews((store) =>
    store.addComment(reviewer.newsroom, {
      id: randomUUID(),
      storyKey: story.key,
      author: reviewer.me,
      anchor,
      kind: input.replyTo ? 'comment' : input.kind,
      body,
      replyTo: input.replyTo ?? null,
      createdAt: input.at,
    }),
  );
}

export async function resolveLocally(
  library: Library,
  reviewer: Reviewer,
  input: { storyKey: string; commentId: string; at: number },
): Promise<StoryComment> {
  const story = await requireSharedStory(library, reviewer, input.storyKey);
  const comment = story.comments.find((each) => each.id === input.commentId);
  if (!comment) throw new VerbatimError('not_found', 'This comment is no longer in the story.');
  if (story.reporter !== reviewer.me && comment.author !== reviewer.me)
    throw new VerbatimError(
      'forbidden',
      `Only ${story.reporter}, whose story it is, or ${comment.author}, who wrote it, resolves this comment.`,
    );
  return library.reviews((store) => store.resolve(comment.id, reviewer.me, input.at));
}

/**
 * Approves a quote (or withdraws the approval). Whether the user is the desk's editor is the
 * newsroom's to say; here only the reporter is refused at once, as they never approve their own.
 */
export async function approveLocally(
  library: Library,
  reviewer: Reviewer,
  input: { storyKey: string; quoteKey: string; withdrawn: boolean; at: number },
): Promise<QuoteApproval> {
  const story = await requireSharedStory(library, reviewer, input.storyKey);
  if (story.reporter === reviewer.me)
    throw new VerbatimError(
      'forbidden',
      `You approve the quotes of stories shared with you, not your own: ${story.desk}'s editor approves these.`,
    );
  if (!story.items.some((item) => item.kind === 'quote' && item.key === input.quoteKey))
    throw new VerbatimError('invalid_input', `That quote is no longer in “${story.title}”.`);
  return library.reviews((store) =>
    store.approve(reviewer.newsroom, {
      storyKey: story.key,
      quoteKey: input.quoteKey,
      by: reviewer.me,
      at: input.at,
      withdrawn: input.withdrawn,
    }),
  );
}
