import type { Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWebApp } from '../../src/web-host/start';
import { catalogBaseUrl } from '../../src/main/core/catalog/catalog-client';
import type { CatalogModel } from '../../src/shared/catalog';
import { percentile, seededRandom, type Measurement } from '../bench-kit';
import { launchBenchBrowser, newBenchPage, requireBenchBrowser } from './bench-browser';
import { timeInPage } from './page-timing';

/**
 * The Catalog view in Chromium over a cached catalog of 5,000 models, through the web host:
 * - filter-as-you-type: from a keystroke in the search box to the filtered list laid out and
 *   ready to paint, against a plain Array.filter over the same 5,000 texts in the same page;
 * - opening the view from the cache in a freshly loaded page, to first paint of the list,
 *   against opening Settings the same way (and, in the notes, opening it again in the session
 *   and the time spent fetching the cached catalog over the web host's transport).
 * Targets: p95 keystroke under 16 ms; p95 open under 150 ms. Opening is held at its p95 over
 * 30 fresh pages, not its median: a journalist meets the slow openings too.
 */
const OPEN_ROUNDS = 30;

const MODEL_COUNT = 5000;
const QUERY = 'fast reasoning tools';
const WORDS =
  'fast reasoning model tools vision long context multilingual coding agent summary careful small large open weights instruct chat audio image efficient private'.split(
    ' ',
  );
const AUTHORS = ['acme', 'northwind', 'contoso', 'globex', 'initech', 'umbrella', 'hooli', 'vandelay'];
const PARAMETERS = ['max_tokens', 'temperature', 'top_p', 'tools', 'tool_choice', 'response_format', 'seed'];

function syntheticModels(count: number): CatalogModel[] {
  const random = seededRandom(7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  return Array.from({ length: count }, (_, index) => {
    const author = pick(AUTHORS);
    const slug = `${pick(WORDS)}-${pick(WORDS)}-${index}`;
    const description = Array.from({ length: 30 }, () => pick(WORDS)).join(' ');
    const image = random() < 0.2;
    return {
      id: `${author}/${slug}`,
      canonical_slug: `${author}/${slug}-2026`,
      name: `${author}: ${slug.replaceAll('-', ' ')}`,
      description,
      created: 1_700_000_000 + index * 3600,
      context_length: pick([8192, 32_768, 128_000, 200_000, 1_000_000]),
      architecture: {
        input_modalities: image ? ['text', 'image'] : ['text'],
        output_modalities: ['text'],
        modality: image ? 'text+image->text' : 'text->text',
        tokenizer: 'Other',
        instruct_type: null,
      },
      pricing: { prompt: (random() * 0.00002).toFixed(9), completion: (random() * 0.00006).toFixed(9) },
      supported_parameters: PARAMETERS.filter(() => random() < 0.6),
      top_provider: { context_length: 128_000, is_moderated: random() < 0.3, max_completion_tokens: 16_384 },
    };
  });
}

/**
 * Types the query one key at a time (then erases it), timing each keystroke from the input
 * event to the list updated and laid out (a forced layout after Svelte's flush), and also to
 * the next painted frame, which adds the wait for the display's vsync.
 */
async function typeAndTime(page: Page, query: string): Promise<{ layout: number[]; painted: number[] }> {
  return page.evaluate(async (query) => {
    const input = document.querySelector<HTMLInputElement>('[data-testid="catalog-search"]');
    const list = document.querySelector<HTMLElement>('[data-testid="model-list"]');
    if (!input || !list) throw new Error('The catalog view is not open');
    const macrotask = (): Promise<void> =>
      new Promise((done) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => done();
        channel.port2.postMessage(null);
      });
    const layout: number[] = [];
    const painted: number[] = [];
    const texts = [...query].map((_, i) => query.slice(0, i + 1));
    for (const text of [...texts, ...texts.slice(0, -1).reverse(), '']) {
      const t0 = performance.now();
      input.value = text;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await macrotask();
      list.getBoundingClientRect();
      void document.body.offsetHeight;
      layout.push(performance.now() - t0);
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      painted.push(performance.now() - t0);
    }
    return { layout, painted };
  }, query);
}

/** The floor: a plain Array.filter of 5,000 lower-cased texts per keystroke, in the same page. */
async function plainFilter(page: Page, models: CatalogModel[], query: string): Promise<number[]> {
  const texts = models.map((m) => `${m.name}\n${m.id}\n${m.description}`);
  return page.evaluate(
    ({ texts, query }) => {
      const lower = texts.map((text) => text.toLowerCase());
      const times: number[] = [];
      const prefixes = [...query].map((_, i) => query.slice(0, i + 1));
      for (const text of [...prefixes, ...prefixes.slice(0, -1).reverse()]) {
        const t0 = performance.now();
        const words = text.split(/\s+/).filter(Boolean);
        const found = lower.filter((haystack) => words.every((word) => haystack.includes(word)));
        if (found.length < 0) throw new Error('unreachable');
        times.push(performance.now() - t0);
      }
      return times;
    },
    { texts, query },
  );
}

