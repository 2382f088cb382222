/** The wire shapes of the model catalog (spec: model-catalog-service.md), plus the emulator's own flags. */

/** Prices in US dollars per token (per request / per image), as decimal strings like OpenRouter's. */
export interface Pricing {
  prompt: string;
  completion: string;
  request: string;
  image: string;
}

export interface Architecture {
  input_modalities: string[];
  output_modalities: string[];
  /** `in->out`, e.g. `text+image->text`. */
  modality: string;
  instruct_type: string;
  tokenizer: string;
}

export interface DefaultParameters {
  temperature: number | null;
  top_p: number | null;
  frequency_penalty: number | null;
}

export interface Model {
  id: string;
  canonical_slug: string;
  name: string;
  description: string;
  created: number;
  context_length: number;
  architecture: Architecture;
  pricing: Pricing;
  supported_parameters: string[];
  default_parameters: DefaultParameters | null;
  expiration_date: string | null;
  knowledge_cutoff: string | null;
  per_request_limits: null;
  supported_voices: string[] | null;
  links: { details: string };
  top_provider: { context_length: number; is_moderated: boolean; max_completion_tokens: number };
}

export interface PercentileStats {
  p50: number;
  p75: number;
  p90: number;
  p99: number;
}

export interface Endpoint {
  name: string;
  model_id: string;
  model_name: string;
  provider_name: string;
  tag: string;
  quantization: string;
  status: number;
  context_length: number;
  max_completion_tokens: number;
  max_prompt_tokens: number;
  pricing: Pricing;
  supported_parameters: string[];
  supports_implicit_caching: boolean;
  /** Not in the spec's table, but OpenRouter sends it and its SDK requires it. */
  supports_tool_choice: { auto: boolean; none: boolean; required: boolean; function: boolean };
  latency_last_30m: PercentileStats;
  throughput_last_30m: PercentileStats;
  uptime_last_5m: number;
  uptime_last_30m: number;
  uptime_last_1d: number;
}

export interface CatalogEndpoint {
  endpoint: Endpoint;
  /** The provider keeps no prompts or completions: listed by /endpoints/zdr. */
  zeroDataRetention: boolean;
  /** Served from inside the EU: makes its model visible through the EU host. */
  euInRegion: boolean;
}

export interface CatalogEntry {
  model: Model;
  endpoints: CatalogEndpoint[];
  /** Names the language-model gateway accepts for this model besides its id (e.g. `claude-sonnet-4-5`). */
  gatewayAliases: string[];
}

export interface PresetVersion {
  id: string;
  preset_id: string;
  version: number;
  config: Record<string, unknown>;
  system_prompt: string | null;
  creator_id: string;
  created_at: string;
  updated_at: string;
}

export interface Catalog {
  entries: CatalogEntry[];
  /** By model id and by canonical slug. */
  byId: Map<string, CatalogEntry>;
  /** Presets by slug; each list is ordered by version. */
  presets: Map<string, PresetVersion[]>;
}
