import { z } from 'zod';

/**
 * The model catalog's resources (spec: model-catalog-service.md) as Verbatim relies on them.
 * Shared by the client in main, the IPC contract and the renderer. Every object is loose, so
 * fields the service adds tomorrow pass through untouched; fields the spec lists as nullable,
 * and those OpenRouter sometimes leaves out, are optional.
 */

/** US dollars per token (per request / per image), as decimal strings. */
export const catalogPricingSchema = z.looseObject({
  prompt: z.string(),
  completion: z.string(),
  request: z.string().optional(),
  image: z.string().optional(),
});
export type CatalogPricing = z.infer<typeof catalogPricingSchema>;

export const architectureSchema = z.looseObject({
  input_modalities: z.array(z.string()).default([]),
  output_modalities: z.array(z.string()).default([]),
  /** `in->out`, e.g. `text+image->text`. */
  modality: z.string().nullish(),
  instruct_type: z.string().nullish(),
  tokenizer: z.string().nullish(),
});
export type Architecture = z.infer<typeof architectureSchema>;

export const catalogModelSchema = z.looseObject({
  id: z.string().min(1),
  canonical_slug: z.string().nullish(),
  name: z.string(),
  description: z.string().default(''),
  /** Unix seconds. */
  created: z.number(),
  context_length: z.number().nullish(),
  architecture: architectureSchema,
  pricing: catalogPricingSchema,
  supported_parameters: z.array(z.string()).default([]),
  default_parameters: z.unknown().optional(),
  expiration_date: z.string().nullish(),
  knowledge_cutoff: z.string().nullish(),
  per_request_limits: z.unknown().optional(),
  supported_voices: z.array(z.string()).nullish(),
  links: z.looseObject({ details: z.string() }).nullish(),
  top_provider: z
    .looseObject({
      context_length: z.number().nullish(),
      is_moderated: z.boolean(),
      max_completion_tokens: z.number().nullish(),
    })
    .nullish(),
});
export type CatalogModel = z.infer<typeof catalogModelSchema>;

export const percentilesSchema = z.looseObject({
  p50: z.number(),
  p75: z.number(),
  p90: z.number(),
  p99: z.number(),
});
export type Percentiles = z.infer<typeof percentilesSchema>;

export const catalogEndpointSchema = z.looseObject({
  name: z.string(),
  model_id: z.string(),
  model_name: z.string().nullish(),
  provider_name: z.string(),
  tag: z.string().nullish(),
  quantization: z.string().nullish(),
  status: z.number().nullish(),
  context_length: z.number().nullish(),
  max_completion_tokens: z.number().nullish(),
  max_prompt_tokens: z.number().nullish(),
  pricing: catalogPricingSchema,
  supported_parameters: z.array(z.string()).default([]),
  supports_implicit_caching: z.boolean().nullish(),
  latency_last_30m: percentilesSchema.nullish(),
  throughput_last_30m: percentilesSchema.nullish(),
  /** Percent. */
  uptime_last_5m: z.number().nullish(),
  uptime_last_30m: z.number().nullish(),
  uptime_last_1d: z.number().nullish(),
});
export type CatalogEndpoint = z.infer<typeof catalogEndpointSchema>;

export const modelEndpointsSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  created: z.number(),
  description: z.string().default(''),
  architecture: architectureSchema,
  endpoints: z.array(catalogEndpointSchema),
});
export type ModelEndpoints = z.infer<typeof modelEndpointsSchema>;