export async function run(): Promise<Measurement[]> {
  requireBenchBrowser('catalog');
  const dir = mkdtempSync(join(tmpdir(), 'verbatim-bench-catalog-'));
  // Nothing listens there: the view must work from the cache alone.
  const catalogUrl = 'http://127.0.0.1:9';
  const host = await startWebApp({ dataDir: join(dir, 'data'), catalogUrl, catalogKey: 'bench' });
  const browser = await launchBenchBrowser('catalog');

  try {
    const models = syntheticModels(MODEL_COUNT);
    host.services.core.database.catalogCache.saveModels(catalogBaseUrl('us', catalogUrl), models, Date.now());

    const page = await newBenchPage(browser);
    // Each opening starts from a fresh page, so the catalog really comes from main's cache.
    const open: number[] = [];
    const settings: number[] = [];
    for (let round = 0; round < OPEN_ROUNDS; round++) {
      await page.goto(host.openUrl);
      await page.getByRole('heading', { name: 'Library', exact: true }).waitFor();
      open.push((await timeInPage(page, '#/catalog', '[data-testid="model-row"]')).paint);
      await page.goto(host.openUrl);
      await page.getByRole('heading', { name: 'Library', exact: true }).waitFor();
      settings.push((await timeInPage(page, '#/settings', 'input[name=theme]')).paint);
    }

    // Opening it again in the same session: the page still holds the catalog it was sent.
    const reopen: number[] = [];
    for (let round = 0; round < 5; round++) {
      await page.evaluate(() => (window.location.hash = '#/library'));
      await page.getByRole('heading', { name: 'Library', exact: true }).waitFor();
      reopen.push((await timeInPage(page, '#/catalog', '[data-testid="model-row"]')).paint);
    }
    // The share of opening spent fetching the cached catalog over the transport.
    const transport: number[] = [];
    for (let round = 0; round < 5; round++) {
      transport.push(
        await page.evaluate(async () => {
          const t0 = performance.now();
          const bridge = (window as unknown as { api: { catalog: { overview(): Promise<unknown> } } }).api;
          await bridge.catalog.overview();
          return performance.now() - t0;
        }),
      );
    }
    const layout: number[] = [];
    const painted: number[] = [];
    const plain: number[] = [];
    for (let round = 0; round < 5; round++) {
      const timed = await typeAndTime(page, QUERY);
      layout.push(...timed.layout);
      painted.push(...timed.painted);
      plain.push(...(await plainFilter(page, models, QUERY)));
    }
    const shown = await page.getByTestId('model-row').count();

    const keystroke = percentile(layout, 95);
    const plainP95 = percentile(plain, 95);
    const openMs = percentile(open, 95);
    const settingsMs = percentile(settings, 95);
    return [
      {
        name: `catalog: p95 time from keystroke to filtered list, ${MODEL_COUNT.toLocaleString('en-US')} models (Chromium)`,
        statistic: 'p95',
        unit: 'ms',
        ours: keystroke,
        baseline: plainP95,
        baselineLabel: 'a bare Array.filter of the same lower-cased texts in the same page, p95',
        targets: [{ of: 'ours', statistic: 'p95', comparison: '<', threshold: 16, unit: 'ms' }],
        notes: {
          p50: percentile(layout, 50),
          p95ToNextPaintedFrame: percentile(painted, 95),
          keystrokes: layout.length,
          rowsInPage: shown,
          models: MODEL_COUNT,
        },
      },
      {
        name: `catalog: p95 time to open the view from the cache to first paint, ${MODEL_COUNT.toLocaleString('en-US')} models (${OPEN_ROUNDS} fresh pages, Chromium)`,
        statistic: 'p95',
        unit: 'ms',
        ours: openMs,
        baseline: settingsMs,
        baselineLabel: 'opening the Settings view the same way, p95',
        targets: [{ of: 'ours', statistic: 'p95', comparison: '<', threshold: 150, unit: 'ms' }],
        notes: {
          p50: percentile(open, 50),
          slowestMs: Math.max(...open),
          settingsP50: percentile(settings, 50),
          fetchOverviewP50Ms: percentile(transport, 50),
          reopenInSessionP50Ms: percentile(reopen, 50),
          models: MODEL_COUNT,
        },
      },
    ];
  } finally {
    await browser.close();
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
