import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect, screenshotDir, fixtureDir } from './fixtures';
import { LibraryPage } from './pages/library-page';
import type { CompletedTranscript } from '../../src/main/core/library/library';
import { storeFinished } from '../../src/main/core/library/completed-transcript.test-kit';

const interview = join(fixtureDir, 'interview-ferry-contract.wav');
const statement = join(fixtureDir, 'press-statement.wav');
const silence = join(fixtureDir, 'silence.wav');

async function seriousViolations(page: Page): Promise<string[]> {
  const report = await new AxeBuilder({ page }).include('main').analyze();
  return report.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/** Two finished transcripts: the ferry interview and the press statement. */
async function twoCompleted(library: LibraryPage): Promise<{ interviewId: string; statementId: string }> {
  const first = await library.create(interview);
  const second = await library.create(statement);
  for (const id of [first.id, second.id]) {
    await expect(library.status(library.rowById(id))).toHaveText('Completed', { timeout: 20_000 });
  }
  return { interviewId: first.id, statementId: second.id };
}

test('a new transcript appears at once with its progress, then completes with its details', async ({
  shell,
  page,
}) => {
  await shell.open();
  const library = new LibraryPage(page);
  await expect(library.emptyState).toBeVisible();
  await expect(page.getByText('Drop a recording anywhere in this window')).toBeVisible();

  await library.recordStatuses();
  const created = await library.create(interview);
  const row = library.rowById(created.id);
  await expect(row).toBeVisible();
  await expect(library.status(row)).toHaveText('Completed', { timeout: 20_000 });

  // The row went through the running states before it completed, with a progress bar.
  const seen = await library.statusesSeen();
  expect(seen.at(-1)).toBe('Completed');
  expect(seen.length).toBeGreaterThan(1);
  for (const status of seen.slice(0, -1)) {
    expect(status).toMatch(/^(Uploading( \d+ %)?|Submitting|Queued|Transcribing|Saving) \+bar$/);
  }

  await expect(row.getByRole('link', { name: created.title })).toBeVisible();
  await expect(row).toContainText('00:01:13');
  await expect(row).toContainText('Speaker A, Speaker B');
  await expect(row.getByRole('progressbar')).toHaveCount(0);

  // Clicking the row opens the transcript.
  await row.getByRole('link', { name: created.title }).click();
  await expect(page).toHaveURL(new RegExp(`#/transcript/${created.id}$`));
});

/** A finished one-sentence transcript, stored as the scheduler would have: a large library in seconds. */
function oneLiner(id: string): CompletedTranscript {
  const words = [
    { text: 'Good', start: 0, end: 400, confidence: 0.9, speaker: 'A' },
    { text: 'morning.', start: 400, end: 900, confidence: 0.9, speaker: 'A' },
  ];
  return {
    transcript: { id: `remote-${id}`, text: 'Good morning.', language_code: 'en', audio_duration: 1, words },
    sentences: [{ text: 'Good morning.', start: 0, end: 900, confidence: 0.9, speaker: 'A', words }],
    paragraphs: [],
  };
}

test('a library of 300 transcripts keeps only the rows in view in the page, and scrolls through all of them', async ({
  host,
  shell,
  page,
}) => {
  const ids = Array.from({ length: 300 }, (_, n) => `many-${n}`);
  for (const [n, id] of ids.entries())
    await storeFinished(host.services.core.library, id, `Interview ${n + 1}`, oneLiner(id));
  await shell.open();
  const view = new LibraryPage(page);
  await expect(page.getByRole('region', { name: 'Transcripts' })).toContainText('300 of 300');
  // Every row in the page made opening any other view tear down 300 (or 1,000) of them (issue #34).
  await expect(view.rows.first()).toBeVisible();
  expect(await view.rows.count()).toBeLessThan(60);

  const seen = await view.scrollThrough();
  expect(seen.mostRowsInPage).toBeLessThan(60);
  expect(new Set(seen.ids)).toEqual(new Set(ids));
});

test('a failed job shows the service message and can be retried', async ({ shell, page }) => {
  await shell.open();
  const library = new LibraryPage(page);
  const created = await library.create(silence);
  const row = library.rowById(created.id);
  await expect(library.status(row)).toHaveText('Failed', { timeout: 20_000 });

  const [failed] = (await library.list()).filter((item) => item.id === created.id);
  expect(failed?.error).toBeTruthy();
  await expect(row.locator('.error')).toHaveText(failed!.error!);

  await library.recordStatuses();
  await row.getByRole('button', { name: /^Retry/ }).click();
  await expect.poll(async () => (await library.statusesSeen()).length).toBeGreaterThan(1);
  await expect(library.status(row)).toHaveText('Failed', { timeout: 20_000 });
  expect((await library.statusesSeen()).slice(0, -1)).not.toContain('Completed');
});

test('search finds ranked hits with the match highlighted and opens one at its time', async ({
  shell,
  page,
}) => {
  await shell.open();
  const library = new LibraryPage(page);
  const { interviewId } = await twoCompleted(library);

  // Ctrl+K puts the cursor in the search box from anywhere in the view.
  await page.getByRole('heading', { name: 'Library', level: 1 }).click();
  await page.keyboard.press('Control+k');
  await expect(library.searchBox).toBeFocused();
  await page.keyboard.type('ferry');

  const expected = await library.searchApi('ferry');
  expect(expected.hits.length).toBeGreaterThan(1);
  await expect(library.matchCount).toHaveText(`${expected.total} matches`);
  await expect(library.hits).toHaveCount(expected.hits.length);

  const first = library.hits.first();
  const top = expected.hits[0]!;
  await expect(first.locator('mark').first()).toHaveText(/ferry/i);
  await expect(first).toContainText(top.transcriptTitle);
  await expect(first).toContainText(top.speakerName ?? `Speaker ${top.speaker}`);
  const clock = new Date(top.startMs).toISOString().slice(11, 19);
  await expect(first.locator('time')).toHaveText(clock);

  // Arrow keys walk the hits; Enter opens the one in focus at its moment.
  await library.searchBox.press('ArrowDown');
  await expect(first.getByRole('link')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(library.hits.nth(1).getByRole('link')).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(first.getByRole('link')).toBeFocused();

  await first.getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`#/transcript/${interviewId}\\?t=${top.startMs}$`));
  expect(top.transcriptId).toBe(interviewId);
});

