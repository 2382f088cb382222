import AxeBuilder from '@axe-core/playwright';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, fixtureDir, speed } from './fixtures';
import { AppShell } from './pages/app-shell';
import { ReaderHighlights, StoriesPage } from './pages/highlights-page';
import { NewsroomSection } from './pages/newsroom-section';
import { ReaderPage } from './pages/reader-page';
import { StoryReviewPage } from './pages/story-review-page';
import { startSampleE2eNewsroom, type SampleE2eNewsroom } from './newsroom-postgres.test-kit';
import { passwordOf } from '../../src/main/core/newsroom/newsroom-archive.test-kit';
import { startWebApp } from '../../src/web-host/start';

/**
 * A story an editor reviews (issue #36, points 2 and 4) in Chromium, with two web hosts as two
 * people on one real newsroom: ana shares a story with City's editor; cleo's page lists it
 * without a reload, plays a quote's sound, comments on quote 1 and approves quote 2; ana's page
 * counts the notices and shows the comment in the story and at the quoted words in the reader
 * within seconds, unasked; ana answers and resolves, and cleo's page shows it resolved.
 */
let newsroom: SampleE2eNewsroom;

test.beforeAll(async () => {
  newsroom = await startSampleE2eNewsroom();
});

test.afterAll(async () => {
  await newsroom.stop();
});

async function signIn(page: AppShell['page'], shell: AppShell, user: string): Promise<void> {
  await shell.open();
  await shell.goTo('settings');
  const section = new NewsroomSection(page);
  await section.open();
  await section.saveAs(newsroom.addressOf(user), passwordOf(user));
}

test('ana shares a story with City’s editor, cleo plays, comments and approves, ana sees it live, answers and resolves', async ({
  shell,
  page,
  context,
  emulator,
}) => {
  test.setTimeout(90_000);
  const cleoDir = mkdtempSync(join(tmpdir(), 'verbatim-e2e-cleo-'));
  const cleoHost = await startWebApp({ dataDir: cleoDir, apiKey: emulator.options.key, timeScale: speed });
  try {
    // cleo, City's editor, waits on the Stories view.
    const cleoPage = await context.newPage();
    const cleoShell = new AppShell(cleoPage, cleoHost);
    await signIn(cleoPage, cleoShell, 'cleo');
    await cleoShell.goTo('stories');
    const cleo = new StoryReviewPage(cleoPage);

    // ana writes a story of two quotes and shares it.
    await signIn(page, shell, 'ana');
    const reader = new ReaderPage(page);
    const transcriptId = await reader.openNewTranscript(join(fixtureDir, 'press-statement.wav'), {});
    const stories = new StoriesPage(page);
    await stories.createStoryQuoting('Ferry piece', [
      { transcriptId, containing: 'afternoon' },
      { transcriptId, containing: 'agreement' },
    ]);
    await shell.goTo('stories');
    await stories.open('Ferry piece');
    const ana = new StoryReviewPage(page);
    await ana.shareWith('City');
    await expect(ana.shareState).toHaveText('Shared with City’s editor · revision 1');

    // cleo's page lists it without a reload, and opens it read only.
    await cleo.openShared('Ferry piece');
    await expect(cleoPage.getByTestId('shared-story-meta')).toContainText(
      'By ana, shared with City’s editor',
    );
    await expect(cleo.quote(1).locator('blockquote')).toContainText('afternoon');
    await expect(cleo.review.getByRole('button', { name: /^Edit|^Remove|^Move/ })).toHaveCount(0);

    // Quote 1's sound plays, from the newsroom's copy of it.
    await cleo.quote(1).getByRole('button', { name: 'Play quote 1' }).click();
    await expect.poll(async () => (await cleo.clipPlaying()).currentTime).toBeGreaterThan(0.1);
    expect((await cleo.clipPlaying()).src).toMatch(/^data:audio\/wav;base64,/);
    await cleo.quote(1).getByRole('button', { name: 'Stop quote 1' }).click();

    await cleo.comment(1, 'Check this against the tape');
    await cleo.quote(2).getByRole('button', { name: 'Approve quote 2' }).click();
    await expect(cleo.quote(2).getByTestId('quote-approval')).toHaveText('Approved by cleo');
    await expect(cleo.openComments).toHaveText('1 open comment');
    const axe = await new AxeBuilder({ page: cleoPage }).include('main').analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

    // ana's page hears of it within seconds, unasked: the bell's count and the story.
    await expect(ana.noticesBadge).toHaveText('2', { timeout: 5_000 });
    await expect(ana.notices).toHaveAccessibleName('Notices, 2 unread');
    const anaQuote1 = ana.ownItem(0);
    await expect(ana.threads(anaQuote1)).toContainText('Check this against the tape', { timeout: 5_000 });
    await expect(ana.threads(anaQuote1)).toContainText('cleo');
    await expect(ana.threads(anaQuote1).getByTestId('thread-state')).toHaveText('Open');
    await expect(ana.ownItem(1).getByTestId('quote-approval')).toHaveText('Approved by cleo');

    // At the quoted words in the reader: the highlight says what cleo said about it.
    await anaQuote1.hover();
    await anaQuote1.getByRole('button', { name: /^Open the quote .* in the reader$/ }).click();
    const highlights = new ReaderHighlights(page);
    await expect(highlights.tab).toHaveText('Highlights · 1 comment');
    // The words themselves carry a marker; pressing it (by keyboard) shows the comments beside them.
    const marker = page.getByRole('button', {
      name: "1 open comment from the story's review here: show them",
    });
    await expect(marker).toHaveCount(1);
    await marker.focus();
    await page.keyboard.press('Enter');
    await expect(highlights.tab).toHaveAttribute('aria-pressed', 'true');
    const atWords = highlights.panel.getByTestId('highlight-review');
    await expect(atWords).toHaveCount(2);
    await expect(atWords.nth(0)).toContainText('In “Ferry piece”, quote 1');
    await expect(atWords.nth(0)).toContainText('Check this against the tape');
    await expect(atWords.nth(1)).toContainText('In “Ferry piece”, quote 2 · Approved by cleo');

    // The comment's notice opens the review at quote 1, with the keyboard there.
    await ana.notices.click();
    await page
      .getByRole('dialog', { name: 'Notices' })
      .getByRole('button', { name: /^Unread: cleo commented/ })
      .click();
    await expect(page).toHaveURL(/#\/stories\/review\/ana\/\d+\?quote=1$/);
    await expect(ana.quote(1).locator('blockquote')).toBeFocused();
    await expect(ana.quote(1).getByRole('button', { name: 'Approve quote 1' })).toHaveCount(0);
    await expect(ana.notices).toHaveAccessibleName('Notices, 1 unread');

    // ana answers and resolves in her story.
    await shell.goTo('stories');
    const thread = ana.threads(ana.ownItem(0)).first();
    await ana.replyAndResolve(thread, 1, 'Checked: it is word for word.');
    await expect(thread.getByTestId('thread-state')).toHaveText('Resolved by ana');

    // cleo's page shows it resolved, with the answer, unasked.
    const cleoThread = cleo.threads(cleo.quote(1)).first();
    await expect(cleoThread.getByTestId('thread-state')).toHaveText('Resolved by ana', { timeout: 5_000 });
    await expect(cleoThread).toContainText('Checked: it is word for word.');
    await expect(cleo.openComments).toHaveText('0 open comments');
    await expect(cleo.sharedWithYou).toContainText('ana · City · 0 open comments');
    await cleoPage.close();
  } finally {
    await cleoHost.close();
    rmSync(cleoDir, { recursive: true, force: true });
  }
});
