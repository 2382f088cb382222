import { OpenRouter } from '@openrouter/sdk';
import { ForbiddenResponseError, NotFoundResponseError } from '@openrouter/sdk/models/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../server';

/**
 * Contract: OpenRouter's official SDK, unchanged apart from the server URL and the key, reads
 * every catalog operation of the emulator (its zod schemas validate each response).
 */

let emulator: RunningEmulator;
let client: OpenRouter;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed: 50 });
  client = new OpenRouter({ apiKey: emulator.options.managementKey, serverURL: `${emulator.url}/api/v1` });
});

afterAll(async () => {
  await emulator.close();
});

describe('@openrouter/sdk against the catalog', () => {
  it('lists the models for the user page by page', async () => {
    const pages = await client.models.listForUser({ bearer: emulator.options.key }, { limit: 100 });
    const ids: string[] = [];
    let total = 0;
    for await (const page of pages) {
      ids.push(...page.result.data.map((model) => model.id));
      total = page.result.totalCount;
    }
    expect(total).toBeGreaterThanOrEqual(300);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
  });

  it('parses a model with its architecture, pricing and top provider', async () => {
    const pages = await client.models.listForUser(
      { bearer: emulator.options.key },
      { offset: 0, limit: 1000 },
    );
    const model = pages.result.data.find((candidate) => candidate.id === 'google/gemini-2.5-pro');
    expect(model).toMatchObject({
      canonicalSlug: 'google/gemini-2.5-pro',
      architecture: {
        inputModalities: ['text', 'image', 'file', 'audio', 'video'],
        outputModalities: ['text'],
      },
      pricing: { prompt: '0.00000125', completion: '0.00001' },
      topProvider: { isModerated: false },
    });
  });

  it('counts models by output modality', async () => {
    const text = await client.models.count();
    const all = await client.models.count({ outputModalities: 'all' });
    const embeddings = await client.models.count({ outputModalities: 'embeddings' });
    expect(text.data.count).toBeGreaterThan(embeddings.data.count);
    expect(all.data.count).toBeGreaterThan(text.data.count);
  });

  it("lists a model's endpoints", async () => {
    const response = await client.endpoints.list({ author: 'anthropic', slug: 'claude-sonnet-4.5' });
    expect(response.data.id).toBe('anthropic/claude-sonnet-4.5');
    expect(response.data.endpoints.length).toBeGreaterThanOrEqual(1);
    const [endpoint] = response.data.endpoints;
    expect(endpoint?.providerName).toBe('Anthropic');
    expect(endpoint?.latencyLast30m?.p50).toBeLessThanOrEqual(endpoint?.latencyLast30m?.p99 ?? 0);
  });

  it('lists the ZDR endpoints', async () => {
    const response = await client.endpoints.listZdrEndpoints();
    expect(response.data.length).toBeGreaterThan(0);
    expect(response.data.every((endpoint) => endpoint.modelId.includes('/'))).toBe(true);
  });

  it('gets a preset version', async () => {
    const response = await client.presets.getVersion({ slug: 'newsroom-summary', version: '2' });
    expect(response.data).toMatchObject({
      version: 2,
      config: { model: 'anthropic/claude-sonnet-4.5', temperature: 0.3 },
      systemPrompt: expect.stringContaining('news editor') as string,
    });
  });

  it("surfaces the catalog's errors as the SDK's typed errors", async () => {
    await expect(
      client.presets.getVersion({ slug: 'newsroom-summary', version: '9' }),
    ).rejects.toBeInstanceOf(NotFoundResponseError);
    const normalKeyClient = new OpenRouter({
      apiKey: emulator.options.key,
      serverURL: `${emulator.url}/api/v1`,
    });
    const refused = normalKeyClient.models.count();
    await expect(refused).rejects.toBeInstanceOf(ForbiddenResponseError);
    await expect(refused).rejects.toThrow('Only management keys can perform this operation');
  });
});