test('filters narrow the search and the list', async ({ shell, page }) => {
  await shell.open();
  const library = new LibraryPage(page);
  await twoCompleted(library);

  // "/" outside a text field puts the cursor in the search box.
  await page.getByRole('heading', { name: 'Library', level: 1 }).click();
  await page.keyboard.press('/');
  await expect(library.searchBox).toBeFocused();
  await page.keyboard.type('ferry');
  const all = await library.searchApi('ferry');
  await expect(library.hits).toHaveCount(all.hits.length);
  const bySpeakerB = all.hits.filter((hit) => hit.speaker === 'B').length;
  expect(bySpeakerB).toBeGreaterThan(0);
  expect(bySpeakerB).toBeLessThan(all.hits.length);

  await library.filter('Speaker').selectOption('Speaker B');
  await expect(library.hits).toHaveCount(bySpeakerB);
  for (const hit of await library.hits.all()) await expect(hit).toContainText('Speaker B');

  // A date range before today finds nothing.
  await library.filter('To').fill('2020-01-01');
  await expect(library.matchCount).toHaveText('0 matches');

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(library.hits).toHaveCount(all.hits.length);

  // The status filter also narrows the list.
  await library.search('');
  await expect(library.rows).toHaveCount(2);
  await library.filter('Status').selectOption('Failed');
  await expect(library.rows).toHaveCount(0);
  await expect(page.getByText('No transcript matches these filters.')).toBeVisible();
  await library.filter('Status').selectOption('Completed');
  await expect(library.rows).toHaveCount(2);
});

test('at 1366 × 768 the search box comes first and large, and at least 10 transcripts show', async ({
  shell,
  page,
}) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await shell.open();
  const library = new LibraryPage(page);
  const created = [];
  for (let i = 0; i < 12; i++) created.push(await library.create(i % 2 ? statement : interview));
  for (const { id } of created) {
    await expect(library.status(library.rowById(id))).toHaveText('Completed', { timeout: 20_000 });
  }

  const search = (await library.searchBox.boundingBox())!;
  const filters = (await page.getByRole('group', { name: 'Filters' }).boundingBox())!;
  const list = (await page.getByRole('region', { name: 'Transcripts' }).boundingBox())!;
  expect(search.y + search.height).toBeLessThanOrEqual(filters.y);
  expect(filters.y + filters.height).toBeLessThanOrEqual(list.y);
  expect(search.height).toBeGreaterThanOrEqual(36);
  expect(search.width).toBeGreaterThanOrEqual(500);
  // The filters are one bar, not a form half the screen tall.
  expect(filters.height).toBeLessThanOrEqual(40);
  // Each menu shows its whole choice ("Any language"), never cut.
  const cut = await page
    .getByRole('group', { name: 'Filters' })
    .locator('select')
    .evaluateAll((menus) =>
      (menus as HTMLSelectElement[]).flatMap((menu) => {
        const style = getComputedStyle(menu);
        const context = document.createElement('canvas').getContext('2d')!;
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const text = menu.selectedOptions[0]?.text ?? '';
        // The menu's arrow takes about an em beside the text.
        const arrow = parseFloat(style.fontSize);
        const room =
          menu.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - arrow;
        return context.measureText(text).width > room ? [text] : [];
      }),
    );
  expect(cut).toEqual([]);
  // A row names the language short, the full name on hover.
  const language = library.rowById(created[0]!.id).locator('.language');
  await expect(language).toHaveText('English');
  await expect(language).toHaveAttribute('title', 'English (United States)');
  expect(await library.rowsInView()).toBeGreaterThanOrEqual(10);
  // Only the list scrolls, and nothing sideways.
  const sideways = await page
    .getByRole('region', { name: 'Transcripts' })
    .evaluate((region) => region.scrollWidth - region.clientWidth);
  expect(sideways).toBe(0);
});

