import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../server';
import type { Endpoint, Model, PercentileStats, PresetVersion } from './catalog-types';

let emulator: RunningEmulator;
let key: string;
let managementKey: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, euPort: 0, speed: 50 });
  ({ key, managementKey } = emulator.options);
});

afterAll(async () => {
  await emulator.close();
});

interface Answer<T> {
  status: number;
  body: T;
}

async function get<T = unknown>(
  path: string,
  options: { authorization?: string | null; bearer?: string; region?: 'us' | 'eu' } = {},
): Promise<Answer<T>> {
  const base = options.region === 'eu' ? emulator.euUrl : emulator.url;
  const authorization =
    options.authorization === undefined ? `Bearer ${options.bearer ?? managementKey}` : options.authorization;
  const response = await fetch(`${base}/api/v1${path}`, {
    headers: authorization === null ? {} : { Authorization: authorization },
  });
  return { status: response.status, body: (await response.json()) as T };
}

type ModelList = { data: Model[]; total_count: number; links: { next: string | null } };

const OPERATIONS = {
  modelsForUser: '/models/user',
  preset: '/presets/newsroom-summary/versions/1',
  endpoints: '/models/anthropic/claude-sonnet-4.5/endpoints',
  zdr: '/endpoints/zdr',
  count: '/models/count',
};
const MANAGEMENT_ONLY = [OPERATIONS.endpoints, OPERATIONS.zdr, OPERATIONS.count];

function errorBody(code: number, message: string): { error: { code: number; message: string } } {
  return { error: { code, message } };
}

describe('catalog authentication', () => {
  it.each(Object.values(OPERATIONS))('%s answers 401 without a credential', async (path) => {
    expect(await get(path, { authorization: null })).toEqual({
      status: 401,
      body: errorBody(401, 'Missing Authentication header'),
    });
  });

  it('treats a key without the Bearer scheme as a missing credential', async () => {
    const answer = await get(OPERATIONS.modelsForUser, { authorization: key });
    expect(answer).toEqual({ status: 401, body: errorBody(401, 'Missing Authentication header') });
  });

  it.each(Object.values(OPERATIONS))('%s answers 401 to an unknown key, as OpenRouter does', async (path) => {
    expect(await get(path, { bearer: 'sk-or-v1-unknown' })).toEqual({
      status: 401,
      body: errorBody(401, 'User not found.'),
    });
  });

  it.each(MANAGEMENT_ONLY)('%s answers 403 to a normal key and 200 to the management key', async (path) => {
    expect(await get(path, { bearer: key })).toEqual({
      status: 403,
      body: errorBody(403, 'Only management keys can perform this operation'),
    });
    expect((await get(path, { bearer: managementKey })).status).toBe(200);
  });

  it.each([OPERATIONS.modelsForUser, OPERATIONS.preset])('%s accepts both kinds of key', async (path) => {
    expect((await get(path, { bearer: key })).status).toBe(200);
    expect((await get(path, { bearer: managementKey })).status).toBe(200);
  });
});

