import type { PresetVersion } from './catalog-types';
import { deterministicUuid } from './seeded-random';

/**
 * Stored presets of the catalog: saved configurations a newsroom would keep, each with a few
 * versions so that clients can fetch an older one. The full key set of `config` is not shown
 * in the spec; these use OpenRouter's preset settings (model, temperature, max_tokens, provider).
 */

interface PresetDraft {
  config: Record<string, unknown>;
  systemPrompt: string | null;
}

const PRESET_DRAFTS: Record<string, PresetDraft[]> = {
  'newsroom-summary': [
    {
      config: { model: 'anthropic/claude-sonnet-4', temperature: 0.4, max_tokens: 600 },
      systemPrompt: 'Summarise the transcript in five sentences for a news editor.',
    },
    {
      config: { model: 'anthropic/claude-sonnet-4.5', temperature: 0.3, max_tokens: 800 },
      systemPrompt: 'Summarise the transcript for a news editor. Keep names and numbers exactly as spoken.',
    },
    {
      config: {
        model: 'anthropic/claude-sonnet-4.6',
        temperature: 0.2,
        max_tokens: 800,
        provider: { order: ['Anthropic', 'Amazon Bedrock'], allow_fallbacks: true },
      },
      systemPrompt:
        'Summarise the transcript for a news editor in at most five sentences. Quote speakers verbatim and mark anything uncertain.',
    },
  ],
  'fact-check': [
    {
      config: { model: 'openai/gpt-4.1', temperature: 0 },
      systemPrompt: null,
    },
    {
      config: { model: 'openai/gpt-5', temperature: 0.1, max_tokens: 1200 },
      systemPrompt: 'List every checkable claim in the transcript with the speaker and the timestamp.',
    },
  ],
  'interview-questions': [
    {
      config: { model: 'google/gemini-2.5-flash', temperature: 0.9 },
      systemPrompt: 'Suggest follow-up questions a reporter could ask the interviewee.',
    },
    {
      config: { model: 'google/gemini-2.5-pro', temperature: 0.7, max_tokens: 500 },
      systemPrompt: 'Suggest five follow-up questions, each tied to a quote from the transcript.',
    },
    {
      config: { model: 'google/gemini-3-flash-preview', temperature: 0.7, max_tokens: 500 },
      systemPrompt: 'Suggest five pointed follow-up questions, each tied to a quote from the transcript.',
    },
  ],
  'headline-ideas': [
    {
      config: { model: 'openai/gpt-5-mini', temperature: 1 },
      systemPrompt: 'Propose three headlines for the story told in the transcript.',
    },
    {
      config: { model: 'anthropic/claude-haiku-4.5', temperature: 0.8, max_tokens: 200 },
      systemPrompt: 'Propose three factual headlines of at most ten words each.',
    },
  ],
};

/** The creation date of the first version; later versions follow a few weeks apart. */
const FIRST_VERSION_AT = Date.UTC(2025, 8, 1, 9, 30);
const WEEK_MS = 7 * 86_400_000;

export function buildPresets(): Map<string, PresetVersion[]> {
  const presets = new Map<string, PresetVersion[]>();
  Object.entries(PRESET_DRAFTS).forEach(([slug, drafts], presetIndex) => {
    const presetId = deterministicUuid(`preset:${slug}`);
    const versions = drafts.map((draft, index): PresetVersion => {
      const createdAt = FIRST_VERSION_AT + presetIndex * 86_400_000 + index * 3 * WEEK_MS;
      return {
        id: deterministicUuid(`preset-version:${slug}:${index + 1}`),
        preset_id: presetId,
        version: index + 1,
        config: draft.config,
        system_prompt: draft.systemPrompt,
        creator_id: `user_${deterministicUuid('preset-creator').replaceAll('-', '').slice(0, 24)}`,
        created_at: new Date(createdAt).toISOString(),
        updated_at: new Date(createdAt + 3_600_000).toISOString(),
      };
    });
    presets.set(slug, versions);
  });
  return presets;
}