test('an active filter is a chip, removed by a click or from the keyboard', async ({ shell, page }) => {
  await shell.open();
  const library = new LibraryPage(page);
  await twoCompleted(library);
  await expect(library.removeFilter('Status')).toHaveCount(0);

  // A click on the chip's ×.
  await library.filter('Status').selectOption('Failed');
  await expect(library.rows).toHaveCount(0);
  await expect(library.removeFilter('Status')).toHaveAccessibleName('Remove filter Status: Failed');
  await library.removeFilter('Status').click();
  await expect(library.rows).toHaveCount(2);
  await expect(library.removeFilter('Status')).toHaveCount(0);
  await expect(library.filter('Status')).toHaveValue('');

  // Tab from the menu to its × and Enter.
  await library.filter('Status').selectOption('Failed');
  await expect(library.rows).toHaveCount(0);
  await library.filter('Status').focus();
  await page.keyboard.press('Tab');
  await expect(library.removeFilter('Status')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(library.rows).toHaveCount(2);

  // Backspace on the menu itself.
  await library.filter('To').fill('2020-01-01');
  await expect(library.rows).toHaveCount(0);
  await expect(library.removeFilter('To')).toBeVisible();
  await library.filter('Speaker').selectOption('Speaker B');
  await library.filter('Speaker').focus();
  await page.keyboard.press('Backspace');
  await expect(library.removeFilter('Speaker')).toHaveCount(0);
  await expect(library.removeFilter('To')).toBeVisible();
  await library.removeFilter('To').click();
  await expect(library.rows).toHaveCount(2);
});

test("a row's actions open in a menu by right-click, by the Menu key and by Shift+F10", async ({
  shell,
  page,
}) => {
  await shell.open();
  const library = new LibraryPage(page);
  const { interviewId } = await twoCompleted(library);
  const row = library.rowById(interviewId);
  const title = (await row.getByRole('link').textContent())!;
  const menu = library.rowMenu(title);

  // The row shows no button row; its actions are on hover and focus.
  await page.getByRole('heading', { name: 'Library', level: 1 }).hover();
  await expect(library.rowActions(row)).toHaveCSS('opacity', '0');
  await row.hover();
  await expect(library.rowActions(row)).toHaveCSS('opacity', '1');
  await expect(
    library.rowActions(row).getByRole('button', { name: `More actions for ${title}` }),
  ).toBeVisible();

  // Right-click: the menu opens at the pointer; Add tag… tags this transcript alone.
  await row.getByRole('link').click({ button: 'right' });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem')).toHaveText([
    'Open',
    'Select',
    'Add tag…',
    'Export…',
    'Apply glossary…',
    'Publish to newsroom…',
    'Delete…',
  ]);
  await expect(menu.getByRole('menuitem', { name: 'Open' })).toBeFocused();
  await menu.getByRole('menuitem', { name: 'Add tag…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Tag this transcript' });
  await dialog.getByLabel('Tag').fill('ferry');
  await dialog.getByRole('button', { name: 'Add tag' }).click();
  await expect(row.getByRole('list', { name: 'Tags' })).toHaveText('ferry');
  expect((await library.list()).filter((item) => item.tags.includes('ferry')).map((item) => item.id)).toEqual(
    [interviewId],
  );

  // Shift+F10 on the focused row; the arrows walk the menu and Enter does the item.
  await row.getByRole('link').focus();
  await page.keyboard.press('Shift+F10');
  await expect(menu.getByRole('menuitem', { name: 'Open' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Select' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(menu).toBeHidden();
  await expect(row.getByRole('checkbox')).toBeChecked();
  await expect(library.bulk).toContainText('1 selected');

  // The Menu key; Escape closes the menu and gives the focus back to the row.
  await row.getByRole('link').focus();
  await page.keyboard.press('ContextMenu');
  await expect(menu).toBeVisible();
  await page.keyboard.press('End');
  await expect(menu.getByRole('menuitem', { name: 'Delete…' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(row.getByRole('link')).toBeFocused();

  // Delete… from the menu removes this transcript only, after the confirmation.
  await row.getByRole('link').click({ button: 'right' });
  await menu.getByRole('menuitem', { name: 'Delete…' }).click();
  await expect(library.deleteDialog).toContainText('Delete this transcript?');
  await library.deleteDialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(library.rows).toHaveCount(1);
  expect((await library.list()).map((item) => item.id)).not.toContain(interviewId);
});

test('several transcripts are tagged, filtered by tag, then deleted after a confirmation', async ({
  shell,
  page,
}) => {
  await shell.open();
  const library = new LibraryPage(page);
  const { interviewId, statementId } = await twoCompleted(library);
  const third = await library.create(interview);
  await expect(library.status(library.rowById(third.id))).toHaveText('Completed', { timeout: 20_000 });
  await expect(library.rows).toHaveCount(3);

  // Click the first box, shift-click the second: a range of two of the three.
  const boxes = library.rows.getByRole('checkbox');
  await boxes.nth(0).click();
  await boxes.nth(1).click({ modifiers: ['Shift'] });
  await expect(library.bulk).toContainText('2 selected');
  const chosen = [
    await library.rows.nth(0).getAttribute('data-id'),
    await library.rows.nth(1).getAttribute('data-id'),
  ];

  await library.addTagToSelection('council');
  for (const id of chosen)
    await expect(library.rowById(id!).getByRole('list', { name: 'Tags' })).toHaveText('council');
  await expect(library.rows.nth(2).getByRole('list', { name: 'Tags' })).toHaveCount(0);
  const stored = await library.list();
  expect(
    stored
      .filter((item) => item.tags.includes('council'))
      .map((item) => item.id)
      .sort(),
  ).toEqual([...chosen].sort());

  await library.filter('Tag').selectOption('council');
  await expect(library.rows).toHaveCount(2);
  await library.filter('Tag').selectOption('');

  // Delete asks first; cancelling keeps everything.
  await library.bulk.getByRole('button', { name: 'Delete…' }).click();
  await expect(library.deleteDialog).toBeVisible();
  await expect(library.deleteDialog).toContainText('Delete 2 transcripts?');
  expect(await seriousViolations(page)).toEqual([]);
  await library.deleteDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(library.deleteDialog).toBeHidden();
  await expect(library.rows).toHaveCount(3);

  await library.bulk.getByRole('button', { name: 'Delete…' }).click();
  await library.deleteDialog.getByLabel('Also delete on the service').check();
  await library.deleteDialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(library.rows).toHaveCount(1);
  const left = (await library.list()).map((item) => item.id);
  expect(left).toHaveLength(1);
  expect(chosen).not.toContain(left[0]);
  expect([interviewId, statementId, third.id]).toContain(left[0]);
});

test('a title made of markup is shown as text', async ({ shell, page }) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await shell.open();
  const library = new LibraryPage(page);
  const created = await library.create(interview);
  await expect(library.status(library.rowById(created.id))).toHaveText('Completed', { timeout: 20_000 });
  const title = '<img src=x onerror=alert(1)>';
  await library.setTitle(created.id, title);

  await expect(library.rowById(created.id).getByRole('link')).toHaveText(title);
  await library.search('ferry');
  await expect(library.hits.first()).toContainText(title);
  await expect(library.main.locator('img')).toHaveCount(0);
  expect(dialogs).toEqual([]);
});

test('the library has no serious accessibility violation; screenshots in both themes', async ({
  shell,
  page,
}) => {
  await shell.open();
  const library = new LibraryPage(page);
  expect(await seriousViolations(page)).toEqual([]); // the empty state

  await twoCompleted(library);
  const failed = await library.create(silence);
  await expect(library.status(library.rowById(failed.id))).toHaveText('Failed', { timeout: 20_000 });

  for (const theme of ['light', 'dark'] as const) {
    await library.useTheme(theme);
    await library.search('');
    await expect(library.rows).toHaveCount(3);
    await library.rows.first().getByRole('checkbox').check();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(screenshotDir, `library-list-${theme}.png`), fullPage: true });
    await library.rows.first().getByRole('checkbox').uncheck();

    await library.search('ferry');
    await expect(library.hits.first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(screenshotDir, `library-search-${theme}.png`), fullPage: true });
  }
});
