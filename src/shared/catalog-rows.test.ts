import { describe, expect, it } from 'vitest';
import { catalogColumnsSchema, catalogRowSchema, type CatalogModel } from './catalog';
import { catalogColumnsOf, catalogRowOf, catalogRowsFrom, catalogRowsOf } from './catalog-rows';

const sonnet: CatalogModel = {
  id: 'anthropic/sonnet',
  canonical_slug: 'anthropic/sonnet-2026',
  name: 'Anthropic: Sonnet',
  description: 'Careful writer for long documents',
  created: 1_750_000_000,
  context_length: null,
  architecture: { input_modalities: ['text', 'image'], output_modalities: ['text'], tokenizer: 'Claude' },
  pricing: { prompt: '0.000003', completion: '0.000015', image: '0.0048' },
  supported_parameters: ['tools', 'response_format'],
  knowledge_cutoff: '2025-03-01',
  expiration_date: '2027-01-01',
  top_provider: { context_length: 200_000, is_moderated: true, max_completion_tokens: 64_000 },
};

describe('catalog rows', () => {
  it('keep what the list searches, filters and sorts by, prices per million tokens', () => {
    const row = catalogRowOf(sonnet);
    expect(row).toEqual({
      id: 'anthropic/sonnet',
      name: 'Anthropic: Sonnet',
      description: 'Careful writer for long documents',
      created: 1_750_000_000,
      contextLength: 200_000,
      inputModalities: ['text', 'image'],
      outputModalities: ['text'],
      promptPrice: 3,
      completionPrice: 15,
      parameters: ['tools', 'response_format'],
      moderated: true,
    });
    // Exactly the contract's row: nothing of the model page travels with the list.
    expect(catalogRowSchema.strict().parse(row)).toEqual(row);
  });

  it('say unknown when the service leaves out the provider or sends a router price', () => {
    const row = catalogRowOf({
      ...sonnet,
      top_provider: null,
      pricing: { prompt: '-1', completion: '' },
    });
    expect(row).toMatchObject({
      contextLength: null,
      moderated: null,
      promptPrice: null,
      completionPrice: null,
    });
  });

  it('come in name order', () => {
    const names = ['beta', 'Alpha', 'gamma', 'alpha two'];
    const rows = catalogRowsOf(names.map((name, i) => ({ ...sonnet, id: `a/${i}`, name })));
    expect(rows.map((row) => row.name)).toEqual(['Alpha', 'alpha two', 'beta', 'gamma']);
  });

  it('travel column by column and come back the same', () => {
    const rows = catalogRowsOf([sonnet, { ...sonnet, id: 'a/free', name: 'Free', top_provider: null }]);
    const columns = catalogColumnsOf(rows);
    expect(columns.id).toEqual(['anthropic/sonnet', 'a/free']);
    expect(columns.moderated).toEqual([true, null]);
    const sent = catalogColumnsSchema.parse(JSON.parse(JSON.stringify(columns)));
    expect(catalogRowsFrom(sent)).toEqual(rows);
    expect(catalogRowsFrom(catalogColumnsOf([]))).toEqual([]);
  });

  it('refuse columns of different lengths', () => {
    const columns = catalogColumnsOf(catalogRowsOf([sonnet]));
    const damaged = { ...columns, name: [] };
    expect(catalogColumnsSchema.safeParse(damaged).error?.issues[0]?.message).toMatch(/damaged/);
  });
});
