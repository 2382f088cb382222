import { describe, expect, it } from 'vitest';
import { generateCatalog, servesEu } from './catalog-data';
import type { PercentileStats } from './catalog-types';

const catalog = generateCatalog();
const models = catalog.entries.map((entry) => entry.model);
const endpoints = catalog.entries.flatMap((entry) => entry.endpoints);

function ascending(stats: PercentileStats): boolean {
  return stats.p50 <= stats.p75 && stats.p75 <= stats.p90 && stats.p90 <= stats.p99;
}

describe('generated model catalog', () => {
  it('is identical on every generation', () => {
    expect(JSON.stringify(generateCatalog().entries)).toBe(JSON.stringify(catalog.entries));
  });

  it('holds at least 300 models with unique ids from the major authors', () => {
    expect(models.length).toBeGreaterThanOrEqual(300);
    expect(new Set(models.map((model) => model.id)).size).toBe(models.length);
    const authors = new Set(models.map((model) => model.id.split('/')[0]));
    for (const author of [
      'openai',
      'anthropic',
      'google',
      'meta-llama',
      'mistralai',
      'qwen',
      'deepseek',
      'cohere',
      'x-ai',
    ]) {
      expect(authors).toContain(author);
    }
  });

  it('prices every model and endpoint in decimal strings per token, some of them free', () => {
    const prices = [
      ...models.map((model) => model.pricing),
      ...endpoints.map(({ endpoint }) => endpoint.pricing),
    ];
    for (const pricing of prices) {
      for (const value of [pricing.prompt, pricing.completion, pricing.request, pricing.image]) {
        expect(value).toMatch(/^\d+(\.\d+)?$/);
      }
    }
    expect(models.some((model) => model.pricing.prompt === '0' && model.pricing.completion === '0')).toBe(
      true,
    );
    expect(models.some((model) => model.pricing.prompt === '0.000003')).toBe(true);
  });

  it('spreads creation dates over years and context lengths from 4k to 2M', () => {
    const years = new Set(models.map((model) => new Date(model.created * 1000).getUTCFullYear()));
    expect(years.size).toBeGreaterThanOrEqual(3);
    const lengths = models.map((model) => model.context_length);
    expect(Math.min(...lengths)).toBe(4096);
    expect(Math.max(...lengths)).toBe(2_000_000);
  });

  it('covers every output modality and describes the architecture consistently', () => {
    for (const modality of ['text', 'image', 'audio', 'embeddings']) {
      expect(models.some((model) => model.architecture.output_modalities.includes(modality))).toBe(true);
    }
    expect(models.some((model) => model.architecture.input_modalities.includes('file'))).toBe(true);
    for (const { architecture } of models) {
      expect(architecture.modality).toBe(
        `${architecture.input_modalities.join('+')}->${architecture.output_modalities.join('+')}`,
      );
    }
  });

  it('has optional fields set on some models only, and markup in some descriptions', () => {
    expect(models.some((model) => model.expiration_date !== null)).toBe(true);
    expect(models.some((model) => model.expiration_date === null)).toBe(true);
    expect(models.some((model) => model.knowledge_cutoff !== null)).toBe(true);
    expect(models.some((model) => model.supported_parameters.includes('structured_outputs'))).toBe(true);
    expect(models.some((model) => model.supported_voices !== null)).toBe(true);
    expect(models.some((model) => model.description.includes('<b>'))).toBe(true);
    expect(models.some((model) => model.description.includes('<script>'))).toBe(true);
    for (const model of models) expect(model.links.details).toBe(`/api/v1/models/${model.id}/endpoints`);
  });

  it('gives each model 1 to 6 endpoints with ordered percentiles, statuses and uptimes', () => {
    for (const entry of catalog.entries) {
      expect(entry.endpoints.length).toBeGreaterThanOrEqual(1);
      expect(entry.endpoints.length).toBeLessThanOrEqual(6);
      expect(new Set(entry.endpoints.map(({ endpoint }) => endpoint.provider_name)).size).toBe(
        entry.endpoints.length,
      );
    }
    for (const { endpoint } of endpoints) {
      expect(ascending(endpoint.latency_last_30m)).toBe(true);
      expect(ascending(endpoint.throughput_last_30m)).toBe(true);
      expect(Number.isInteger(endpoint.status) && endpoint.status <= 0).toBe(true);
      for (const uptime of [endpoint.uptime_last_5m, endpoint.uptime_last_30m, endpoint.uptime_last_1d]) {
        expect(uptime).toBeGreaterThanOrEqual(0);
        expect(uptime).toBeLessThanOrEqual(100);
      }
    }
    expect(endpoints.some(({ endpoint }) => endpoint.status < 0)).toBe(true);
    const quantizations = new Set(endpoints.map(({ endpoint }) => endpoint.quantization));
    for (const quantization of ['fp8', 'bf16', 'int4']) expect(quantizations).toContain(quantization);
  });

  it('flags a strict subset of endpoints for ZDR and of models for EU routing', () => {
    const zdr = endpoints.filter((endpoint) => endpoint.zeroDataRetention).length;
    expect(zdr).toBeGreaterThan(0);
    expect(zdr).toBeLessThan(endpoints.length);
    const eu = catalog.entries.filter(servesEu);
    expect(eu.length).toBeGreaterThan(0);
    expect(eu.length).toBeLessThan(catalog.entries.length);
    expect(eu.map((entry) => entry.model.id)).toContain('anthropic/claude-sonnet-4.5');
    expect(eu.map((entry) => entry.model.id)).not.toContain('openai/gpt-5');
  });

  it('ships several presets with consecutive versions', () => {
    expect([...catalog.presets.keys()]).toEqual(
      expect.arrayContaining(['newsroom-summary', 'fact-check', 'interview-questions', 'headline-ideas']),
    );
    for (const versions of catalog.presets.values()) {
      expect(versions.length).toBeGreaterThanOrEqual(2);
      expect(versions.map((version) => version.version)).toEqual(versions.map((_, index) => index + 1));
      for (const version of versions) {
        expect(catalog.byId.has(String(version.config.model))).toBe(true);
      }
    }
  });
});
