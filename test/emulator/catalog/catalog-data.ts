import type { EmulatorApp } from '../types';
import { ANCHOR_MODELS, type AnchorModel } from './anchor-models';
import type {
  Catalog,
  CatalogEndpoint,
  CatalogEntry,
  DefaultParameters,
  Endpoint,
  Model,
  PercentileStats,
  Pricing,
} from './catalog-types';
import {
  AUTHOR_PROFILES,
  EU_PROVIDERS,
  HOSTING_POOL,
  QUANTIZATIONS,
  authorProfile,
  type AuthorProfile,
} from './model-families';
import { buildPresets } from './presets';
import { seededRandom, type Random } from './seeded-random';

/**
 * The generated model catalog: a few hundred realistic models built from a seeded PRNG, so the
 * data is the same on every start without shipping a large JSON file. Each model's details come
 * from a generator seeded by its own id, so adding a family does not reshuffle the others.
 */

/** Models drawn from the families, on top of the anchors and the `:free` twins. */
const GENERATED_MODEL_COUNT = 320;
const CATALOG_SEED = 'verbatim-emulator-catalog';
/** Every n-th generated model carries markup in its description, so renderers' escaping gets exercised. */
const BOLD_MARKUP_EVERY = 29;
const SCRIPT_MARKUP_EVERY = 41;

const CLOSED_CONTEXTS = [128_000, 200_000, 256_000, 400_000, 1_000_000, 1_048_576, 2_000_000];
const OPEN_CONTEXTS = [4096, 8192, 32_768, 65_536, 131_072, 163_840, 262_144];
const LEGACY_CONTEXTS = [4096, 8192, 16_385, 32_768];
const COMPLETION_LIMITS = [4096, 8192, 16_384, 32_000, 64_000, 128_000];
/** US dollars per million prompt tokens. */
const CLOSED_PROMPT_PRICES = [0.1, 0.15, 0.25, 0.4, 0.5, 0.8, 1, 1.25, 2, 2.5, 3, 5, 10, 15];
const OPEN_PROMPT_PRICES = [0.02, 0.03, 0.05, 0.07, 0.1, 0.12, 0.2, 0.3, 0.5, 0.6, 0.9];
/** US dollars per input image, in nano-dollars. */
const IMAGE_PRICES_NANO = [0, 765_000, 1_238_000, 2_400_000];

/** The order OpenRouter's parameter lists follow; generated lists are sorted by it. */
const PARAMETER_ORDER = [
  'max_tokens',
  'temperature',
  'top_p',
  'top_k',
  'min_p',
  'stop',
  'frequency_penalty',
  'presence_penalty',
  'seed',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'tools',
  'tool_choice',
  'response_format',
  'structured_outputs',
  'reasoning',
  'include_reasoning',
];
const ANCHOR_CHAT_PARAMETERS = [
  'max_tokens',
  'temperature',
  'top_p',
  'stop',
  'seed',
  'tools',
  'tool_choice',
  'response_format',
  'structured_outputs',
  'reasoning',
  'include_reasoning',
];
const REASONING_HINT = /(^|-)(r1|o1|o3|o4|qwq|thinking|reasoning|magistral|deep-research|prover)(-|$)/;

/** Slugs of small models: tiers such as mini or flash, or at most 14 billion parameters. */
const SMALL_MODEL_HINT = /(^|-)(mini|nano|lite|small|micro|flash|e\d+b|(\d\.\d+|[1-9]|1[0-4])b)(-|$)/;
const SMALL_SIZE_WORDS = ['compact', 'efficient', 'fast', 'lightweight'];
const LARGE_SIZE_WORDS = ['mid-sized', 'large', 'frontier-class', 'capable'];
const STRENGTHS = [
  'It is tuned for summarisation, extraction and question answering over long documents.',
  'It follows instructions closely and keeps a neutral tone.',
  'It suits agentic workflows that call tools over several steps.',
  'It handles multilingual text, including quotes kept in the source language.',
  'It favours short, factual answers over creative writing.',
  'It was trained with an emphasis on code and structured output.',
  'It is a sound default for transcripts of interviews and press conferences.',
];

interface ModelSpec {
  profile: AuthorProfile;
  id: string;
  slug: string;
  name: string;
  canonicalSlug: string;
  created: number;
  openWeights: boolean;
  free: boolean;
  aliases: string[];
  markup?: 'bold' | 'script';
  /** Set for anchors: the hand-picked facts that override generation. */
  anchor?: AnchorModel;
}

