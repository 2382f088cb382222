import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../../test/emulator/server';
import { VerbatimError } from '../../../shared/errors';
import { CatalogClient, catalogBaseUrl, defaultCatalogUrls } from './catalog-client';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, euPort: 0, speed: 50 });
});
afterAll(() => emulator.close());

function clientFor(
  keys: { catalogKey?: string; managementKey?: string },
  baseUrl = catalogBaseUrl('us', emulator.url),
): CatalogClient {
  return new CatalogClient({
    baseUrl,
    catalogKey: () => keys.catalogKey,
    managementKey: () => keys.managementKey,
    fetch: (input, init) => fetch(input, init),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 5))),
    now: Date.now,
    random: Math.random,
  });
}

const ordinary = (): CatalogClient => clientFor({ catalogKey: emulator.options.key });
const managed = (): CatalogClient =>
  clientFor({ catalogKey: emulator.options.key, managementKey: emulator.options.managementKey });

async function failure(promise: Promise<unknown>): Promise<VerbatimError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof VerbatimError)) throw new Error(`expected a VerbatimError, got ${String(error)}`);
  return error;
}

describe('the catalog base address', () => {
  it('uses the real hosts by default and adds /api/v1 to a bare override', () => {
    expect(catalogBaseUrl('us', undefined)).toBe(defaultCatalogUrls.us);
    expect(catalogBaseUrl('eu', '')).toBe('https://eu.openrouter.ai/api/v1');
    expect(catalogBaseUrl('us', 'http://127.0.0.1:9000')).toBe('http://127.0.0.1:9000/api/v1');
    expect(catalogBaseUrl('eu', 'http://10.0.0.2/router/api/v1/')).toBe('http://10.0.0.2/router/api/v1');
  });
});

describe('GET /models/user', () => {
  it('returns the full list with its total when offset and limit are omitted', async () => {
    const page = await ordinary().listModels();
    expect(page.models.length).toBe(363);
    expect(page.totalCount).toBe(363);
    expect(page.next).toBeUndefined();
    const sonnet = page.models.find((model) => model.id === 'anthropic/claude-sonnet-4.5');
    expect(sonnet).toMatchObject({
      name: 'Anthropic: Claude Sonnet 4.5',
      context_length: 1_000_000,
      pricing: { prompt: '0.000003', completion: '0.000015' },
      architecture: { output_modalities: ['text'] },
      top_provider: { is_moderated: true },
    });
  });

  it('pages to the end by the next links, with the same models as the full list', async () => {
    const client = ordinary();
    const first = await client.listModels({ offset: 0, limit: 50 });
    expect(first.models).toHaveLength(50);
    expect(first.totalCount).toBe(363);
    expect(first.next).toEqual({ offset: 50, limit: 50 });
    const last = await client.listModels({ offset: 350, limit: 50 });
    expect(last.models).toHaveLength(13);
    expect(last.next).toBeUndefined();
    const paged = await client.listAllModels(37);
    const full = await client.listModels();
    expect(paged.map((model) => model.id)).toEqual(full.models.map((model) => model.id));
  });

  it('refuses a page size outside 1..1000 and a negative offset before sending', async () => {
    expect((await failure(ordinary().listModels({ limit: 0 }))).code).toBe('invalid_input');
    expect((await failure(ordinary().listModels({ limit: 1001 }))).code).toBe('invalid_input');
    expect((await failure(ordinary().listModels({ offset: -1 }))).code).toBe('invalid_input');
  });

  it('lists through the EU host only models served in the EU, and counts them', async () => {
    const eu = clientFor(
      { catalogKey: emulator.options.key, managementKey: emulator.options.managementKey },
      catalogBaseUrl('eu', emulator.euUrl),
    );
    const page = await eu.listModels();
    const ids = page.models.map((model) => model.id);
    expect(page.totalCount).toBe(ids.length);
    expect(ids.length).toBeLessThan(363);
    expect(ids).toContain('anthropic/claude-sonnet-4.5');
    expect(ids).not.toContain('openai/gpt-5');
    expect(await eu.countModels('all')).toBe(ids.length);
    expect((await eu.listAllModels(25)).map((model) => model.id)).toEqual(ids);
  });

  it('leads to Settings when no catalog key is set (401 Missing Authentication header)', async () => {
    const error = await failure(clientFor({}).listModels());
    expect(error.code).toBe('unauthorized');
    expect(error.message).toBe(
      'No catalog key is set. Enter your catalog key in Settings, under Model catalog, to list the models.',
    );
    expect(error.details).toMatchObject({ status: 401, serviceMessage: 'Missing Authentication header' });
  });

  it('says a refused key should be checked in Settings', async () => {
    const error = await failure(clientFor({ catalogKey: 'sk-wrong' }).listModels());
    expect(error.code).toBe('unauthorized');
    expect(error.message).toMatch(/did not accept your key\. Check the catalog key in Settings/);
  });
});