describe('GET /models/user', () => {
  it('returns the full list when offset and limit are omitted', async () => {
    const { status, body } = await get<ModelList>('/models/user', { bearer: key });
    expect(status).toBe(200);
    expect(body.data.length).toBeGreaterThanOrEqual(300);
    expect(body.total_count).toBe(body.data.length);
    expect(body.links).toEqual({ next: null });
    const model = body.data.find((candidate) => candidate.id === 'anthropic/claude-sonnet-4.5');
    expect(model).toMatchObject({
      canonical_slug: 'anthropic/claude-4.5-sonnet-20250929',
      name: 'Anthropic: Claude Sonnet 4.5',
      context_length: 1_000_000,
      pricing: {
        prompt: '0.000003',
        completion: '0.000015',
        request: '0',
        image: expect.any(String) as string,
      },
      architecture: { modality: 'text+image+file->text', output_modalities: ['text'] },
      links: { details: '/api/v1/models/anthropic/claude-sonnet-4.5/endpoints' },
      top_provider: { is_moderated: true },
    });
  });

  it('pages to the end with offset and limit, without duplicates', async () => {
    const full = (await get<ModelList>('/models/user', { bearer: key })).body;
    const ids: string[] = [];
    let next: string | null = `${emulator.url}/api/v1/models/user?offset=0&limit=37`;
    let pages = 0;
    while (next) {
      const response = await fetch(next, { headers: { Authorization: `Bearer ${key}` } });
      const page = (await response.json()) as ModelList;
      expect(page.total_count).toBe(full.total_count);
      expect(page.data.length).toBeLessThanOrEqual(37);
      ids.push(...page.data.map((model) => model.id));
      next = page.links.next;
      pages += 1;
    }
    expect(pages).toBe(Math.ceil(full.total_count / 37));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(full.data.map((model) => model.id));
  });

  it('pages with only offset (default limit) and past the end', async () => {
    const total = (await get<ModelList>('/models/user', { bearer: key })).body.total_count;
    const tail = (await get<ModelList>(`/models/user?offset=${total - 3}`, { bearer: key })).body;
    expect(tail.data).toHaveLength(3);
    expect(tail.links.next).toBeNull();
    const beyond = (await get<ModelList>(`/models/user?offset=${total + 10}&limit=5`, { bearer: key })).body;
    expect(beyond).toEqual({ data: [], total_count: total, links: { next: null } });
    expect((await get<ModelList>('/models/user?limit=1000', { bearer: key })).status).toBe(200);
    expect((await get<ModelList>('/models/user?limit=1', { bearer: key })).body.data).toHaveLength(1);
  });

  it.each([
    'offset=-1',
    'offset=abc',
    'offset=1.5',
    'limit=0',
    'limit=1001',
    'limit=ten',
    'limit=',
    'offset=2&limit=-4',
  ])('rejects %s with 400', async (query) => {
    expect(await get(`/models/user?${query}`, { bearer: key })).toEqual({
      status: 400,
      body: errorBody(400, 'Invalid request parameters'),
    });
  });

  it('lists through the EU host only models that satisfy EU in-region routing', async () => {
    const us = (await get<ModelList>('/models/user', { bearer: key })).body;
    const eu = (await get<ModelList>('/models/user', { bearer: key, region: 'eu' })).body;
    expect(eu.total_count).toBe(eu.data.length);
    expect(eu.total_count).toBeGreaterThan(0);
    expect(eu.total_count).toBeLessThan(us.total_count);
    const usIds = new Set(us.data.map((model) => model.id));
    for (const model of eu.data) expect(usIds).toContain(model.id);
    const euIds = eu.data.map((model) => model.id);
    expect(euIds).toContain('anthropic/claude-sonnet-4.5');
    expect(euIds).toContain('google/gemini-2.5-flash');
    expect(euIds).not.toContain('openai/gpt-5');
    const page = (await get<ModelList>('/models/user?limit=10', { bearer: key, region: 'eu' })).body;
    expect(page.links.next).toBe(`${emulator.euUrl}/api/v1/models/user?limit=10&offset=10`);
  });
});

describe('GET /models/{author}/{slug}/endpoints', () => {
  function ordered(stats: PercentileStats): boolean {
    return stats.p50 <= stats.p75 && stats.p75 <= stats.p90 && stats.p90 <= stats.p99;
  }

  it('returns the model with its provider endpoints', async () => {
    const { status, body } = await get<{ data: Record<string, unknown> & { endpoints: Endpoint[] } }>(
      OPERATIONS.endpoints,
    );
    expect(status).toBe(200);
    expect(Object.keys(body.data).sort()).toEqual(
      ['architecture', 'created', 'description', 'endpoints', 'id', 'name'].sort(),
    );
    expect(body.data.id).toBe('anthropic/claude-sonnet-4.5');
    expect(body.data.endpoints.map((endpoint) => endpoint.provider_name)).toEqual([
      'Anthropic',
      'Amazon Bedrock',
      'Google',
    ]);
    for (const endpoint of body.data.endpoints) {
      expect(endpoint).toMatchObject({
        model_id: 'anthropic/claude-sonnet-4.5',
        model_name: 'Anthropic: Claude Sonnet 4.5',
      });
      expect(endpoint.status).toBeLessThanOrEqual(0);
      expect(ordered(endpoint.latency_last_30m) && ordered(endpoint.throughput_last_30m)).toBe(true);
      expect(endpoint.pricing.prompt).toMatch(/^\d+(\.\d+)?$/);
    }
  });

  it('finds a model by its canonical slug too', async () => {
    const { status } = await get('/models/anthropic/claude-4.5-sonnet-20250929/endpoints');
    expect(status).toBe(200);
  });

  it('answers 404 for an unknown model', async () => {
    expect(await get('/models/acme/unknown-model/endpoints')).toEqual({
      status: 404,
      body: errorBody(404, 'Resource not found'),
    });
  });

  it("answers 500 with OpenRouter's body when the service fails (reserved slug)", async () => {
    expect(await get('/models/acme/internal-server-error/endpoints')).toEqual({
      status: 500,
      body: errorBody(500, 'Internal Server Error'),
    });
  });
});

describe('GET /endpoints/zdr', () => {
  it('returns a deterministic subset of all endpoints', async () => {
    const first = await get<{ data: Endpoint[] }>(OPERATIONS.zdr);
    const second = await get<{ data: Endpoint[] }>(OPERATIONS.zdr);
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
    const models = (await get<ModelList>('/models/user')).body.data;
    expect(first.body.data.length).toBeGreaterThan(0);
    expect(first.body.data.length).toBeLessThan(models.length * 2);
    const modelIds = new Set(models.map((model) => model.id));
    for (const endpoint of first.body.data) expect(modelIds).toContain(endpoint.model_id);
  });
});

