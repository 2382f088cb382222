import type { Handlers } from '../../shared/ipc/contract';
import { parseSharedStoryKey, type ReviewSyncOutcome } from '../../shared/story-review';
import { VerbatimError } from '../../shared/errors';
import type { Services } from '../core/app-services';
import {
  approveLocally,
  commentLocally,
  requireSharedStory,
  resolveLocally,
  shareStoryLocally,
} from '../core/collaboration/story-review-actions';
import {
  createStoryReviewSync,
  reviewerOf,
  syncOnce,
  type Reviewer,
} from '../core/collaboration/story-review-sync';
import { libraryRecordings } from '../core/export/library-story-export';
import { settingsAddressIn } from '../core/newsroom/newsroom-reader';
import { readSharedClip } from '../core/newsroom/shared-stories';

type StoryReviewHandlers = Pick<
  Handlers,
  | 'reviews.share'
  | 'reviews.shareState'
  | 'reviews.list'
  | 'reviews.get'
  | 'reviews.comment'
  | 'reviews.resolve'
  | 'reviews.approve'
  | 'reviews.clip'
  | 'reviews.sync'
>;

/**
 * Stories an editor reviews (issue #36, point 2) for the newsroom of Settings: each change is
 * written to the library, told to every window, then one sync runs through the newsroom reader's
 * connection and the windows hear again what it brought. What the newsroom refused comes back as
 * an error in its words; an unreachable newsroom leaves the change waiting, and says why.
 */
export function createStoryReviewHandlers(
  services: Pick<Services, 'settings' | 'core' | 'newsroomReader' | 'storyReviewChanged'>,
): StoryReviewHandlers {
  const { library } = services.core;
  // Only the address names the user and the newsroom: a change is written with no password or network.
  const reviewer = async (): Promise<Reviewer> => {
    const address = (await services.settings.get()).newsroomAddress;
    if (address === '')
      throw new VerbatimError(
        'invalid_input',
        "No newsroom is set yet: enter its address and your password in Settings, as your newsroom's administrator gave them.",
      );
    return reviewerOf(settingsAddressIn(address));
  };
  const changed = (keys: string[]) => services.storyReviewChanged.emit({ keys });
  const sync = async (who: Reviewer, keys: string[] = []): Promise<ReviewSyncOutcome> => {
    const { outcome, refused } = await syncOnce(
      createStoryReviewSync({
        library,
        newsroom: (work) => services.newsroomReader.use(work),
        reviewer: who,
        findRecording: libraryRecordings(library, services.core.redactions),
      }),
    );
    changed(keys);
    if (refused.length > 0) throw new VerbatimError('forbidden', refused.join('\n'));
    return outcome;
  };
  return {
    'reviews.share': async ({ storyId, desk }) => {
      const who = await reviewer();
      const asked = await shareStoryLocally(library, who, String(storyId), desk);
      changed([asked.key]);
      const sent = await sync(who, [asked.key]);
      const share = await library.reviews((store) => store.shareState(who.newsroom, who.me, storyId));
      return { share: share ?? asked, sent };
    },
    'reviews.shareState': async ({ storyId }) => {
      const who = await reviewer();
      return (await library.reviews((store) => store.shareState(who.newsroom, who.me, storyId))) ?? null;
    },
    'reviews.list': async () => {
      const who = await reviewer();
      return library.reviews((store) => store.list(who.newsroom, who.me));
    },
    'reviews.get': async ({ key }) => requireSharedStory(library, await reviewer(), key),
    'reviews.comment': async ({ key, anchor, replyTo, kind, body }) => {
      const who = await reviewer();
      const written = await commentLocally(library, who, {
        storyKey: key,
        anchor,
        replyTo: replyTo ?? null,
        kind,
        body,
        at: Date.now(),
      });
      changed([key]);
      const sent = await sync(who, [key]);
      return { comment: (await library.reviews((store) => store.comment(written.id))) ?? written, sent };
    },
    'reviews.resolve': async ({ key, commentId }) => {
      const who = await reviewer();
      const resolved = await resolveLocally(library, who, { storyKey: key, commentId, at: Date.now() });
      changed([key]);
      const sent = await sync(who, [key]);
      return { comment: (await library.reviews((store) => store.comment(commentId))) ?? resolved, sent };
    },
    'reviews.approve': async ({ key, quoteKey, withdrawn }) => {
      const who = await reviewer();
      const approval = await approveLocally(library, who, {
        storyKey: key,
        quoteKey,
        withdrawn,
        at: Date.now(),
      });
      changed([key]);
      const sent = await sync(who, [key]);
      const stored = (await library.reviews((store) => store.get(who.newsroom, who.me, key)))?.approvals.find(
        (each) => each.quoteKey === quoteKey,
      );
      return { approval: stored ?? approval, sent };
    },
    'reviews.clip': async ({ key, quoteKey }) => {
      // The story as this library last read it says whether the user may hear it and names the quote.
      const story = await requireSharedStory(library, await reviewer(), key);
      const quote = story.items.find((item) => item.kind === 'quote' && item.key === quoteKey);
      const ref = parseSharedStoryKey(key);
      if (!quote || !ref)
        throw new VerbatimError(
          'not_found',
          'This quote is no longer in the story: its reporter took it out.',
        );
      const clip = await services.newsroomReader.use((newsroom) =>
        readSharedClip(newsroom, { ...ref, quoteKey }),
      );
      if (!clip)
        throw new VerbatimError(
          'not_found',
          `The sound of this quote is not in the newsroom: ${ref.reporter}'s app could not cut it from the recording when it shared the story.`,
        );
      return {
        mimeType: clip.mimeType,
        url: `data:${clip.mimeType};base64,${clip.bytes.toString('base64')}`,
      };
    },
    'reviews.sync': async () => sync(await reviewer()),
  };
}
