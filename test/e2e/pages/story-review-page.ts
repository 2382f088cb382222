import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Stories under review (issue #36, point 2) as the Stories view shows them: the reporter's
 * share line and dialog, the "Shared with you" list, a shared story's review page, and the
 * comment threads (on either page) with their Reply… and Resolve.
 */
export class StoryReviewPage {
  readonly shareState: Locator;
  readonly sharedWithYou: Locator;
  readonly review: Locator;
  readonly openComments: Locator;
  readonly notices: Locator;
  readonly noticesBadge: Locator;

  constructor(readonly page: Page) {
    this.shareState = page.getByTestId('share-state');
    this.sharedWithYou = page.getByRole('list', { name: 'Stories shared with you' });
    this.review = page.getByRole('article').filter({ has: page.locator('#shared-story-title') });
    this.openComments = page.getByTestId('open-comments');
    this.notices = page.getByRole('button', { name: /^Notices/ });
    this.noticesBadge = page.getByTestId('notices-badge');
  }

  /** "Share with City's editor…" on the open story, then Share in its dialog (the desk as offered). */
  async shareWith(desk: string): Promise<void> {
    await this.page.getByRole('button', { name: `Share with ${desk}’s editor…` }).click();
    const dialog = this.page.getByRole('dialog');
    await expect(dialog.getByLabel('Desk')).toHaveValue(desk);
    await dialog.getByRole('button', { name: 'Share', exact: true }).click();
    await expect(dialog).toHaveCount(0);
  }

  async openShared(title: string): Promise<void> {
    await this.sharedWithYou.getByRole('button', { name: new RegExp(`^${title}`) }).click();
    await this.page.getByRole('heading', { level: 2, name: title }).waitFor();
  }

  /** The review page's quote N (from 1): its words, sound, approval, tools and comments. */
  quote(number: number): Locator {
    return this.review.locator(`[data-quote="${number}"]`);
  }

  /** The review page's audio element: whether it plays, and how far. */
  async clipPlaying(): Promise<{ paused: boolean; currentTime: number; src: string }> {
    return this.page
      .getByRole('toolbar', { name: 'Review' })
      .locator('audio')
      .evaluate((audio: HTMLAudioElement) => ({
        paused: audio.paused,
        currentTime: audio.currentTime,
        src: audio.src.slice(0, 30),
      }));
  }

  async comment(number: number, body: string, kind: 'comment' | 'change' = 'comment'): Promise<void> {
    const quote = this.quote(number);
    if (kind === 'comment') {
      await quote.getByRole('button', { name: `Comment on quote ${number}…` }).click();
      await quote.getByRole('textbox', { name: `Comment on quote ${number}` }).fill(body);
      await quote.getByRole('button', { name: 'Comment', exact: true }).click();
    } else {
      await quote.getByRole('button', { name: `Ask for a change to quote ${number}…` }).click();
      await quote.getByRole('textbox', { name: `The change to quote ${number}` }).fill(body);
      await quote.getByRole('button', { name: 'Ask for the change' }).click();
    }
    await expect(quote.getByTestId('review-thread').filter({ hasText: body })).toBeVisible();
  }

  /** Item N (from 0) of the reporter's own story, without the comments' list items inside it. */
  ownItem(index: number): Locator {
    return this.page
      .getByRole('list', { name: /^Items of / })
      .locator(':scope > li')
      .nth(index);
  }

  /** The comment threads within `scope` (a quote, a story item, a highlight). */
  threads(scope: Locator): Locator {
    return scope.getByTestId('review-thread');
  }

  /** Answers a thread and resolves it, by keyboard-reachable buttons named with its number. */
  async replyAndResolve(thread: Locator, number: number, body: string): Promise<void> {
    await thread.getByRole('button', { name: `Reply to comment ${number}…` }).click();
    await thread.getByRole('textbox', { name: `Reply to comment ${number}` }).fill(body);
    await thread.getByRole('button', { name: 'Reply', exact: true }).click();
    await expect(thread.getByRole('list', { name: `Replies to comment ${number}` })).toContainText(body);
    await thread.getByRole('button', { name: `Resolve comment ${number}` }).click();
  }
}
