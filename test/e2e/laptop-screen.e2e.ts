import AxeBuilder from '@axe-core/playwright';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { test as base, expect, fixtureDir, screenshotDir, speed } from './fixtures';
import { startWebApp } from '../../src/web-host/start';
import type { WebHost } from '../../src/web-host/web-host';
import { viewLabels } from './pages/app-shell';
import { CatalogPage } from './pages/catalog-page';
import { ExportDialog } from './pages/export-page';
import { ReaderPage } from './pages/reader-page';

/**
 * What a journalist sees on a 1366 × 768 laptop, the most common screen: nothing cut off or
 * running off an edge, words instead of codes, one way of writing a date and a price.
 */
const test = base.extend<{ host: WebHost }>({
  host: async ({ emulator }, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-e2e-laptop-'));
    const host = await startWebApp({
      dataDir,
      apiKey: emulator.options.key,
      transcriptionUrl: emulator.url,
      gatewayUrl: emulator.url,
      catalogUrl: emulator.url,
      catalogKey: emulator.options.key,
      managementKey: emulator.options.managementKey,
      timeScale: speed,
    });
    await use(host);
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  },
});
test.use({ viewport: { width: 1366, height: 768 } });

const interview = join(fixtureDir, 'interview-ferry-contract.wav');

/** Elements whose text is wider than their box (cut off, or hidden behind an ellipsis). */
function clipped(elements: Locator): Promise<string[]> {
  return elements.evaluateAll((nodes) =>
    nodes.filter((node) => node.scrollWidth > node.clientWidth + 1).map((node) => node.textContent ?? ''),
  );
}

/** How far an element's right edge runs past the window's and past its container's. */
async function overflowRight(page: Page, element: Locator, container: Locator): Promise<[number, number]> {
  const box = await element.boundingBox();
  const outer = await container.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  if (!box || !outer) throw new Error('The element or its container is not laid out.');
  return [Math.max(0, box.x + box.width - width), Math.max(0, box.x + box.width - (outer.x + outer.width))];
}

const onePriceFormat = /^(\$\d[\d,]*\.\d{2,}( \/ M tokens)?|Free|Unknown)$/;

test('the catalog fits a laptop screen: whole names and prices, endpoints within the page, one price format', async ({
  page,
  shell,
}) => {
  const catalog = new CatalogPage(page);
  await shell.open();
  await shell.goTo('catalog');
  await expect(catalog.found).toHaveText(/^\d+ of 363 models/, { timeout: 10_000 });
  const rows = catalog.rows;
  const filters = page.getByRole('form', { name: 'Filter models' });

  /** Every row in view shows its whole name, id and prices, and no row covers the next. */
  async function expectWholeRows(): Promise<void> {
    expect(await rows.count()).toBeGreaterThan(5);
    expect(await clipped(rows.locator('.name, .meta'))).toEqual([]);
    const boxes = await rows.evaluateAll((nodes) =>
      nodes
        .map((node) => node.getBoundingClientRect())
        .map((rect) => ({ top: rect.top, bottom: rect.bottom })),
    );
    for (const [i, box] of boxes.entries()) {
      if (i > 0) expect(box.top).toBeGreaterThanOrEqual(boxes[i - 1]!.bottom - 1);
    }
    // No filter field reaches into the list.
    expect(await overflowRight(page, filters, filters.locator('..'))).toEqual([0, 0]);
    const fields = await filters.locator('input:not([type="checkbox"]), select').all();
    for (const field of fields) expect(await overflowRight(page, field, filters)).toEqual([0, 0]);
  }

  await catalog.search.fill('claude');
  await expectWholeRows();
  await catalog.search.fill('sonnet 4.5');
  await catalog.openModel('Anthropic: Claude Sonnet 4.5');
  await expect(catalog.endpointRows).toHaveCount(3);
  // With a model open the list is narrower: still nothing cut off.
  await catalog.search.fill('');
  await expect(catalog.found).toHaveText(/^363 of 363 models/);
  await expectWholeRows();

  // The endpoint table stays inside the model's column and the window.
  const endpoints = page.getByTestId('endpoint-table');
  await endpoints.scrollIntoViewIfNeeded();
  expect(await overflowRight(page, endpoints, catalog.modelPage)).toEqual([0, 0]);
  expect(await clipped(catalog.endpointRows.locator('th, td'))).toEqual([]);
  await page.screenshot({ path: join(screenshotDir, 'laptop-catalog-endpoints.png') });
  await expect(catalog.endpointRows.first().getByRole('rowheader')).toContainText('Anthropic');
  await expect(catalog.endpointRows.first().getByRole('cell').first()).toBeVisible();

  // Prices read one way in the list, on the model's page and in the endpoints.
  const listPrices = await rows
    .locator('.meta')
    .allTextContents()
    .then((texts) =>
      texts.flatMap((text) => [...text.matchAll(/(?:in|out) (\S+(?: \/ M tokens)?)/g)].map((m) => m[1]!)),
    );
  const pagePrices = await catalog.modelPage
    .locator('dt', { hasText: /price/i })
    .locator('xpath=following-sibling::dd[1]')
    .allTextContents();
  const endpointPrices = await catalog.endpointRows
    .locator('td[data-label="Input"], td[data-label="Output"]')
    .allTextContents();
  expect(listPrices.length).toBeGreaterThan(5);
  expect(pagePrices.length).toBeGreaterThanOrEqual(2);
  expect(endpointPrices).toHaveLength(6);
  for (const price of [...listPrices, ...pagePrices, ...endpointPrices].map((text) => text.trim())) {
    expect(price).toMatch(onePriceFormat);
  }
  expect(endpointPrices[0]!.trim()).toBe(pagePrices[0]!.trim());

  const axe = await new AxeBuilder({ page }).include('main').analyze();
  expect(axe.violations.map((violation) => violation.id)).toEqual([]);
});