export function generateCatalog(): Catalog {
  const specs = [...ANCHOR_MODELS.map(anchorSpec), ...generatedSpecs()];
  const entries = specs.map(buildEntry);
  // OpenRouter lists the newest models first.
  entries.sort((a, b) => b.model.created - a.model.created || a.model.id.localeCompare(b.model.id));
  const byId = new Map<string, CatalogEntry>();
  for (const entry of entries) {
    byId.set(entry.model.id, entry);
    if (!byId.has(entry.model.canonical_slug)) byId.set(entry.model.canonical_slug, entry);
  }
  return { entries, byId, presets: buildPresets() };
}

const catalogs = new WeakMap<EmulatorApp, Catalog>();

/** One catalog per emulator: the catalog routes and the gateway (which knows the models) share it. */
export function catalogFor(app: EmulatorApp): Catalog {
  let catalog = catalogs.get(app);
  if (!catalog) {
    catalog = generateCatalog();
    catalogs.set(app, catalog);
  }
  return catalog;
}

/** Whether the model satisfies EU in-region routing: at least one of its endpoints runs in the EU. */
export function servesEu(entry: CatalogEntry): boolean {
  return entry.endpoints.some((endpoint) => endpoint.euInRegion);
}

function anchorSpec(anchor: AnchorModel): ModelSpec {
  const profile = authorProfile(anchor.author, anchor.tokenizer);
  const id = `${anchor.author}/${anchor.slug}`;
  return {
    profile,
    id,
    slug: anchor.slug,
    name: `${profile.label}: ${anchor.label}`,
    canonicalSlug: anchor.canonicalSlug ?? id,
    created: Date.parse(`${anchor.created}T00:00:00Z`) / 1000,
    openWeights: anchor.openWeights ?? false,
    free: false,
    aliases: anchor.aliases ?? [],
    anchor,
  };
}

/** Every family × variant combination, shuffled by the catalog seed; the first N become models. */
function generatedSpecs(): ModelSpec[] {
  const random = seededRandom(CATALOG_SEED);
  const anchorIds = new Set(ANCHOR_MODELS.map((anchor) => `${anchor.author}/${anchor.slug}`));
  const combinations: { profile: AuthorProfile; slug: string; label: string; year: number }[] = [];
  for (const profile of AUTHOR_PROFILES) {
    for (const family of profile.families) {
      const variants = family.variants ?? profile.variants;
      for (const variant of variants.length > 0 ? variants : ['']) {
        const slug = joinVariant(family.slug, variant, '-');
        if (anchorIds.has(`${profile.author}/${slug}`)) continue;
        combinations.push({
          profile,
          slug,
          label: joinVariant(family.label, variantLabel(variant), ' '),
          year: family.year,
        });
      }
    }
  }
  const chosen = random.shuffle(combinations).slice(0, GENERATED_MODEL_COUNT);
  if (chosen.length < GENERATED_MODEL_COUNT) throw new Error('Not enough model families for the catalog');

  const specs: ModelSpec[] = [];
  chosen.forEach((combination, index) => {
    const id = `${combination.profile.author}/${combination.slug}`;
    const modelRandom = seededRandom(`created:${id}`);
    const spec: ModelSpec = {
      profile: combination.profile,
      id,
      slug: combination.slug,
      name: `${combination.profile.label}: ${combination.label}`,
      canonicalSlug: id,
      created: createdIn(combination.year, modelRandom),
      openWeights: combination.profile.openWeights,
      free: false,
      aliases: [],
      ...(index % BOLD_MARKUP_EVERY === 7 ? { markup: 'bold' as const } : {}),
      ...(index % SCRIPT_MARKUP_EVERY === 11 ? { markup: 'script' as const } : {}),
    };
    specs.push(spec);
    // OpenRouter offers some open-weight models a second time, rate-limited and free, as `id:free`.
    if (spec.openWeights && random.chance(0.12)) {
      specs.push({
        ...spec,
        id: `${id}:free`,
        slug: `${spec.slug}:free`,
        name: `${spec.name} (free)`,
        created: spec.created + 86_400 * modelRandom.int(1, 60),
        free: true,
      });
    }
  });
  return specs;
}

