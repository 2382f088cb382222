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

/** How far an element's content is taller than it (what it can scroll), and how far it has. */
function regionScroll(page: Page, selector: string): Promise<{ overflow: number; scrolled: number }> {
  return page.locator(selector).evaluate((element) => ({
    overflow: element.scrollHeight - element.clientHeight,
    scrolled: element.scrollTop,
  }));
}

for (const size of [
  { width: 1366, height: 768 },
  { width: 1024, height: 640 },
]) {
  test(`Settings fits the window at ${size.width} × ${size.height}: its sections scroll beside their list, the heading stays`, async ({
    shell,
    page,
  }) => {
    await page.setViewportSize(size);
    await shell.open();
    await shell.goTo('settings');
    const content = page.getByTestId('settings-content');
    const sections = page.getByRole('navigation', { name: 'Settings sections' });
    // The view is the window's height: main has nothing to scroll; the sections do.
    expect((await regionScroll(page, 'main')).overflow).toBeLessThanOrEqual(0);
    expect((await regionScroll(page, '[data-testid="settings-content"]')).overflow).toBeGreaterThan(200);

    await content.hover();
    await page.mouse.wheel(0, 20_000);
    await expect
      .poll(async () => (await regionScroll(page, '[data-testid="settings-content"]')).scrolled)
      .toBeGreaterThan(200);
    await expect(shell.heading).toBeInViewport();
    await expect(sections).toBeInViewport();
    // Wheeled to its end: the last section, the newsroom's, is the one marked.
    await expect(sections.getByRole('button', { name: 'Newsroom' })).toHaveAttribute('aria-current', 'true');
    expect((await regionScroll(page, 'main')).scrolled).toBe(0);
    await expectNoPageScroll(page, 'Settings wheeled to its end');

    // The list jumps to a section, its first control focused, the heading still in view.
    await sections.getByRole('button', { name: 'Appearance' }).click();
    await expect(page.getByRole('group', { name: 'Appearance' })).toBeInViewport();
    await expect(page.getByRole('radio', { name: 'Follow the system' })).toBeFocused();
    await expect(sections.getByRole('button', { name: 'Appearance' })).toHaveAttribute(
      'aria-current',
      'true',
    );
    await expect(shell.heading).toBeInViewport();
    await expectNoPageScroll(page, 'Settings after a jump');
  });
}
