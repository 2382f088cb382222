import AxeBuilder from '@axe-core/playwright';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect, speed } from './fixtures';
import { startWebApp } from '../../src/web-host/start';
import type { WebHost } from '../../src/web-host/web-host';
import { CatalogPage } from './pages/catalog-page';

/**
 * The catalog's web host gets the emulator's catalog key and, unless a test asks for the
 * ordinary key only, its management key.
 */
const test = base.extend<{ keys: 'management' | 'ordinary'; host: WebHost }>({
  keys: ['management', { option: true }],
  host: async ({ emulator, keys }, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verbatim-e2e-catalog-'));
    const host = await startWebApp({
      dataDir,
      apiKey: emulator.options.key,
      transcriptionUrl: emulator.url,
      catalogKey: emulator.options.key,
      managementKey: keys === 'management' ? emulator.options.managementKey : undefined,
      catalogUrl: emulator.url,
      timeScale: speed,
    });
    await use(host);
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  },
});

async function openCatalog(
  shell: { open(): Promise<void>; goTo(view: 'catalog'): Promise<void> },
  catalog: CatalogPage,
) {
  await shell.open();
  await shell.goTo('catalog');
  await expect(catalog.found).toHaveText(/^\d+ of 363 models/, { timeout: 10_000 });
}

test('searches and filters the catalog as you type, with counts per output and prices per million tokens', async ({
  shell,
  page,
}) => {
  const catalog = new CatalogPage(page);
  await openCatalog(shell, catalog);
  await expect(catalog.age).toHaveText(/^Saved (just now|1 minute ago)$/);
  await expect(catalog.counts).toContainText(/text \d+/);
  await expect(catalog.counts).toContainText(/image \d+/);

  await catalog.search.fill('sonnet 4.5');
  await expect(catalog.row('Anthropic: Claude Sonnet 4.5')).toBeVisible();
  await expect(catalog.row('Anthropic: Claude Sonnet 4.5')).toContainText('in $3.00 / M tokens');
  const sonnets = await catalog.foundCount();
  expect(sonnets).toBeGreaterThan(0);
  expect(sonnets).toBeLessThan(10);

  await catalog.search.fill('');
  await catalog.outputFilter('image').check();
  const images = await catalog.foundCount();
  expect(images).toBeGreaterThan(0);
  expect(images).toBeLessThan(363);
  await catalog.outputFilter('image').uncheck();
  await catalog.parameterFilter('tools').check();
  await catalog.priceMax.fill('1');
  await catalog.sort.selectOption('price');
  const cheapWithTools = await catalog.foundCount();
  expect(cheapWithTools).toBeGreaterThan(0);
  const firstPrice = await catalog.rows.first().textContent();
  expect(firstPrice).toMatch(/in (Free|\$0\.\d+)/);
  expect(firstPrice).not.toMatch(/0\.0000/);

  const axe = await new AxeBuilder({ page }).include('main').analyze();
  expect(axe.violations).toEqual([]);
});

test('opens a model with its endpoint charts, compares it, and uses it for Ask', async ({ shell, page }) => {
  const catalog = new CatalogPage(page);
  await openCatalog(shell, catalog);
  await catalog.search.fill('claude sonnet 4.5');
  await catalog.openModel('Anthropic: Claude Sonnet 4.5');
  await expect(catalog.endpointRows).toHaveCount(3);
  await expect(catalog.endpointRows.first().getByRole('rowheader')).toContainText('Anthropic');
  const latency = catalog.endpointRows.first().getByRole('img', { name: /^Latency: p50 [\d,.]+ ms, p75/ });
  await expect(latency).toBeVisible();
  expect(await latency.locator('rect').count()).toBe(4);
  await expect(
    catalog.endpointRows.first().getByRole('img', { name: /^Throughput: p50 .* tokens\/s/ }),
  ).toBeVisible();
  await expect(catalog.modelPage).toContainText('$15.00 / M tokens');
  await expect(catalog.modelPage.getByText(/^Supported parameters$/)).toBeVisible();

  await catalog.modelPage.getByRole('button', { name: 'Compare' }).click();
  await catalog.search.fill('gemini 2.5 flash');
  await catalog.row('Google: Gemini 2.5 Flash').getByRole('checkbox').check();
  await expect(catalog.compareTable.getByRole('columnheader')).toHaveCount(2);

  // Sonnet 4.5 is Ask's model already; choosing Gemini changes it.
  await expect(catalog.modelPage.getByRole('button', { name: 'Used for Ask' })).toBeDisabled();
  await catalog.openModel('Google: Gemini 2.5 Flash');
  await catalog.modelPage.getByRole('button', { name: 'Use for Ask' }).click();
  await expect(catalog.announcement).toHaveText(
    'Ask will now use Google: Gemini 2.5 Flash (google/gemini-2.5-flash).',
  );
  await expect(catalog.modelPage.getByRole('button', { name: 'Used for Ask' })).toBeDisabled();
  const axe = await new AxeBuilder({ page }).include('main').analyze();
  expect(axe.violations).toEqual([]);
});

