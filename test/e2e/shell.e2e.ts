import { join } from 'node:path';
import { test, expect, fixtureDir, screenshotDir } from './fixtures';
import { ReaderPage } from './pages/reader-page';
import { viewLabels, type ViewKey } from './pages/app-shell';
import { SettingsPage } from './pages/settings-page';

test('the app loads in the library with the navigation', async ({ shell }) => {
  await shell.open();
  await expect(shell.heading).toHaveText('Library');
  await expect(shell.navLink('library')).toHaveAttribute('aria-current', 'page');
  for (const view of Object.keys(viewLabels) as ViewKey[]) {
    await expect(shell.navLink(view)).toBeVisible();
  }
  // The per-run token is taken out of the address bar once the bridge has it.
  expect(shell.page.url()).not.toContain('token=');
});

test('the built page carries its own Content-Security-Policy, for the desktop app loading it from a file', async ({
  shell,
  page,
}) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  await shell.open();
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(policy).toContain("default-src 'none'");
  expect(policy).toContain("script-src 'self'");
  expect(policy).not.toContain('frame-ancestors');
  // Both policies apply here (header and tag): the app still works through its socket.
  await shell.goTo('settings');
  await expect(shell.heading).toHaveText('Settings');
  expect(problems.filter((text) => /Content Security Policy|Refused/i.test(text))).toEqual([]);
});

test('navigation reaches every view by mouse, and by keyboard shortcut', async ({ shell, page }) => {
  await shell.open();
  for (const view of Object.keys(viewLabels) as ViewKey[]) {
    await shell.goTo(view);
    await expect(shell.heading).toHaveText(viewLabels[view]);
    await expect(shell.navLink(view)).toHaveAttribute('aria-current', 'page');
  }
  // Ctrl+1 … Ctrl+9 open the views in the sidebar's order, top to bottom.
  const inSidebarOrder = await shell.nav.getByRole('link').allTextContents();
  expect(inSidebarOrder).toHaveLength(9);
  for (const [index, entry] of inSidebarOrder.entries()) {
    await page.keyboard.press(`Control+${index + 1}`);
    await expect(shell.heading).toHaveText(entry.replace(/Ctrl\+\d$/, '').trim());
    await expect(shell.heading).toBeFocused();
  }
});

test('the sidebar collapses to icons and back, by its button and by Ctrl+B, and stays as it was left', async ({
  shell,
  page,
}) => {
  await shell.open();
  const toggle = shell.nav.getByRole('button', { name: 'Collapse the sidebar' });
  const expandedWidth = (await shell.nav.boundingBox())!.width;
  await toggle.click();
  const show = shell.nav.getByRole('button', { name: 'Show the sidebar' });
  await expect(show).toHaveAttribute('aria-expanded', 'false');
  const collapsedWidth = (await shell.nav.boundingBox())!.width;
  expect(collapsedWidth).toBeLessThan(64);
  expect(collapsedWidth).toBeLessThan(expandedWidth / 3);
  // Icons only, yet every view keeps its name for assistive technology and still opens.
  for (const view of Object.keys(viewLabels) as ViewKey[]) {
    await expect(shell.navLink(view)).toBeVisible();
    await expect(shell.navLink(view)).toHaveText('');
  }
  await shell.goTo('quotes');
  await expect(shell.heading).toHaveText('Quotes');
  // The icon's tooltip tells its name and its shortcut, on keyboard focus as on hover.
  await shell.navLink('stories').focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('tooltip', { includeHidden: true })).toHaveText('StoriesCtrl+7');
  await shell.navLink('glossary').hover();
  await expect(page.getByRole('tooltip', { includeHidden: true })).toHaveText('GlossaryCtrl+8');
  // The view gets the width the names gave up.
  const main = await page.getByRole('main').boundingBox();
  expect(main!.x).toBeLessThan(64);

  await page.reload();
  await shell.heading.waitFor();
  await expect(shell.nav.getByRole('button', { name: 'Show the sidebar' })).toBeVisible();
  await page.keyboard.press('Control+b');
  await expect(shell.nav.getByRole('button', { name: 'Collapse the sidebar' })).toBeVisible();
  await expect(shell.navLink('library')).toContainText('Library');
  expect((await shell.nav.boundingBox())!.width).toBeCloseTo(expandedWidth, 0);
});

test('the navigation is reachable with Tab and opens a view with Enter', async ({ shell, page }) => {
  await shell.open();
  await page.keyboard.press('Tab'); // skip link
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(shell.navLink('library')).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(shell.heading).toHaveText('New transcription');
});

test('a theme set in Settings survives a reload, through main and back', async ({ shell, page, host }) => {
  await shell.open();
  await shell.goTo('settings');
  const settings = new SettingsPage(page);
  await settings.chooseTheme('Dark');
  expect(await shell.theme()).toBe('dark');

  await page.reload();
  await expect(shell.heading).toHaveText('Settings');
  await expect(settings.themeOption('Dark')).toBeChecked();
  expect(await shell.theme()).toBe('dark');

  // A second page of the same host sees the stored value: it lives in main, not the page.
  const other = await page.context().newPage();
  await other.goto(host.openUrl);
  await expect.poll(() => other.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  await other.close();
});

test('"Follow the system" follows the OS colour scheme', async ({ shell, page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await shell.open();
  await expect.poll(() => shell.theme()).toBe('dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(() => shell.theme()).toBe('light');
});

test('screenshots of every view in both themes', async ({ shell, page }) => {
  await shell.open();
  const settings = new SettingsPage(page);
  for (const theme of ['Light', 'Dark'] as const) {
    await shell.goTo('settings');
    await settings.chooseTheme(theme);
    for (const view of Object.keys(viewLabels) as ViewKey[]) {
      await shell.goTo(view);
      await expect(shell.heading).toHaveText(viewLabels[view]);
      await page.screenshot({ path: join(screenshotDir, `shell-${view}-${theme.toLowerCase()}.png`) });
    }
  }
});

test('a transcript the OS asks to show (its notification clicked) opens in the reader', async ({
  shell,
  page,
  host,
}) => {
  await shell.open();
  const reader = new ReaderPage(page);
  const id = await reader.createTranscript(join(fixtureDir, 'press-statement.wav'), {});
  expect(await reader.waitForStatus(id)).toBe('completed');
  await shell.goTo('settings');
  await expect(shell.heading).toHaveText('Settings');
  host.services.openTranscript.emit({ id });
  await expect(page).toHaveURL(new RegExp(`#/transcript/${id}$`));
  await expect(reader.turns.first()).toBeVisible();
});
