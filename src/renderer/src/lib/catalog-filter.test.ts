import { describe, expect, it } from 'vitest';
import type { CatalogModel } from '../../../shared/catalog';
import { catalogRowOf } from '../../../shared/catalog-rows';
import {
  emptyQuery,
  facetsOf,
  filterModels,
  indexModels,
  measuredCount,
  toggleCompared,
  type CatalogQuery,
} from './catalog-filter';

function model(id: string, overrides: Partial<CatalogModel> = {}): CatalogModel {
  return {
    id,
    name: id.split('/')[1] ?? id,
    description: '',
    created: 1_700_000_000,
    context_length: 128_000,
    architecture: { input_modalities: ['text'], output_modalities: ['text'] },
    pricing: { prompt: '0.000001', completion: '0.000002' },
    supported_parameters: ['max_tokens', 'temperature'],
    top_provider: { is_moderated: false },
    ...overrides,
  };
}

const models = [
  model('anthropic/sonnet', {
    description: 'Careful writer for long documents',
    pricing: { prompt: '0.000003', completion: '0.000015' },
    context_length: 1_000_000,
    supported_parameters: ['tools', 'response_format'],
    top_provider: { is_moderated: true },
    architecture: { input_modalities: ['text', 'image'], output_modalities: ['text'] },
    created: 1_750_000_000,
  }),
  model('openai/image-maker', {
    architecture: { input_modalities: ['text'], output_modalities: ['image'] },
    pricing: { prompt: '0.00001', completion: '0.00004' },
    created: 1_760_000_000,
  }),
  model('meta/llama-small', { context_length: 8192, pricing: { prompt: '0', completion: '0' } }),
  model('acme/router', { context_length: null, pricing: { prompt: '-1', completion: '-1' } }),
];
const index = indexModels(
  models.map(catalogRowOf),
  [{ model_id: 'meta/llama-small', name: 'X | meta/llama-small', provider_name: 'X' }],
  {
    'anthropic/sonnet': { throughputP50: 60, latencyP50: 900 },
    'meta/llama-small': { throughputP50: 200, latencyP50: 300 },
  },
);
const ids = (query: Partial<CatalogQuery>): string[] =>
  filterModels(index, { ...emptyQuery, ...query }).map((entry) => entry.model.id);

describe('catalog search', () => {
  it('matches every word in the name, id or description, ignoring case', () => {
    expect(ids({ text: 'CAREFUL long' })).toEqual(['anthropic/sonnet']);
    expect(ids({ text: 'openai/' })).toEqual(['openai/image-maker']);
    expect(ids({ text: 'llama nothing' })).toEqual([]);
    expect(ids({})).toHaveLength(4);
  });

  it('filters by modalities, context, price, parameters, moderation and ZDR', () => {
    expect(ids({ inputModalities: ['image'] })).toEqual(['anthropic/sonnet']);
    expect(ids({ outputModalities: ['image', 'audio'] })).toEqual(['openai/image-maker']);
    expect(ids({ contextMin: 100_000, sort: 'context' })).toEqual(['anthropic/sonnet', 'openai/image-maker']);
    expect(ids({ contextMax: 10_000 })).toEqual(['meta/llama-small']);
    expect(ids({ priceMin: 2, priceMax: 5 })).toEqual(['anthropic/sonnet']);
    expect(ids({ priceMax: 0 })).toEqual(['meta/llama-small']);
    expect(ids({ parameters: ['tools', 'response_format'] })).toEqual(['anthropic/sonnet']);
    expect(ids({ moderation: 'moderated' })).toEqual(['anthropic/sonnet']);
    expect(ids({ moderation: 'unmoderated' })).toHaveLength(3);
    expect(ids({ zdrOnly: true })).toEqual(['meta/llama-small']);
  });

  it('sorts by price, context, newest, throughput and latency, unknown values last', () => {
    expect(ids({ sort: 'price' })).toEqual([
      'meta/llama-small',
      'anthropic/sonnet',
      'openai/image-maker',
      'acme/router',
    ]);
    expect(ids({ sort: 'context' })[0]).toBe('anthropic/sonnet');
    expect(ids({ sort: 'context' }).at(-1)).toBe('acme/router');
    expect(ids({ sort: 'newest' }).slice(0, 2)).toEqual(['openai/image-maker', 'anthropic/sonnet']);
    expect(ids({ sort: 'throughput' }).slice(0, 2)).toEqual(['meta/llama-small', 'anthropic/sonnet']);
    expect(ids({ sort: 'latency' }).slice(0, 2)).toEqual(['meta/llama-small', 'anthropic/sonnet']);
    expect(measuredCount(index, 'latency')).toBe(2);
    expect(measuredCount(index, 'price')).toBeUndefined();
  });

  it('offers the modalities and parameters the catalog contains', () => {
    expect(facetsOf(models.map(catalogRowOf))).toEqual({
      inputModalities: ['image', 'text'],
      outputModalities: ['image', 'text'],
      parameters: ['max_tokens', 'response_format', 'temperature', 'tools'],
    });
  });

  it('compares up to four models, dropping the oldest choice for a fifth', () => {
    let compared: string[] = [];
    for (const id of ['a', 'b', 'c', 'd', 'e']) compared = toggleCompared(compared, id);
    expect(compared).toEqual(['b', 'c', 'd', 'e']);
    expect(toggleCompared(compared, 'c')).toEqual(['b', 'd', 'e']);
  });
});