function joinVariant(base: string, variant: string, separator: string): string {
  if (!variant) return base;
  return variant.startsWith('.') ? `${base}${variant}` : `${base}${separator}${variant}`;
}

function variantLabel(variant: string): string {
  if (variant.startsWith('.')) return variant;
  return variant
    .split('-')
    .map((word) => {
      // Sizes and expert counts (70b, a3b, 128e) and acronyms are written in capitals.
      if (/^[a-z]?\d+(\.\d+)?[a-z]$/.test(word) || ['it', 'vl', 'r1', 'moe'].includes(word))
        return word.toUpperCase();
      return word.charAt(0).toUpperCase() + word.slice(1);
    })
    .join(' ');
}

/** A unix timestamp inside the family's year (not after May 2026, the catalog's "now"). */
function createdIn(year: number, random: Random): number {
  const month = random.int(0, year >= 2026 ? 4 : 11);
  return Date.UTC(year, month, random.int(1, 28), random.int(0, 23), random.int(0, 59)) / 1000;
}

function buildEntry(spec: ModelSpec): CatalogEntry {
  const random = seededRandom(`model:${spec.id}`);
  const anchor = spec.anchor;
  const year = new Date(spec.created * 1000).getUTCFullYear();
  const inputs = anchor?.inputs ?? [
    'text',
    ...(year > 2023 ? spec.profile.extraInputs.filter(() => random.chance(0.4)) : []),
  ];
  const outputs = anchor?.outputs ?? ['text'];
  const chat = outputs.includes('text');
  const reasoning = REASONING_HINT.test(spec.slug) || (chat && year >= 2025 && random.chance(0.3));
  const contextLength = anchor?.contextLength ?? pickContextLength(spec.openWeights, year, random);

  const promptNano = spec.free
    ? 0
    : Math.round(
        1000 *
          (anchor?.promptPerMillion ??
            random.pick(spec.openWeights ? OPEN_PROMPT_PRICES : CLOSED_PROMPT_PRICES)),
      );
  const completionNano = spec.free
    ? 0
    : anchor
      ? Math.round(1000 * anchor.completionPerMillion)
      : promptNano * random.pick([1, 1.5, 2, 3, 4, 5, 8]);
  const basePrice: NanoPricing = {
    prompt: promptNano,
    completion: Math.round(completionNano),
    request: spec.profile.author === 'perplexity' && !spec.free ? 5_000_000 : 0,
    image: inputs.includes('image') && !spec.free ? random.pick(IMAGE_PRICES_NANO) : 0,
  };
  const parameters = supportedParameters(spec, outputs, reasoning, year, random);

  const model: Model = {
    id: spec.id,
    canonical_slug: spec.canonicalSlug,
    name: spec.name,
    description: describe(spec, inputs, outputs, contextLength, reasoning, random),
    created: spec.created,
    context_length: contextLength,
    architecture: {
      input_modalities: inputs,
      output_modalities: outputs,
      modality: `${inputs.join('+')}->${outputs.join('+')}`,
      instruct_type: spec.profile.instructType,
      tokenizer: spec.profile.tokenizer,
    },
    pricing: formatPricing(basePrice),
    supported_parameters: parameters,
    default_parameters: chat && random.chance(0.3) ? defaultParameters(random) : null,
    expiration_date: expirationDate(spec, year, random),
    knowledge_cutoff:
      chat && random.chance(0.6) ? isoDate(spec.created - 86_400 * random.int(90, 400)) : null,
    per_request_limits: null,
    supported_voices: anchor?.voices ?? null,
    links: { details: `/api/v1/models/${spec.id}/endpoints` },
    top_provider: {
      context_length: contextLength,
      is_moderated: false,
      max_completion_tokens: contextLength,
    },
  };
  const endpoints = chooseProviders(spec, random).map((provider, index) =>
    buildEndpoint(spec, model, provider, index, basePrice, random),
  );
  const top = endpoints[0]?.endpoint;
  if (top) {
    model.top_provider = {
      context_length: top.context_length,
      is_moderated: !spec.openWeights && ['openai', 'anthropic'].includes(spec.profile.author),
      max_completion_tokens: top.max_completion_tokens,
    };
  }
  const gatewayAliases = [...spec.aliases, spec.slug, spec.slug.replaceAll('.', '-')];
  return { model, endpoints, gatewayAliases: [...new Set(gatewayAliases)] };
}

