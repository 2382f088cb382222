/**
 * The raw material of the generated catalog: model authors, their model families and the
 * providers that serve them. Names follow OpenRouter's conventions (`author/slug`, provider
 * names from its SDK) so that clients see realistic data.
 */

export interface ModelFamily {
  slug: string;
  label: string;
  /** Release era of the family: generated `created` timestamps fall in this year. */
  year: number;
  /** Variant suffixes for this family; the author's list when absent. */
  variants?: string[];
}

export interface AuthorProfile {
  author: string;
  label: string;
  /** Providers that serve the author's models first-hand (own API or a licensed cloud). */
  ownProviders: string[];
  /** Open weights: third-party hosts serve them too, each with its own quantization. */
  openWeights: boolean;
  tokenizer: string;
  instructType: string;
  /** Input modalities, besides text, that some of the author's models accept. */
  extraInputs: string[];
  families: ModelFamily[];
  variants: string[];
}

/** Third-party hosts of open-weight models. */
export const HOSTING_POOL = [
  'DeepInfra',
  'Together',
  'Fireworks',
  'Groq',
  'Nebius',
  'Novita',
  'Parasail',
  'Cerebras',
  'SambaNova',
  'Chutes',
  'BaseTen',
  'Friendli',
  'Crusoe',
  'Cloudflare',
  'SiliconFlow',
  'AtlasCloud',
  'GMICloud',
] as const;

/** Providers with data centres in the EU: only their endpoints can be flagged for EU in-region routing. */
export const EU_PROVIDERS: ReadonlySet<string> = new Set([
  'Amazon Bedrock',
  'Google',
  'Mistral',
  'Nebius',
  'Cohere',
]);

export const QUANTIZATIONS = ['fp8', 'bf16', 'fp16', 'int4', 'int8', 'fp4'] as const;

const family = (slug: string, label: string, year: number, variants?: string[]): ModelFamily =>
  variants ? { slug, label, year, variants } : { slug, label, year };

