import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { startEmulator, type RunningEmulator } from '../../../../test/emulator/server';
import { migrate } from '../library/database';
import type { CatalogOverview } from '../../../shared/catalog';
import { VerbatimError } from '../../../shared/errors';
import { catalogRowsFrom } from '../../../shared/catalog-rows';
import { CatalogCache } from '../library/catalog-cache';
import { CatalogClient, catalogBaseUrl } from './catalog-client';
import { CATALOG_STALE_AFTER_MS, CatalogService } from './catalog-service';

let emulator: RunningEmulator;
/** The address of a catalog that has gone away: connections are refused. */
let offlineUrl: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed: 50 });
  const gone = await startEmulator({ port: 0 });
  offlineUrl = gone.url;
  await gone.close();
});
afterAll(() => emulator.close());

interface Harness {
  service: CatalogService;
  cache: CatalogCache;
  db: Database.Database;
  clock: { now(): number; advance(ms: number): void };
  setUrl(url: string): void;
  setManagementKey(key: string | undefined): void;
  refreshed(): Promise<CatalogOverview>;
}

function harness(): Harness {
  const db = new Database(':memory:');
  migrate(db);
  const cache = new CatalogCache(db);
  let time = Date.UTC(2026, 10, 23, 9);
  const clock = { now: () => time, advance: (ms: number) => void (time += ms) };
  let url = emulator.url;
  let managementKey: string | undefined = emulator.options.managementKey;
  const clients = new Map<string, CatalogClient>();
  const waiting: ((overview: CatalogOverview) => void)[] = [];
  const service = new CatalogService({
    cache,
    clock,
    connection: () => {
      const key = `${url} ${managementKey}`;
      let client = clients.get(key);
      if (!client) {
        const chosen = managementKey;
        client = new CatalogClient({
          baseUrl: catalogBaseUrl('us', url),
          catalogKey: () => emulator.options.key,
          managementKey: () => chosen,
          fetch: (input, init) => fetch(input, init),
          sleep: () => Promise.resolve(),
          now: Date.now,
          random: Math.random,
        });
        clients.set(key, client);
      }
      return { client, region: 'us' };
    },
    onRefreshed: (overview) => waiting.splice(0).forEach((resolve) => resolve(overview)),
  });
  return {
    service,
    cache,
    db,
    clock,
    setUrl: (next) => void (url = next),
    setManagementKey: (next) => void (managementKey = next),
    refreshed: () => new Promise((resolve) => waiting.push(resolve)),
  };
}

/** A service over `cache` for the emulator's address, which refuses every connection. */
function unreachable(cache: CatalogCache, clock: { now(): number }): CatalogService {
  return new CatalogService({
    cache,
    clock,
    connection: () => ({
      client: new CatalogClient({
        baseUrl: catalogBaseUrl('us', emulator.url),
        catalogKey: () => emulator.options.key,
        managementKey: () => undefined,
        fetch: () => Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } })),
        sleep: () => Promise.resolve(),
        now: Date.now,
        random: Math.random,
      }),
      region: 'us',
    }),
  });
}

let h: Harness;
beforeEach(() => {
  h = harness();
});