function pickContextLength(openWeights: boolean, year: number, random: Random): number {
  if (year <= 2023) return random.pick(LEGACY_CONTEXTS);
  return random.pick(openWeights ? OPEN_CONTEXTS : CLOSED_CONTEXTS);
}

function supportedParameters(
  spec: ModelSpec,
  outputs: string[],
  reasoning: boolean,
  year: number,
  random: Random,
): string[] {
  if (!outputs.includes('text')) return outputs.includes('embeddings') ? [] : ['seed'];
  if (spec.anchor) return sortParameters(ANCHOR_CHAT_PARAMETERS);
  const parameters = ['max_tokens', 'temperature', 'top_p', 'stop'];
  if (year >= 2024 && random.chance(0.75)) parameters.push('tools', 'tool_choice');
  if (random.chance(0.6)) {
    parameters.push('response_format');
    if (random.chance(0.6)) parameters.push('structured_outputs');
  }
  if (reasoning) parameters.push('reasoning', 'include_reasoning');
  if (random.chance(0.5)) parameters.push('seed');
  if (random.chance(0.5)) parameters.push('frequency_penalty', 'presence_penalty');
  if (spec.openWeights && random.chance(0.7)) parameters.push('top_k', 'min_p');
  if (random.chance(0.2)) parameters.push('logit_bias', 'logprobs', 'top_logprobs');
  return sortParameters(parameters);
}

function sortParameters(parameters: string[]): string[] {
  return [...parameters].sort((a, b) => PARAMETER_ORDER.indexOf(a) - PARAMETER_ORDER.indexOf(b));
}

function defaultParameters(random: Random): DefaultParameters {
  return {
    temperature: random.pick([0.6, 0.7, 1]),
    top_p: random.pick([0.9, 0.95, 1]),
    frequency_penalty: null,
  };
}

function expirationDate(spec: ModelSpec, year: number, random: Random): string | null {
  const expires = spec.free ? random.chance(0.3) : year <= 2024 && random.chance(0.15);
  if (!expires) return null;
  return isoDate(Date.UTC(2026, random.int(5, 11), random.int(1, 28)) / 1000);
}

function isoDate(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().slice(0, 10);
}

function describe(
  spec: ModelSpec,
  inputs: string[],
  outputs: string[],
  contextLength: number,
  reasoning: boolean,
  random: Random,
): string {
  const kind = outputs.includes('embeddings')
    ? 'embedding model'
    : outputs.includes('image')
      ? 'image generation model'
      : outputs.includes('audio')
        ? 'speech-capable model'
        : reasoning
          ? 'reasoning model'
          : inputs.length > 1
            ? 'multimodal model'
            : 'language model';
  const size = random.pick(SMALL_MODEL_HINT.test(spec.slug) ? SMALL_SIZE_WORDS : LARGE_SIZE_WORDS);
  const article = /^[aeiou]/.test(size) ? 'an' : 'a';
  const sentences = [
    `${spec.name.split(': ').pop() ?? spec.name} is ${article} ${size} ${kind} from ${spec.profile.label}.`,
    outputs.includes('text') ? random.pick(STRENGTHS) : '',
    `Context window: ${contextLength.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',')} tokens.`,
    spec.openWeights ? 'Its weights are openly available, so hosts serve their own quantizations.' : '',
    spec.free ? 'This free variant is rate-limited and may be retired without notice.' : '',
    spec.markup === 'bold' ? 'Keeps <b>bold</b> and <i>italic</i> markup from prompts verbatim.' : '',
    spec.markup === 'script'
      ? 'Renderer check: <script>alert("catalog")</script> must show as plain text.'
      : '',
  ];
  return sentences.filter(Boolean).join(' ');
}

function chooseProviders(spec: ModelSpec, random: Random): string[] {
  const own = spec.profile.ownProviders;
  if (spec.anchor) {
    // Anchors get every first-hand provider, so that their EU flag is never left to chance.
    return spec.openWeights ? random.shuffle(HOSTING_POOL).slice(0, 4) : [...own];
  }
  if (!spec.openWeights) return random.shuffle(own).slice(0, random.int(1, own.length));
  const candidates = [...new Set([...own, ...random.shuffle(HOSTING_POOL)])];
  return candidates.slice(0, random.int(1, 6));
}