export const AUTHOR_PROFILES: readonly AuthorProfile[] = [
  {
    author: 'openai',
    label: 'OpenAI',
    ownProviders: ['OpenAI', 'Azure'],
    openWeights: false,
    tokenizer: 'GPT',
    instructType: 'none',
    extraInputs: ['image', 'file'],
    families: [
      family('gpt-3.5-turbo', 'GPT-3.5 Turbo', 2023, ['', '0613', '16k', 'instruct']),
      family('gpt-4', 'GPT-4', 2023, ['', '0314', '32k', '1106-preview']),
      family('gpt-4-turbo', 'GPT-4 Turbo', 2024, ['', 'preview', '2024-04-09']),
      family('gpt-4o', 'GPT-4o', 2024),
      family('gpt-4.1', 'GPT-4.1', 2025),
      family('gpt-5.1', 'GPT-5.1', 2025),
      family('gpt-5.2', 'GPT-5.2', 2026),
      family('o1', 'o1', 2024),
      family('o3', 'o3', 2025),
      family('o4', 'o4', 2025, ['mini', 'mini-high']),
    ],
    variants: ['', 'mini', 'nano', 'pro', 'preview', 'chat', 'codex', 'search-preview'],
  },
  {
    author: 'anthropic',
    label: 'Anthropic',
    ownProviders: ['Anthropic', 'Amazon Bedrock', 'Google'],
    openWeights: false,
    tokenizer: 'Claude',
    instructType: 'claude',
    extraInputs: ['image', 'file'],
    families: [
      family('claude-2', 'Claude 2', 2023, ['', '.0', '.1']),
      family('claude-instant', 'Claude Instant', 2023, ['1', '1.1', '1.2']),
      family('claude-3-haiku', 'Claude 3 Haiku', 2024),
      family('claude-3-opus', 'Claude 3 Opus', 2024),
      family('claude-3-sonnet', 'Claude 3 Sonnet', 2024),
      family('claude-3.5-haiku', 'Claude 3.5 Haiku', 2024),
      family('claude-3.5-sonnet', 'Claude 3.5 Sonnet', 2024),
      family('claude-3.7-sonnet', 'Claude 3.7 Sonnet', 2025),
      family('claude-opus-4', 'Claude Opus 4', 2025),
      family('claude-opus-4.1', 'Claude Opus 4.1', 2025),
      family('claude-opus-4.5', 'Claude Opus 4.5', 2025),
    ],
    variants: ['', 'beta', 'thinking', 'latest', '20240620'],
  },
  {
    author: 'google',
    label: 'Google',
    ownProviders: ['Google', 'Google AI Studio'],
    openWeights: false,
    tokenizer: 'Gemini',
    instructType: 'none',
    extraInputs: ['image', 'file', 'audio', 'video'],
    families: [
      family('gemini-pro', 'Gemini Pro', 2023, ['', '1.0', 'vision']),
      family('gemini-1.5-pro', 'Gemini 1.5 Pro', 2024),
      family('gemini-1.5-flash', 'Gemini 1.5 Flash', 2024),
      family('gemini-2.0-flash', 'Gemini 2.0 Flash', 2025),
      family('gemini-2.5-pro', 'Gemini 2.5 Pro', 2025, ['preview', 'exp-03-25', 'preview-05-06']),
      family('gemini-3-pro', 'Gemini 3 Pro', 2025),
      family('gemini-3.1-pro', 'Gemini 3.1 Pro', 2026),
    ],
    variants: ['', '001', '002', 'exp', 'preview', 'lite', 'lite-001', '8b', 'thinking-exp'],
  },
  {
    author: 'google',
    label: 'Google',
    ownProviders: ['Google AI Studio'],
    openWeights: true,
    tokenizer: 'Gemma',
    instructType: 'gemma',
    extraInputs: ['image'],
    families: [
      family('gemma-2', 'Gemma 2', 2024, ['2b-it', '9b-it', '27b-it']),
      family('gemma-3', 'Gemma 3', 2025, ['1b-it', '4b-it', '12b-it', '27b-it']),
      family('gemma-3n', 'Gemma 3n', 2025, ['e2b-it', 'e4b-it']),
    ],
    variants: [],
  },
  {
    author: 'meta-llama',
    label: 'Meta',
    ownProviders: [],
    openWeights: true,
    tokenizer: 'Llama3',
    instructType: 'llama3',
    extraInputs: ['image'],
    families: [
      family('llama-2', 'Llama 2', 2023, ['7b-chat', '13b-chat', '70b-chat']),
      family('llama-3', 'Llama 3', 2024, ['8b-instruct', '70b-instruct']),
      family('llama-3.1', 'Llama 3.1', 2024, ['8b-instruct', '70b-instruct', '405b-instruct', '405b']),
      family('llama-3.2', 'Llama 3.2', 2024, [
        '1b-instruct',
        '3b-instruct',
        '11b-vision-instruct',
        '90b-vision-instruct',
      ]),
      family('llama-3.3', 'Llama 3.3', 2024, ['70b-instruct', '8b-instruct']),
      family('llama-4-scout', 'Llama 4 Scout', 2025, ['', '17b-16e-instruct']),
      family('llama-4-maverick', 'Llama 4 Maverick', 2025, ['', '17b-128e-instruct']),
      family('llama-guard', 'Llama Guard', 2024, ['2-8b', '3-8b', '4-12b']),
    ],
    variants: [],
  },
  {
    author: 'mistralai',
    label: 'Mistral',
    ownProviders: ['Mistral'],
    openWeights: true,
    tokenizer: 'Mistral',
    instructType: 'mistral',
    extraInputs: ['image'],
    families: [
      family('mistral-7b-instruct', 'Mistral 7B Instruct', 2023, ['', 'v0.1', 'v0.2', 'v0.3']),
      family('mixtral', 'Mixtral', 2024, ['8x7b-instruct', '8x22b-instruct']),
      family('mistral-small', 'Mistral Small', 2024, [
        '',
        '2409',
        '24b-instruct-2501',
        '3.1-24b-instruct',
        '3.2-24b-instruct',
      ]),
      family('mistral-medium', 'Mistral Medium', 2025, ['', '3', '3.1']),
      family('mistral-large', 'Mistral Large', 2024, ['', '2407', '2411', '2512']),
      family('ministral', 'Ministral', 2024, ['3b', '8b', '14b-2512']),
      family('codestral', 'Codestral', 2024, ['', '2501', '2508', 'mamba']),
      family('pixtral', 'Pixtral', 2024, ['12b', 'large-2411']),
      family('devstral', 'Devstral', 2025, ['small', 'medium', 'small-2505']),
      family('magistral', 'Magistral', 2025, ['small-2506', 'medium-2506', 'medium-2506-thinking']),
    ],
    variants: [],
  },
  {
    author: 'qwen',
    label: 'Qwen',
    ownProviders: ['Alibaba'],
    openWeights: true,
    tokenizer: 'Qwen3',
    instructType: 'qwen3',
    extraInputs: ['image', 'video'],
    families: [
      family('qwen-2-72b-instruct', 'Qwen 2 72B Instruct', 2024, ['']),
      family('qwen-2.5', 'Qwen2.5', 2024, ['7b-instruct', '14b-instruct', '32b-instruct', '72b-instruct']),
      family('qwen-2.5-coder', 'Qwen2.5 Coder', 2024, ['7b-instruct', '32b-instruct']),
      family('qwen2.5-vl', 'Qwen2.5 VL', 2025, [
        '3b-instruct',
        '7b-instruct',
        '32b-instruct',
        '72b-instruct',
      ]),
      family('qwen3', 'Qwen3', 2025, [
        '8b',
        '14b',
        '32b',
        '30b-a3b',
        '235b-a22b',
        '235b-a22b-2507',
        'max',
        'next-80b-a3b-instruct',
      ]),
      family('qwen3-coder', 'Qwen3 Coder', 2025, ['', '30b-a3b-instruct', 'plus', 'flash']),
      family('qwq', 'QwQ', 2024, ['32b', '32b-preview']),
      family('qwen-max', 'Qwen-Max', 2025, ['']),
      family('qwen-plus', 'Qwen-Plus', 2025, ['', '2025-07-28']),
      family('qwen-turbo', 'Qwen-Turbo', 2025, ['']),
    ],
    variants: [],
  },
  {
    author: 'deepseek',
    label: 'DeepSeek',
    ownProviders: ['DeepSeek'],
    openWeights: true,
    tokenizer: 'DeepSeek',
    instructType: 'deepseek-r1',
    extraInputs: [],
    families: [
      family('deepseek-chat', 'DeepSeek V3', 2024, ['', 'v3-0324', 'v3.1']),
      family('deepseek-r1', 'R1', 2025, [
        '',
        '0528',
        'distill-llama-70b',
        'distill-llama-8b',
        'distill-qwen-32b',
        'distill-qwen-14b',
        'distill-qwen-1.5b',
      ]),
      family('deepseek-v3.1', 'DeepSeek V3.1', 2025, ['terminus', 'base']),
      family('deepseek-v3.2', 'DeepSeek V3.2', 2025, ['', 'exp', 'speciale']),
      family('deepseek-prover', 'DeepSeek Prover', 2025, ['v2']),
      family('deepseek-coder', 'DeepSeek Coder', 2024, ['', 'v2']),
    ],
    variants: [],
  },
  {
    author: 'cohere',
    label: 'Cohere',
    ownProviders: ['Cohere'],
    openWeights: false,
    tokenizer: 'Cohere',
    instructType: 'none',
    extraInputs: ['image'],
    families: [
      family('command', 'Command', 2023, ['', 'light', 'nightly']),
      family('command-r', 'Command R', 2024, ['', '03-2024', '08-2024']),
      family('command-r-plus', 'Command R+', 2024, ['', '04-2024', '08-2024']),
      family('command-r7b', 'Command R7B', 2024, ['12-2024']),
      family('command-a', 'Command A', 2025, [
        '',
        'reasoning-08-2025',
        'vision-07-2025',
        'translate-08-2025',
      ]),
    ],
    variants: [],
  },
  {
    author: 'x-ai',
    label: 'xAI',
    ownProviders: ['xAI'],
    openWeights: false,
    tokenizer: 'Grok',
    instructType: 'none',
    extraInputs: ['image'],
    families: [
      family('grok-2', 'Grok 2', 2024, ['', '1212', 'vision-1212']),
      family('grok-3', 'Grok 3', 2025, ['', 'mini', 'beta', 'mini-beta']),
      family('grok-4', 'Grok 4', 2025, ['', 'fast', '07-09']),
      family('grok-4.1', 'Grok 4.1', 2025, ['fast']),
      family('grok-code-fast', 'Grok Code Fast', 2025, ['1']),
    ],
    variants: [],
  },
  {
    author: 'amazon',
    label: 'Amazon',
    ownProviders: ['Amazon Bedrock'],
    openWeights: false,
    tokenizer: 'Nova',
    instructType: 'none',
    extraInputs: ['image', 'video'],
    families: [
      family('nova-micro', 'Nova Micro', 2024, ['v1']),
      family('nova-lite', 'Nova Lite', 2024, ['v1']),
      family('nova-pro', 'Nova Pro', 2024, ['v1']),
      family('nova-premier', 'Nova Premier', 2025, ['v1']),
      family('nova-2-lite', 'Nova 2 Lite', 2025, ['v1']),
    ],
    variants: [],
  },
  {
    author: 'microsoft',
    label: 'Microsoft',
    ownProviders: ['Azure'],
    openWeights: true,
    tokenizer: 'Other',
    instructType: 'phi3',
    extraInputs: ['image'],
    families: [
      family('phi-3', 'Phi-3', 2024, ['mini-128k-instruct', 'medium-128k-instruct', 'medium-4k-instruct']),
      family('phi-3.5', 'Phi-3.5', 2024, ['mini-128k-instruct', 'moe-instruct']),
      family('phi-4', 'Phi 4', 2025, ['', 'multimodal-instruct', 'reasoning-plus', 'mini-instruct']),
      family('wizardlm-2', 'WizardLM-2', 2024, ['8x22b', '7b']),
      family('mai-ds-r1', 'MAI DS R1', 2025, ['']),
    ],
    variants: [],
  },
  {
    author: 'nvidia',
    label: 'NVIDIA',
    ownProviders: ['Nvidia'],
    openWeights: true,
    tokenizer: 'Llama3',
    instructType: 'nemotron',
    extraInputs: ['image'],
    families: [
      family('llama-3.1-nemotron', 'Llama 3.1 Nemotron', 2024, [
        '70b-instruct',
        'ultra-253b-v1',
        '51b-instruct',
      ]),
      family('llama-3.3-nemotron', 'Llama 3.3 Nemotron', 2025, ['super-49b-v1', 'super-49b-v1.5']),
      family('nemotron-nano', 'Nemotron Nano', 2025, ['9b-v2', '12b-v2-vl', '30b-a3b']),
    ],
    variants: [],
  },
  {
    author: 'ai21',
    label: 'AI21',
    ownProviders: ['AI21'],
    openWeights: false,
    tokenizer: 'Other',
    instructType: 'none',
    extraInputs: [],
    families: [
      family('jamba-1.5', 'Jamba 1.5', 2024, ['mini', 'large']),
      family('jamba-1.6', 'Jamba 1.6', 2025, ['mini', 'large']),
      family('jamba', 'Jamba', 2025, ['mini-1.7', 'large-1.7', 'instruct']),
    ],
    variants: [],
  },
  {
    author: 'perplexity',
    label: 'Perplexity',
    ownProviders: ['Perplexity'],
    openWeights: false,
    tokenizer: 'Other',
    instructType: 'none',
    extraInputs: ['image'],
    families: [
      family('sonar', 'Sonar', 2025, ['', 'pro', 'reasoning', 'reasoning-pro', 'deep-research']),
      family('llama-3.1-sonar', 'Llama 3.1 Sonar', 2024, [
        'small-128k-online',
        'large-128k-online',
        'huge-128k-online',
        'small-128k-chat',
      ]),
      family('r1-1776', 'R1 1776', 2025, ['']),
    ],
    variants: [],
  },
  {
    author: 'moonshotai',
    label: 'MoonshotAI',
    ownProviders: ['Moonshot AI'],
    openWeights: true,
    tokenizer: 'Other',
    instructType: 'none',
    extraInputs: ['image'],
    families: [
      family('kimi-k2', 'Kimi K2', 2025, ['', '0905', 'thinking', 'instruct']),
      family('kimi-dev', 'Kimi Dev', 2025, ['72b']),
      family('kimi-vl', 'Kimi VL', 2025, ['a3b-thinking', 'a3b-instruct']),
    ],
    variants: [],
  },
  {
    author: 'z-ai',
    label: 'Z.AI',
    ownProviders: ['Z.AI'],
    openWeights: true,
    tokenizer: 'Other',
    instructType: 'none',
    extraInputs: ['image'],
    families: [
      family('glm-4-32b', 'GLM 4 32B', 2025, ['']),
      family('glm-4.5', 'GLM 4.5', 2025, ['', 'air', 'v']),
      family('glm-4.6', 'GLM 4.6', 2025, ['', 'v']),
      family('glm-4.7', 'GLM 4.7', 2026, ['', 'flash']),
    ],
    variants: [],
  },
  {
    author: 'minimax',
    label: 'MiniMax',
    ownProviders: ['Minimax'],
    openWeights: true,
    tokenizer: 'Other',
    instructType: 'none',
    extraInputs: ['image'],
    families: [
      family('minimax-01', 'MiniMax-01', 2025, ['']),
      family('minimax-m1', 'MiniMax M1', 2025, ['', '40k', '80k']),
      family('minimax-m2', 'MiniMax M2', 2025, ['', '.1']),
    ],
    variants: [],
  },
  {
    author: 'nousresearch',
    label: 'Nous',
    ownProviders: [],
    openWeights: true,
    tokenizer: 'Llama3',
    instructType: 'chatml',
    extraInputs: [],
    families: [
      family('hermes-2-pro-llama-3', 'Hermes 2 Pro Llama 3', 2024, ['8b']),
      family('hermes-3-llama-3.1', 'Hermes 3 Llama 3.1', 2024, ['70b', '405b']),
      family('hermes-4', 'Hermes 4', 2025, ['70b', '405b']),
      family('deephermes-3', 'DeepHermes 3', 2025, ['llama-3-8b-preview', 'mistral-24b-preview']),
    ],
    variants: [],
  },
  {
    author: 'liquid',
    label: 'Liquid',
    ownProviders: ['Liquid'],
    openWeights: true,
    tokenizer: 'Other',
    instructType: 'chatml',
    extraInputs: [],
    families: [
      family('lfm', 'LFM', 2024, ['3b', '7b', '40b']),
      family('lfm2', 'LFM2', 2025, ['2.6b', '8b-a1b', '1.2b']),
    ],
    variants: [],
  },
  {
    author: 'arcee-ai',
    label: 'Arcee AI',
    ownProviders: ['Arcee AI'],
    openWeights: true,
    tokenizer: 'Other',
    instructType: 'chatml',
    extraInputs: [],
    families: [
      family('virtuoso', 'Virtuoso', 2025, ['large', 'medium-v2']),
      family('coder', 'Coder', 2025, ['large']),
      family('maestro', 'Maestro', 2025, ['reasoning']),
      family('spotlight', 'Spotlight', 2025, ['']),
      family('trinity', 'Trinity', 2025, ['mini', 'large-preview']),
    ],
    variants: [],
  },
  {
    author: 'inflection',
    label: 'Inflection',
    ownProviders: ['Inflection'],
    openWeights: false,
    tokenizer: 'Other',
    instructType: 'none',
    extraInputs: [],
    families: [family('inflection-3', 'Inflection 3', 2024, ['pi', 'productivity'])],
    variants: [],
  },
  {
    author: 'black-forest-labs',
    label: 'Black Forest Labs',
    ownProviders: ['Black Forest Labs'],
    openWeights: false,
    tokenizer: 'Other',
    instructType: 'none',
    extraInputs: ['image'],
    // Image generators are hand-written anchors (see anchor-models.ts): no generated chat models.
    families: [],
    variants: [],
  },
];

export function authorProfile(author: string, tokenizer?: string): AuthorProfile {
  const profile = AUTHOR_PROFILES.find(
    (candidate) =>
      candidate.author === author && (tokenizer === undefined || candidate.tokenizer === tokenizer),
  );
  if (!profile) throw new Error(`No author profile for ${author}`);
  return profile;
}
