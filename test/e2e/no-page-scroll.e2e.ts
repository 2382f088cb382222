import type { Page } from '@playwright/test';
import { join } from 'node:path';
import { test, expect, fixtureDir } from './fixtures';
import { viewLabels, type ViewKey } from './pages/app-shell';
import { ReaderPage } from './pages/reader-page';
import { ReviewPanel } from './pages/review-page';

/**
 * The window is never a page that scrolls (issue #33, point 1): at a laptop's 1366 × 768 and the
 * smallest supported 1024 × 640, in every view, after wheeling to the end of a long view and
 * after F8/F9 in the reader's Review tab, the document is exactly the viewport and has not
 * moved; only the regions meant to scroll do.
 */
const interview = join(fixtureDir, 'interview-ferry-contract.wav');

/** How far the document itself is taller than the window, and how far it has been scrolled. */
function pageScroll(page: Page): Promise<{ overflow: number; scrolled: number }> {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return { overflow: root.scrollHeight - window.innerHeight, scrolled: root.scrollTop + window.scrollY };
  });
}

async function expectNoPageScroll(page: Page, where: string): Promise<void> {
  expect(await pageScroll(page), where).toEqual({ overflow: 0, scrolled: 0 });
  await expect(page.getByRole('navigation', { name: 'Main' }), where).toBeInViewport();
}

for (const size of [
  { width: 1366, height: 768 },
  { width: 1024, height: 640 },
]) {
  test(`no view scrolls as a page at ${size.width} × ${size.height}, even wheeled to its end`, async ({
    shell,
    page,
  }) => {
    await page.setViewportSize(size);
    await shell.open();
    for (const view of Object.keys(viewLabels) as ViewKey[]) {
      await shell.goTo(view);
      await expect(shell.heading).toBeVisible();
      await page.getByRole('main').hover();
      await page.mouse.wheel(0, 20_000);
      await expectNoPageScroll(page, `${view} at ${size.width} × ${size.height}`);
    }
  });
}

test('F8 and F9 in the Review tab move within the transcript, never the window', async ({ shell, page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await shell.open();
  const reader = new ReaderPage(page);
  await reader.openNewTranscript(interview, { speaker_labels: true });
  const review = new ReviewPanel(page);
  await review.tab.click();
  await expect(review.panel).toBeVisible();
  await reader.heading.focus();
  for (const key of ['F8', 'F8', 'F9', 'F8']) {
    await page.keyboard.press(key);
    await expectNoPageScroll(page, `after ${key}`);
    await expect(reader.heading).toBeInViewport();
  }
});

test('the Shortcuts dialog opens at its top, its title in view, and the window does not move', async ({
  shell,
  page,
}) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await shell.open();
  const reader = new ReaderPage(page);
  await reader.openNewTranscript(interview, {});
  await reader.chooseMore('Keyboard shortcuts');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Keyboard shortcuts' })).toBeInViewport();
  expect(await dialog.evaluate((element) => element.scrollTop)).toBe(0);
  await expectNoPageScroll(page, 'with the Shortcuts dialog open');
});