test.describe('with an ordinary key only', () => {
  test.use({ keys: 'ordinary' });

  test('says which operations need the management key, and still lists the models', async ({
    shell,
    page,
  }) => {
    const catalog = new CatalogPage(page);
    await openCatalog(shell, catalog);
    await expect(catalog.countsError).toHaveText(
      'Counting models by output needs a management key. Your catalog key is an ordinary key: add a management key in Settings, under Model catalog.',
    );
    await catalog.search.fill('gpt-5');
    await catalog.rows.first().getByRole('button').click();
    await expect(catalog.endpointsError).toContainText(
      "Listing a model's provider endpoints needs a management key.",
    );
  });
});

test('browses the cached catalog with its age after the service has stopped', async ({
  shell,
  page,
  emulator,
}) => {
  const catalog = new CatalogPage(page);
  await openCatalog(shell, catalog);
  await catalog.search.fill('claude sonnet 4.5');
  await catalog.openModel('Anthropic: Claude Sonnet 4.5');
  await expect(catalog.endpointRows).toHaveCount(3);

  await emulator.close();
  await page.reload();
  await expect(catalog.found).toHaveText(/^363 of 363 models/);
  await expect(catalog.age).toHaveText(/^Saved (just now|\d+ minutes? ago)$/);
  await catalog.refresh.click();
  await expect(catalog.refreshError).toContainText('could not be refreshed; showing the saved copy');
  await expect(catalog.refreshError).toContainText("Nothing answers at the model catalog's address");
  await catalog.search.fill('claude sonnet 4.5');
  await catalog.openModel('Anthropic: Claude Sonnet 4.5');
  // The list holds lean rows: the page's details come from the saved model in full.
  await expect(catalog.modelPage.getByRole('definition').filter({ hasText: /^Claude$/ })).toHaveCount(1);
  await expect(catalog.endpointRows).toHaveCount(3);
  await expect(catalog.age).toBeVisible();
});

test('shows markup in a model description as plain text, never running it', async ({ shell, page }) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const catalog = new CatalogPage(page);
  await openCatalog(shell, catalog);
  await catalog.search.fill('renderer check script');
  await catalog.rows.first().getByRole('button').click();
  await expect(catalog.modelPage).toContainText(
    'Renderer check: <script>alert("catalog")</script> must show',
  );
  expect(await catalog.modelPage.locator('script').count()).toBe(0);
  expect(dialogs).toEqual([]);
});

for (const size of [
  { width: 1366, height: 768 },
  { width: 1024, height: 640 },
]) {
  test(`the catalog fits the window at ${size.width} × ${size.height}: its list, filters and model each scroll on their own`, async ({
    shell,
    page,
  }) => {
    await page.setViewportSize(size);
    const catalog = new CatalogPage(page);
    await openCatalog(shell, catalog);
    await catalog.search.fill('sonnet 4.5');
    await catalog.openModel('Anthropic: Claude Sonnet 4.5');
    await catalog.modelPage.getByRole('button', { name: 'Compare' }).click();
    await catalog.search.fill('');
    await expect(catalog.compareTable).toBeVisible();
    const main = page.getByRole('main');
    const mainOverflow = () => main.evaluate((element) => element.scrollHeight - element.clientHeight);
    expect(await mainOverflow()).toBeLessThanOrEqual(0);
    // Each column is within the window, and scrolls by itself when wheeled.
    const height = size.height;
    for (const region of [
      page.locator('.scroller'),
      page.getByRole('complementary'),
      catalog.modelPage.locator('xpath=..'),
    ]) {
      const box = (await region.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(height);
      const before = await region.evaluate((element) => element.scrollTop);
      await region.hover();
      await page.mouse.wheel(0, 600);
      await expect
        .poll(() => region.evaluate((element) => element.scrollTop), { message: 'the column scrolls' })
        .toBeGreaterThan(before);
    }
    await expect(shell.heading).toBeInViewport();
    expect(await main.evaluate((element) => element.scrollTop)).toBe(0);
    expect(await mainOverflow()).toBeLessThanOrEqual(0);
  });
}