describe('GET /models/{author}/{slug}/endpoints', () => {
  it('returns the model with its provider endpoints and their statistics', async () => {
    const model = await managed().modelEndpoints('anthropic/claude-sonnet-4.5');
    expect(model.id).toBe('anthropic/claude-sonnet-4.5');
    expect(model.endpoints.map((endpoint) => endpoint.provider_name)).toEqual([
      'Anthropic',
      'Amazon Bedrock',
      'Google',
    ]);
    const [first] = model.endpoints;
    expect(first?.latency_last_30m?.p50).toBeLessThanOrEqual(first?.latency_last_30m?.p99 ?? 0);
    expect(first?.uptime_last_1d).toBeGreaterThan(0);
    // A field the spec does not list is kept, not dropped.
    expect(first).toHaveProperty('supports_tool_choice');
  });

  it('says the operation needs a management key when only the ordinary key is set (403)', async () => {
    const error = await failure(ordinary().modelEndpoints('anthropic/claude-sonnet-4.5'));
    expect(error.code).toBe('forbidden');
    expect(error.message).toBe(
      "Listing a model's provider endpoints needs a management key. Your catalog key is an ordinary key: add a management key in Settings, under Model catalog.",
    );
    expect(error.details).toMatchObject({
      status: 403,
      serviceMessage: 'Only management keys can perform this operation',
    });
  });

  it('says the management key in Settings was refused when it is an ordinary key', async () => {
    const client = clientFor({ catalogKey: emulator.options.key, managementKey: emulator.options.key });
    const error = await failure(client.zeroDataRetentionEndpoints());
    expect(error.message).toMatch(
      /needs a management key, and the catalog refused the management key in Settings/,
    );
  });

  it('names an unknown model (404) and reports a failing service (500) after retrying', async () => {
    const missing = await failure(managed().modelEndpoints('acme/unknown-model'));
    expect(missing).toMatchObject({
      code: 'not_found',
      message: 'The catalog does not know the model acme/unknown-model.',
    });
    const broken = await failure(managed().modelEndpoints('acme/internal-server-error'));
    expect(broken.code).toBe('service');
    expect(broken.message).toContain('HTTP 500');
    expect(broken.message).toContain('Internal Server Error');
    expect((await failure(managed().modelEndpoints('no-slash'))).code).toBe('invalid_input');
  });
});

describe('GET /endpoints/zdr', () => {
  it('lists the zero-data-retention endpoints of known models', async () => {
    const endpoints = await managed().zeroDataRetentionEndpoints();
    expect(endpoints.length).toBeGreaterThan(0);
    const ids = new Set((await ordinary().listModels()).models.map((model) => model.id));
    for (const endpoint of endpoints) expect(ids).toContain(endpoint.model_id);
  });
});

describe('GET /models/count', () => {
  it('counts by output modality (text by default, a union for several, everything for all)', async () => {
    const client = managed();
    const models = (await client.listModels()).models;
    const withOutput = (wanted: string[]): number =>
      models.filter((model) => model.architecture.output_modalities.some((m) => wanted.includes(m))).length;
    expect(await client.countModels()).toBe(withOutput(['text']));
    expect(await client.countModels(['image'])).toBe(withOutput(['image']));
    expect(await client.countModels(['image', 'embeddings'])).toBe(withOutput(['image', 'embeddings']));
    expect(await client.countModels(['audio'])).toBeGreaterThan(0);
    expect(await client.countModels('all')).toBe(models.length);
  });

  it('needs the management key (403)', async () => {
    const error = await failure(ordinary().countModels());
    expect(error.message).toMatch(/^Counting models by output needs a management key\./);
  });
});

describe('GET /presets/{slug}/versions/{version}', () => {
  it('returns a version with its config and system prompt', async () => {
    const preset = await ordinary().presetVersion('newsroom-summary', 2);
    expect(preset.version).toBe(2);
    expect(preset.config).toMatchObject({ model: 'anthropic/claude-sonnet-4.5', temperature: 0.3 });
    expect(preset.system_prompt).toContain('news editor');
    expect((await ordinary().presetVersion('fact-check', 1)).system_prompt).toBeNull();
  });

  it('names an unknown version (404), refuses a bad slug before sending, and needs a key (401)', async () => {
    expect(await failure(ordinary().presetVersion('fact-check', 9))).toMatchObject({
      code: 'not_found',
      message: 'There is no version 9 of the preset "fact-check".',
    });
    expect((await failure(ordinary().presetVersion('news room', 1))).code).toBe('invalid_input');
    expect((await failure(ordinary().presetVersion('fact-check', 0))).code).toBe('invalid_input');
    expect((await failure(clientFor({}).presetVersion('fact-check', 1))).message).toMatch(
      /^No catalog key is set\. .* to fetch a preset version\.$/,
    );
  });

  it('reports the 400 of the service for parameters it refuses', async () => {
    const error = await failure(managed().countModels([]));
    expect(error).toMatchObject({ code: 'invalid_input' });
    expect(error.message).toContain('Invalid request parameters');
  });
});