describe('the catalog service', () => {
  it('starts empty, refreshes in the background, then answers from the cache', async () => {
    const refreshed = h.refreshed();
    const first = h.service.overview();
    expect(first).toMatchObject({ models: { id: [] }, fetchedAt: null, stale: true, refreshing: true });
    const done = await refreshed;
    expect(done.models.id).toHaveLength(363);
    expect(done).toMatchObject({
      fetchedAt: h.clock.now(),
      stale: false,
      refreshing: false,
      refreshError: null,
    });
    expect(done.counts?.text).toBeGreaterThan(300);
    expect(done.counts?.embeddings).toBeGreaterThan(0);
    expect(done.zdrEndpoints?.length).toBeGreaterThan(0);
    h.clock.advance(60 * 60 * 1000);
    const later = h.service.overview();
    expect(later).toMatchObject({ refreshing: false, stale: false, fetchedAt: done.fetchedAt });
    expect(later.now - (later.fetchedAt ?? 0)).toBe(60 * 60 * 1000);
  });

  it('keeps the cache and reports the error when a stale refresh cannot reach the service', async () => {
    await h.service.refresh();
    const fetchedAt = h.clock.now();
    // The cache is kept per address: another host has none of its own.
    h.setUrl(offlineUrl);
    expect(h.service.overview().models.id).toHaveLength(0);
    h.clock.advance(CATALOG_STALE_AFTER_MS);
    // The same host, now unreachable.
    const failing = unreachable(h.cache, h.clock);
    const stale = failing.overview();
    expect(stale).toMatchObject({ stale: true, refreshing: true, fetchedAt });
    expect(stale.models.id).toHaveLength(363);
    const after = await failing.refresh();
    expect(after.models.id).toHaveLength(363);
    expect(after.fetchedAt).toBe(fetchedAt);
    expect(after.refreshError).toMatch(
      /Nothing answers at the model catalog's address \(127\.0\.0\.1:\d+: connection refused\)/,
    );
  });

  it('says counts and ZDR need the management key, and still lists the models', async () => {
    h.setManagementKey(undefined);
    const overview = await h.service.refresh();
    expect(overview.models.id).toHaveLength(363);
    expect(overview.counts).toBeNull();
    expect(overview.countsError).toMatch(/^Counting models by output needs a management key/);
    expect(overview.zdrError).toMatch(/zero-data-retention endpoints needs a management key/);
  });

  it('lists lean rows in name order and gives a model in full from the cache, offline too', async () => {
    const models = catalogRowsFrom((await h.service.refresh()).models);
    const names = models.map((row) => row.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    const full = h.service.models();
    expect(full).toHaveLength(363);
    expect(new Set(models.map((row) => row.id))).toEqual(new Set(full.map((model) => model.id)));

    // A fresh start with the service gone: the page still opens from the saved copy.
    const offline = unreachable(new CatalogCache(h.db), h.clock);
    const sonnet = full.find((model) => model.id === 'anthropic/claude-sonnet-4.5');
    expect(offline.model('anthropic/claude-sonnet-4.5')).toEqual(sonnet);
    expect(offline.model('anthropic/claude-sonnet-4.5').architecture.tokenizer).toBeTruthy();
    const missing = (() => {
      try {
        return offline.model('acme/never-listed');
      } catch (error) {
        return error;
      }
    })();
    expect(missing).toBeInstanceOf(VerbatimError);
    expect(missing).toMatchObject({ code: 'not_found' });
    expect((missing as VerbatimError).message).toMatch(/not in the saved catalog/);
  });

  it('runs one refresh at a time', async () => {
    const [a, b] = [h.service.refresh(), h.service.refresh()];
    expect(await a).toEqual(await b);
  });

  it("caches a model's endpoints, serves them offline with the error, and sums up their speed", async () => {
    const online = await h.service.endpoints('anthropic/claude-sonnet-4.5');
    expect(online).toMatchObject({ error: null, fetchedAt: h.clock.now() });
    expect(online.model.endpoints).toHaveLength(3);
    h.clock.advance(1000);
    expect((await h.service.endpoints('anthropic/claude-sonnet-4.5')).fetchedAt).toBe(online.fetchedAt);
    const speeds = h.service.overview().speeds['anthropic/claude-sonnet-4.5'];
    const p50s = online.model.endpoints.map((e) => e.throughput_last_30m?.p50 ?? 0);
    expect(speeds?.throughputP50).toBe(Math.max(...p50s));
    expect(speeds?.latencyP50).toBe(
      Math.min(...online.model.endpoints.map((e) => e.latency_last_30m?.p50 ?? 0)),
    );

    h.setManagementKey(undefined);
    const refused = await h.service.endpoints('anthropic/claude-sonnet-4.5', { refresh: true });
    expect(refused.fetchedAt).toBe(online.fetchedAt);
    expect(refused.error).toMatch(/needs a management key/);
    await expect(h.service.endpoints('openai/gpt-5')).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('keeps preset versions for offline use, but not one the service says is gone', async () => {
    const online = await h.service.preset('newsroom-summary', 3);
    expect(online.preset.system_prompt).toContain('at most five sentences');
    const error = await h.service.preset('newsroom-summary', 7).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(VerbatimError);
    expect(h.cache.preset(emulator.url + '/api/v1', 'newsroom-summary', 3)?.value.version).toBe(3);
  });

  it('skips a damaged cached row instead of failing', async () => {
    await h.service.refresh();
    h.db.prepare('UPDATE catalog_models SET json = \'{"id": 5}\' WHERE position = 0').run();
    // A new start of the app reads the rows again (this cache remembers the list it read).
    const host = `${emulator.url}/api/v1`;
    expect(h.cache.models(host)?.value).toHaveLength(363);
    expect(new CatalogCache(h.db).models(host)?.value).toHaveLength(362);
  });
});
