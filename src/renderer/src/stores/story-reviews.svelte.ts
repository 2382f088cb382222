import type {
  CommentAnchor,
  ReviewSyncOutcome,
  SharedStory,
  SharedStorySummary,
  StoryCommentKind,
  StoryShare,
} from '../../../shared/story-review';
import { withoutFullStop } from '../../../shared/errors';
import type { NewsroomDesks } from '../../../shared/ipc/newsroom-contract';
import { api } from '../lib/api';
import type { Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';
import { isVerbatimError } from '../../../shared/errors';
import { quotedInTranscript, type QuotedHere } from '../lib/story-review';

/**
 * Stories an editor reviews (issue #36, point 2), as the window shows them: the shared stories
 * this library has read (the reporter's own and, for an editor, those shared with them), each
 * one opened whole, and the share state of the reporter's stories. Every change is written by
 * main at once and sent when the newsroom can be reached; `reviews.changed` (a colleague's
 * comment arrives within a second) reloads what it names.
 */
class StoryReviewsStore {
  list = $state.raw<SharedStorySummary[]>([]);
  /** The shared stories opened here (a review page, a reporter's own story), by key. */
  byKey = $state.raw<Record<string, SharedStory>>({});
  /** The share state of the reporter's stories opened here, by story id (null: not shared). */
  shares = $state.raw<Record<number, StoryShare | null>>({});
  /** False once main said no newsroom is set: nothing to share with, so Share is not offered. */
  newsroomSet = $state(true);
  problem = $state<Problem | undefined>(undefined);
  /** A sentence for the polite live region after an action (sent, or why it waits). */
  notice = $state('');
  /** The user's desks as the newsroom last listed them (read once, for "Share with City's editor…"). */
  desks = $state.raw<NewsroomDesks | undefined>(undefined);
  /** The desk a share goes to unless the reporter chooses another: their desk as a reporter, or the last used. */
  deskHint = $derived(
    this.desks?.desks.find((each) => each.role === 'reporter')?.desk ??
      this.desks?.desks[0]?.desk ??
      this.desks?.lastDesk ??
      undefined,
  );
  private desksAsked: Promise<void> | undefined;
  /** Stories shared with this user by a reporter of their desk. */
  sharedWithMe = $derived(this.list.filter((story) => !story.mine));

  private listeners = 0;
  private stop: (() => void) | undefined;

  /** Loads and follows the newsroom's changes while a view needs them; the returned function stops. */
  start(): () => void {
    if (this.listeners++ === 0) {
      this.stop = api.on('reviews.changed', ({ keys }) => {
        void this.loadList();
        const open = Object.keys(this.byKey).filter((key) => keys.length === 0 || keys.includes(key));
        for (const key of open) void this.load(key);
        for (const id of Object.keys(this.shares)) void this.loadShare(Number(id));
      });
    }
    void this.loadList();
    return () => {
      if (--this.listeners === 0) this.stop?.();
    };
  }

  /** Quietly empty without a newsroom: the Stories view then shows no "Shared with you". */
  async loadList(): Promise<void> {
    try {
      this.list = await api.reviews.list();
    } catch {
      this.list = [];
    }
  }

  /** Reads one shared story as the library has it; a failure is shown where it is asked for. */
  async load(key: string): Promise<SharedStory | undefined> {
    try {
      const story = await api.reviews.get({ key });
      this.byKey = { ...this.byKey, [key]: story };
      return story;
    } catch (error) {
      this.problem = caught(error, 'reviews.get');
      return undefined;
    }
  }

  /**
   * Asks the newsroom for the user's desks, once unless `again` (the share dialog asks each time it
   * opens: Settings may name another newsroom since); quietly nothing when it cannot be asked.
   */
  loadDesks(again = false): Promise<void> {
    if (again) this.desksAsked = undefined;
    this.desksAsked ??= api.newsroom.desks().then(
      (desks) => void (this.desks = desks),
      () => {
        this.desksAsked = undefined;
      },
    );
    return this.desksAsked;
  }

  /** The review page asks for what is new in the newsroom as it opens (and on Retry). */
  async sync(): Promise<void> {
    try {
      this.say(await api.reviews.sync(), 'Up to date with the newsroom.');
    } catch (error) {
      this.problem = caught(error, 'reviews.sync');
    }
  }

  /**
   * Where one of the reporter's stories stands (and the shared story, to show its comments):
   * quietly nothing without a newsroom, as a story is the reporter's own first.
   */
  async loadShare(storyId: number): Promise<void> {
    let share: StoryShare | null = null;
    try {
      share = await api.reviews.shareState({ storyId });
      this.newsroomSet = true;
    } catch (error) {
      // No newsroom set: the story is the reporter's own, and Share is not offered.
      if (isVerbatimError(error) && error.code === 'invalid_input') this.newsroomSet = false;
      else this.problem = caught(error, 'reviews.shareState');
    }
    this.shares = { ...this.shares, [storyId]: share };
    if (share && share.revisionSent > 0) {
      try {
        const story = await api.reviews.get({ key: share.key });
        this.byKey = { ...this.byKey, [share.key]: story };
      } catch (error) {
        // Not in this library's copy yet: its comments come with the next sync.
        if (!(isVerbatimError(error) && error.code === 'not_found'))
          this.problem = caught(error, 'reviews.get');
      }
    }
  }

  /** Shares the story with the editor of `desk` (or its next revision); true when it was written. */
  async share(storyId: number, desk: string): Promise<boolean> {
    return this.act('reviews.share', async () => {
      const { share, sent } = await api.reviews.share({ storyId, desk });
      this.shares = { ...this.shares, [storyId]: share };
      this.say(sent, `Shared with ${desk}’s editor.`);
      await this.loadShare(storyId);
      return true;
    });
  }

  /** A comment on a quote or a passage, or a reply (`replyTo`); true when it was written. */
  async comment(
    key: string,
    what: { anchor: CommentAnchor; kind: StoryCommentKind } | { replyTo: string },
    body: string,
  ): Promise<boolean> {
    return this.act('reviews.comment', async () => {
      const { sent } = await api.reviews.comment({ key, body, ...what });
      const done =
        'replyTo' in what
          ? 'Reply sent.'
          : what.kind === 'change-request'
            ? 'Change asked for.'
            : 'Comment sent.';
      this.say(sent, done);
      await this.load(key);
      return true;
    });
  }

  async resolve(key: string, commentId: string): Promise<boolean> {
    return this.act('reviews.resolve', async () => {
      this.say((await api.reviews.resolve({ key, commentId })).sent, 'Comment resolved.');
      await this.load(key);
      return true;
    });
  }

  async approve(key: string, quoteKey: string, withdrawn: boolean): Promise<boolean> {
    return this.act('reviews.approve', async () => {
      const { sent } = await api.reviews.approve({ key, quoteKey, withdrawn });
      this.say(sent, withdrawn ? 'Approval withdrawn.' : 'Quote approved.');
      await this.load(key);
      return true;
    });
  }

  /** The address a quote's sound plays from, or undefined (and the reason shown). */
  async clip(key: string, quoteKey: string): Promise<string | undefined> {
    try {
      return (await api.reviews.clip({ key, quoteKey })).url;
    } catch (error) {
      this.problem = caught(error, 'reviews.clip');
      return undefined;
    }
  }

  /**
   * The quotes of a transcript in the reporter's shared stories, with their comments: read from
   * the stories as the library has them, for the reader to show at the quoted words.
   */
  async quotedIn(transcriptId: string): Promise<QuotedHere[]> {
    const found: QuotedHere[] = [];
    for (const summary of this.list.filter((story) => story.mine)) {
      try {
        const [own, shared] = await Promise.all([
          api.stories.get({ id: summary.storyId }),
          api.reviews.get({ key: summary.key }),
        ]);
        found.push(...quotedInTranscript(transcriptId, own, shared));
      } catch {
        // A story deleted here since it was shared quotes nothing any more.
      }
    }
    return found;
  }

  private say(sent: ReviewSyncOutcome, done: string): void {
    this.notice =
      sent.state === 'sent'
        ? done
        : `${withoutFullStop(done)}; it waits to be sent: ${withoutFullStop(sent.reason)}. It is sent as soon as the newsroom can be reached.`;
  }

  private async act(context: string, action: () => Promise<boolean>): Promise<boolean> {
    this.problem = undefined;
    try {
      return await action();
    } catch (error) {
      this.problem = caught(error, context);
      return false;
    }
  }
}

export const storyReviews = new StoryReviewsStore();

/**
 * The reader's view of one transcript's quotes in the reporter's shared stories: what the
 * Highlights panel shows at those words, kept as live as the stories (`reviews.changed`).
 */
export class QuotesUnderReview {
  items = $state.raw<QuotedHere[]>([]);
  /** Open comments about this transcript's quotes, for the Highlights tab. */
  open = $derived(
    this.items.reduce(
      (count, quoted) => count + quoted.threads.filter((thread) => !thread.resolved).length,
      0,
    ),
  );
  private seq = 0;

  constructor(private readonly transcriptId: string) {}

  start(): () => void {
    const stopStore = storyReviews.start();
    const stopChanges = api.on('reviews.changed', () => void this.load());
    void this.load();
    return () => {
      stopChanges();
      stopStore();
    };
  }

  async load(): Promise<void> {
    const seq = ++this.seq;
    await storyReviews.loadList();
    const found = await storyReviews.quotedIn(this.transcriptId);
    // An older answer arriving after a newer one is not shown.
    if (seq === this.seq) this.items = found;
  }
}