test('the navigation keeps each view on one line', async ({ page, shell }) => {
  await shell.open();
  const heights = await shell.nav
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => Math.round(link.getBoundingClientRect().height)));
  // One link per view, each a single line as tall as the others.
  expect(heights).toHaveLength(Object.keys(viewLabels).length);
  expect(new Set(heights).size).toBe(1);
  await expect(shell.navLink('new')).toBeVisible();
  expect(await clipped(shell.nav.getByRole('link').locator('span'))).toEqual([]);
  await page.screenshot({ path: join(screenshotDir, 'laptop-library-empty.png') });
});

test('an empty library speaks of no search box it does not show', async ({ page, shell }) => {
  await shell.open();
  const empty = page.getByRole('heading', { name: 'Your library is empty' }).locator('..');
  await expect(empty).toBeVisible();
  await expect(page.getByRole('searchbox')).toHaveCount(0);
  await expect(empty).not.toContainText(/search box (above|below)/);
  await expect(empty).toContainText('Once there is one, a search box finds any sentence');
});

test('a recording reads the same in the library, the reader and its export: one date, a language name, topics in words', async ({
  page,
  shell,
}) => {
  await shell.open();
  const reader = new ReaderPage(page);
  await reader.openNewTranscript(interview, { iab_categories: true, speaker_labels: true });

  const readerMeta = page.getByRole('main').locator('header.top .meta');
  await expect(readerMeta).toContainText('English (United States)');
  await expect(readerMeta).not.toContainText('en_us');
  const readerDate = (await readerMeta.locator('time').textContent())?.trim() ?? '';
  expect(readerDate).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/);

  // Topics in words, each with its percentage inside the panel.
  await reader.analyses.getByRole('tab', { name: 'Topics' }).click();
  const topics = reader.analyses.locator('li.topic');
  await expect(topics.first()).toBeVisible();
  const topicNames = await topics.locator('.topic-name').allTextContents();
  expect(topicNames.length).toBeGreaterThan(0);
  for (const name of topicNames) {
    expect(name).not.toMatch(/[a-z][A-Z]|>/);
    expect(name).toMatch(/^[A-Z][\w&,' -]*( › [A-Z][\w&,' -]*)*$/);
  }
  const panel = await reader.analyses.boundingBox();
  for (const percent of await topics.locator('.time').all()) {
    await expect(percent).toHaveText(/^\d{1,3}%$/);
    const box = await percent.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(panel!.x + panel!.width);
  }

  // The export's header writes the same date and the language's name; the preview wraps, not clips.
  const dialog = new ExportDialog(page);
  await dialog.openFromReader();
  await dialog.format.selectOption({ label: 'Word document (.docx)' });
  await expect(dialog.preview).toContainText(`Date: ${readerDate}`);
  await expect(dialog.preview).toContainText('Language: English (United States)');
  const preview = await dialog.preview.evaluate((node) => ({
    overflow: node.scrollWidth - node.clientWidth,
    font: getComputedStyle(node).fontFamily,
  }));
  expect(preview.overflow).toBeLessThanOrEqual(1);
  expect(preview.font).not.toMatch(/mono/i);
  await page.keyboard.press('Escape');

  // The library row: the same date, the language by name, and the language filter by name.
  await shell.goTo('library');
  const row = page.getByRole('listitem').filter({ hasText: 'interview-ferry-contract' }).first();
  await expect(row.locator('time')).toHaveText(readerDate);
  // The row's narrow column says the language's short name, its whole name on hover.
  await expect(row.getByTitle('English (United States)')).toHaveText('English');
  await expect(
    page.getByLabel('Language').locator('option', { hasText: 'English (United States)' }),
  ).toHaveCount(1);
});

test('the Assistant view has styled controls and a labelled microphone level', async ({ page, shell }) => {
  await shell.open();
  await shell.goTo('assistant');
  const level = page.getByLabel('Microphone level');
  await expect(level).toBeVisible();
  expect(await level.evaluate((node) => node.tagName)).toBe('METER');
  await expect(page.locator('label[for="microphone-level"]')).toBeVisible();

  const looks = await page
    .getByRole('main')
    .locator('button, select')
    .evaluateAll((nodes) =>
      nodes.map((node) => {
        const style = getComputedStyle(node);
        return { radius: style.borderRadius, font: style.fontFamily, size: style.fontSize };
      }),
    );
  expect(looks.length).toBeGreaterThanOrEqual(4);
  const body = await page.evaluate(() => {
    const style = getComputedStyle(document.body);
    return { font: style.fontFamily, size: style.fontSize };
  });
  // The app's own look, not the browser's default control (square corners, 13.33 px Arial).
  for (const look of looks) expect(look).toEqual({ radius: '6px', ...body });

  const axe = await new AxeBuilder({ page }).include('main').analyze();
  expect(axe.violations.map((violation) => violation.id)).toEqual([]);
});