interface NanoPricing {
  prompt: number;
  completion: number;
  request: number;
  image: number;
}

function formatPricing(price: NanoPricing): Pricing {
  return {
    prompt: formatNanoDollars(price.prompt),
    completion: formatNanoDollars(price.completion),
    request: formatNanoDollars(price.request),
    image: formatNanoDollars(price.image),
  };
}

/** Nano-dollars as a plain decimal string ("0.000003", never "3e-6"), as OpenRouter prints prices. */
function formatNanoDollars(nano: number): string {
  if (nano === 0) return '0';
  const digits = Math.round(nano).toString().padStart(10, '0');
  const whole = digits.slice(0, -9);
  const fraction = digits.slice(-9).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

function buildEndpoint(
  spec: ModelSpec,
  model: Model,
  provider: string,
  index: number,
  basePrice: NanoPricing,
  random: Random,
): CatalogEndpoint {
  const quantization = spec.openWeights ? random.pick(QUANTIZATIONS) : 'unknown';
  const factor = index === 0 ? 1 : random.pick([0.8, 0.9, 1, 1.1, 1.25, 1.5]);
  const price: NanoPricing = {
    prompt: Math.round(basePrice.prompt * factor),
    completion: Math.round(basePrice.completion * factor),
    request: basePrice.request,
    image: basePrice.image,
  };
  const smallerContexts = OPEN_CONTEXTS.filter((length) => length < model.context_length);
  const contextLength =
    index > 0 && smallerContexts.length > 0 && random.chance(0.3)
      ? random.pick(smallerContexts)
      : model.context_length;
  const maxCompletion = Math.min(contextLength, random.pick(COMPLETION_LIMITS));
  const parameters =
    index === 0
      ? model.supported_parameters
      : model.supported_parameters.filter(
          (parameter) => ['max_tokens', 'temperature'].includes(parameter) || random.chance(0.85),
        );
  const tools = parameters.includes('tools');
  const endpoint: Endpoint = {
    name: `${provider} | ${model.id}`,
    model_id: model.id,
    model_name: model.name,
    provider_name: provider,
    tag: `${provider.toLowerCase().replace(/[^a-z0-9]+/g, '-')}${quantization === 'unknown' ? '' : `/${quantization}`}`,
    quantization,
    status: index === 0 || random.chance(0.85) ? 0 : random.pick([-1, -2, -3, -5, -10]),
    context_length: contextLength,
    max_completion_tokens: maxCompletion,
    max_prompt_tokens: contextLength,
    pricing: formatPricing(price),
    supported_parameters: parameters,
    supports_implicit_caching: random.chance(0.4),
    supports_tool_choice: {
      auto: tools,
      none: tools,
      required: tools && random.chance(0.8),
      function: tools && random.chance(0.8),
    },
    // Latency in milliseconds, throughput in tokens per second.
    latency_last_30m: percentiles(random.int(150, 2500), 0, random),
    throughput_last_30m: percentiles(random.int(15, 400) + random.next(), 1, random),
    uptime_last_5m: uptime(random),
    uptime_last_30m: uptime(random),
    uptime_last_1d: uptime(random),
  };
  return {
    endpoint,
    zeroDataRetention: random.chance(0.35),
    euInRegion: EU_PROVIDERS.has(provider) && (spec.anchor ? spec.anchor.euHosted : random.chance(0.5)),
  };
}

/** p50 <= p75 <= p90 <= p99 around a median, rounded to `decimals` places. */
function percentiles(median: number, decimals: number, random: Random): PercentileStats {
  const unit = 10 ** decimals;
  const p50 = Math.round(median * unit);
  const p75 = p50 + Math.round(p50 * random.next() * 0.4);
  const p90 = p75 + Math.round(p50 * random.next() * 0.5);
  const p99 = p90 + Math.round(p50 * random.next() * 1.5);
  return { p50: p50 / unit, p75: p75 / unit, p90: p90 / unit, p99: p99 / unit };
}

/** Mostly healthy providers, with the odd bad stretch. */
function uptime(random: Random): number {
  if (random.chance(0.35)) return 100;
  const value = random.chance(0.8) ? 100 - random.next() * 2 : 85 + random.next() * 13;
  return Math.round(value * 100) / 100;
}
