import { z } from 'zod';

/**
 * The agent's configuration, set by session.update. Every field of a session.update is optional
 * and only the fields present change (AssemblyAI: "include only what you want to set or
 * change"); `tools` is replaced as a whole. Unknown fields are refused, as the spec lists them all.
 */

/** A JSON-schema property of a tool's parameters; JSON schema is open, so extra keywords pass. */
export interface JsonSchemaProperty {
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | undefined;
  description?: string | undefined;
  enum?: (string | number | boolean)[] | undefined;
  items?: JsonSchemaProperty | undefined;
  properties?: Record<string, JsonSchemaProperty> | undefined;
  required?: string[] | undefined;
}

const jsonSchemaPropertySchema: z.ZodType<JsonSchemaProperty> = z.lazy(() =>
  z.looseObject({
    type: z.enum(['string', 'number', 'integer', 'boolean', 'array', 'object']).optional(),
    description: z.string().optional(),
    enum: z
      .array(z.union([z.string(), z.number(), z.boolean()]))
      .min(1)
      .optional(),
    items: jsonSchemaPropertySchema.optional(),
    properties: z.record(z.string(), jsonSchemaPropertySchema).optional(),
    required: z.array(z.string()).optional(),
  }),
);

const toolSchema = z.strictObject({
  type: z.literal('function'),
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'tool names are 1-64 letters, digits, _ or -'),
  description: z.string().default(''),
  parameters: z
    .looseObject({
      type: z.literal('object'),
      properties: z.record(z.string(), jsonSchemaPropertySchema).default({}),
      required: z.array(z.string()).default([]),
    })
    .default({ type: 'object', properties: {}, required: [] }),
});
export type ToolDefinition = z.infer<typeof toolSchema>;

/** Only 16-bit PCM at 24 kHz is emulated (the spec: "the client streams PCM16 audio"). */
const formatSchema = z.strictObject({
  encoding: z.literal('audio/pcm').optional(),
  sample_rate: z.literal(24_000).optional(),
});

export const sessionPatchSchema = z.strictObject({
  system_prompt: z.string().optional(),
  greeting: z.string().optional(),
  input: z
    .strictObject({
      format: formatSchema.optional(),
      turn_detection: z
        .strictObject({
          type: z.literal('server_vad').optional(),
          vad_threshold: z.number().min(0).max(1).optional(),
        })
        .optional(),
    })
    .optional(),
  output: z
    .strictObject({
      voice: z.string().min(1).optional(),
      format: formatSchema.optional(),
      // AssemblyAI: 0 (silent) to 100 (loudest); null plays at the voice's native level.
      volume: z.number().min(0).max(100).nullable().optional(),
    })
    .optional(),
  tools: z.array(toolSchema).optional(),
});
export type SessionPatch = z.infer<typeof sessionPatchSchema>;

export interface AgentConfig {
  systemPrompt: string;
  greeting: string;
  /** RMS of a 20 ms frame, as a fraction of full scale, above which the frame counts as speech. */
  vadThreshold: number;
  voice: string;
  /** 0..100, or null for the native level. */
  volume: number | null;
  tools: ToolDefinition[];
}

export const DEFAULT_VAD_THRESHOLD = 0.02;

export const DEFAULT_CONFIG: AgentConfig = {
  systemPrompt: '',
  greeting: '',
  vadThreshold: DEFAULT_VAD_THRESHOLD,
  voice: 'default',
  volume: null,
  tools: [],
};

/**
 * Merges a session.update into the current configuration, or says why it cannot. `started`
 * is true once session.ready was sent: AssemblyAI makes output.voice immutable from then on.
 */
export function applySessionPatch(
  current: AgentConfig,
  patch: SessionPatch,
  started: boolean,
): { config: AgentConfig } | { error: string } {
  const voice = patch.output?.voice;
  if (started && voice !== undefined && voice !== current.voice) {
    return { error: 'output.voice cannot be changed after session.ready' };
  }
  const names = (patch.tools ?? []).map((tool) => tool.name);
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  if (duplicate) return { error: `tools: the name ${duplicate} is used twice` };
  const volume = patch.output?.volume;
  return {
    config: {
      systemPrompt: patch.system_prompt ?? current.systemPrompt,
      greeting: patch.greeting ?? current.greeting,
      vadThreshold: patch.input?.turn_detection?.vad_threshold ?? current.vadThreshold,
      voice: voice ?? current.voice,
      volume: volume === undefined ? current.volume : volume,
      tools: patch.tools ?? current.tools,
    },
  };
}