describe('GET /models/count', () => {
  async function count(query: string, region: 'us' | 'eu' = 'us'): Promise<number> {
    const answer = await get<{ data: { count: number } }>(`/models/count${query}`, { region });
    expect(answer.status).toBe(200);
    return answer.body.data.count;
  }

  async function modelsWithOutput(modalities: string[], region: 'us' | 'eu' = 'us'): Promise<number> {
    const models = (await get<ModelList>('/models/user', { region })).body.data;
    return models.filter((model) =>
      model.architecture.output_modalities.some((modality) => modalities.includes(modality)),
    ).length;
  }

  it('counts text-output models by default', async () => {
    expect(await count('')).toBe(await modelsWithOutput(['text']));
  });

  it.each(['text', 'image', 'audio', 'embeddings'])('counts models with %s output', async (modality) => {
    const counted = await count(`?output_modalities=${modality}`);
    expect(counted).toBeGreaterThan(0);
    expect(counted).toBe(await modelsWithOutput([modality]));
  });

  it('counts a comma-separated list as a union, and all models with "all"', async () => {
    expect(await count('?output_modalities=image,embeddings')).toBe(
      await modelsWithOutput(['image', 'embeddings']),
    );
    const total = (await get<ModelList>('/models/user')).body.total_count;
    expect(await count('?output_modalities=all')).toBe(total);
  });

  it('counts through the EU host only the EU-routable models', async () => {
    expect(await count('?output_modalities=all', 'eu')).toBe(
      (await get<ModelList>('/models/user', { region: 'eu' })).body.total_count,
    );
    expect(await count('', 'eu')).toBe(await modelsWithOutput(['text'], 'eu'));
    expect(await count('', 'eu')).toBeLessThan(await count(''));
  });

  it.each(['video', 'text,sound', '', 'all,text'])('rejects output_modalities=%s with 400', async (value) => {
    expect(await get(`/models/count?output_modalities=${value}`)).toEqual({
      status: 400,
      body: errorBody(400, 'Invalid request parameters'),
    });
  });
});

describe('GET /presets/{slug}/versions/{version}', () => {
  it.each([
    ['newsroom-summary', 3],
    ['fact-check', 2],
    ['interview-questions', 3],
    ['headline-ideas', 2],
  ])('serves every version of %s', async (slug, versions) => {
    const presetIds = new Set<string>();
    for (let version = 1; version <= versions; version += 1) {
      const { status, body } = await get<{ data: PresetVersion }>(`/presets/${slug}/versions/${version}`, {
        bearer: key,
      });
      expect(status).toBe(200);
      expect(body.data.version).toBe(version);
      expect(body.data.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(typeof body.data.config.model).toBe('string');
      expect(typeof body.data.config.temperature).toBe('number');
      expect(Date.parse(body.data.created_at)).toBeLessThanOrEqual(Date.parse(body.data.updated_at));
      presetIds.add(body.data.preset_id);
    }
    expect(presetIds.size).toBe(1);
    expect((await get(`/presets/${slug}/versions/${versions + 1}`, { bearer: key })).status).toBe(404);
  });

  it('returns the stored system prompt, or null when the version has none', async () => {
    const withPrompt = await get<{ data: PresetVersion }>('/presets/fact-check/versions/2');
    expect(withPrompt.body.data.system_prompt).toContain('checkable claim');
    const withoutPrompt = await get<{ data: PresetVersion }>('/presets/fact-check/versions/1');
    expect(withoutPrompt.body.data.system_prompt).toBeNull();
  });

  it.each(['0', '-1', 'abc', '1.5', '01', 'v2'])('rejects version %s with 400', async (version) => {
    expect(await get(`/presets/newsroom-summary/versions/${version}`)).toEqual({
      status: 400,
      body: errorBody(400, 'Invalid request parameters'),
    });
  });

  it('rejects a slug that is not URL-safe with 400', async () => {
    expect((await get('/presets/news%20room/versions/1')).status).toBe(400);
  });

  it('answers 404 for an unknown preset and 500 when the service fails', async () => {
    expect(await get('/presets/no-such-preset/versions/1')).toEqual({
      status: 404,
      body: errorBody(404, 'Resource not found'),
    });
    expect(await get('/presets/internal-server-error/versions/1')).toEqual({
      status: 500,
      body: errorBody(500, 'Internal Server Error'),
    });
  });
});

describe('catalog determinism', () => {
  it('serves the same catalog from two separate emulator starts', async () => {
    const other = await startEmulator({ port: 0, speed: 50 });
    try {
      for (const path of ['/models/user', '/endpoints/zdr', '/presets/newsroom-summary/versions/3']) {
        const mine = await get(path);
        const response = await fetch(`${other.url}/api/v1${path}`, {
          headers: { Authorization: `Bearer ${other.options.managementKey}` },
        });
        expect(await response.json()).toEqual(mine.body);
      }
    } finally {
      await other.close();
    }
  });
});