export const presetVersionSchema = z.looseObject({
  id: z.string(),
  preset_id: z.string(),
  version: z.number().int(),
  /** The full key set is not shown in the spec; OpenRouter's holds model, temperature, provider… */
  config: z.record(z.string(), z.unknown()),
  system_prompt: z.string().nullish(),
  creator_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PresetVersion = z.infer<typeof presetVersionSchema>;

/** Output modalities /models/count filters by, plus `all`. */
export const outputModalities = ['text', 'image', 'audio', 'embeddings'] as const;
export const outputModalitySchema = z.enum(outputModalities);
export type OutputModality = z.infer<typeof outputModalitySchema>;
export const modalityFilterSchema = z.union([
  z.literal('all'),
  z.array(outputModalitySchema).min(1).max(outputModalities.length),
]);
export type ModalityFilter = z.infer<typeof modalityFilterSchema>;

export const catalogRegionSchema = z.enum(['us', 'eu']);
export type CatalogRegion = z.infer<typeof catalogRegionSchema>;

/** An endpoint listed by /endpoints/zdr, reduced to what identifies it. */
export const zdrEndpointSchema = z.object({
  model_id: z.string(),
  name: z.string(),
  provider_name: z.string(),
});
export type ZdrEndpoint = z.infer<typeof zdrEndpointSchema>;

/** The best p50 figures among a model's endpoints already seen (null: not measured). */
export const modelSpeedSchema = z.object({
  /** Tokens per second, higher is better. */
  throughputP50: z.number().nullable(),
  /** Milliseconds, lower is better. */
  latencyP50: z.number().nullable(),
});
export type ModelSpeed = z.infer<typeof modelSpeedSchema>;

/**
 * A model as the list needs it: what search, filters and sorts read, prices already in dollars
 * per million tokens. Thousands of these cross to the renderer when the view opens, so the
 * rest (architecture details, limits, cutoff, expiration…) waits for the model page.
 */
export const catalogRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Whole, so the search box finds any word of it. */
  description: z.string(),
  /** Unix seconds. */
  created: z.number(),
  contextLength: z.number().nullable(),
  inputModalities: z.array(z.string()),
  outputModalities: z.array(z.string()),
  /** Dollars per million prompt / completion tokens (null: unknown). */
  promptPrice: z.number().nullable(),
  completionPrice: z.number().nullable(),
  parameters: z.array(z.string()),
  /** Null when the service does not say. */
  moderated: z.boolean().nullable(),
});
export type CatalogRow = z.infer<typeof catalogRowSchema>;

/**
 * The list's rows sent column by column (one array per field, the same length each): the
 * field names then cross once instead of once per model, a quarter of the bytes of thousands
 * of rows. catalogColumnsOf / catalogRowsFrom (catalog-rows.ts) convert.
 */
export const catalogColumnsSchema = z
  .object({
    id: z.array(catalogRowSchema.shape.id),
    name: z.array(catalogRowSchema.shape.name),
    description: z.array(catalogRowSchema.shape.description),
    created: z.array(catalogRowSchema.shape.created),
    contextLength: z.array(catalogRowSchema.shape.contextLength),
    inputModalities: z.array(catalogRowSchema.shape.inputModalities),
    outputModalities: z.array(catalogRowSchema.shape.outputModalities),
    promptPrice: z.array(catalogRowSchema.shape.promptPrice),
    completionPrice: z.array(catalogRowSchema.shape.completionPrice),
    parameters: z.array(catalogRowSchema.shape.parameters),
    moderated: z.array(catalogRowSchema.shape.moderated),
  })
  .refine(
    (columns) => Object.values(columns).every((column) => column.length === columns.id.length),
    'The catalog list arrived damaged (its columns differ in length).',
  );
export type CatalogColumns = z.infer<typeof catalogColumnsSchema>;

/** The catalog as the view shows it: the cache, how old it is, and what the last refresh said. */
export const catalogOverviewSchema = z.object({
  host: z.string(),
  region: catalogRegionSchema,
  /** One lean row per model, in name order; the full model comes from `catalog.model`. */
  models: catalogColumnsSchema,
  /** When the model list was fetched (ms since the epoch), or null when nothing is cached yet. */
  fetchedAt: z.number().nullable(),
  /** The service's clock when the overview was made, so ages are measured on one clock. */
  now: z.number(),
  stale: z.boolean(),
  refreshing: z.boolean(),
  refreshError: z.string().nullable(),
  /** Models per output modality, from /models/count (management key). */
  counts: z.record(z.string(), z.number()).nullable(),
  countsError: z.string().nullable(),
  zdrEndpoints: z.array(zdrEndpointSchema).nullable(),
  zdrError: z.string().nullable(),
  speeds: z.record(z.string(), modelSpeedSchema),
});
export type CatalogOverview = z.infer<typeof catalogOverviewSchema>;

export const cachedEndpointsSchema = z.object({
  model: modelEndpointsSchema,
  fetchedAt: z.number(),
  now: z.number(),
  /** Set when a refresh failed and the cached copy is shown instead. */
  error: z.string().nullable(),
});
export type CachedEndpoints = z.infer<typeof cachedEndpointsSchema>;

export const cachedPresetSchema = z.object({
  preset: presetVersionSchema,
  fetchedAt: z.number(),
  now: z.number(),
  error: z.string().nullable(),
});
export type CachedPreset = z.infer<typeof cachedPresetSchema>;
