import { z } from 'zod';
import { HttpError } from '../http';

/**
 * The body of POST /v1/chat/completions (spec: transcription-service.md, "Gateway"). Every
 * validation failure is a 400 `{"error": "<field>: <why>"}` naming the field.
 */

const message = (text: string) => ({ error: text });

const textPartSchema = z.object({ type: z.literal('text'), text: z.string() });

const toolCallSchema = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

/**
 * Message items keep unknown fields: OpenAI's SDK returns assistant messages with extra fields
 * (`refusal`, `annotations`) that clients append to the conversation as they are, and
 * OpenAI-compatible services accept them.
 */
const messageSchema = z
  .object({
    role: z.enum(
      ['system', 'user', 'assistant', 'tool'],
      message('must be one of system, user, assistant, tool'),
    ),
    content: z.union([z.string(), z.array(textPartSchema), z.null()], {
      error: (issue) =>
        issue.input === undefined
          ? 'is required'
          : 'must be a string or an array of {type: "text", text} parts',
    }),
    name: z.string().optional(),
    tool_call_id: z.string().optional(),
    tool_calls: z.array(toolCallSchema).optional(),
  })
  .superRefine((item, ctx) => {
    if (item.content === null && !(item.role === 'assistant' && item.tool_calls?.length)) {
      ctx.addIssue({
        code: 'custom',
        path: ['content'],
        message: 'may be null only on an assistant message with tool_calls',
      });
    }
    if (item.role === 'tool' && !item.tool_call_id) {
      ctx.addIssue({ code: 'custom', path: ['tool_call_id'], message: 'is required on a tool message' });
    }
  });

const toolSchema = z.object({
  type: z.literal('function', message('must be "function"')),
  function: z.object({
    name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, message('must be 1-64 letters, digits, _ or -')),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().optional(),
  }),
});

/** The spec allows `none` and `auto`; OpenAI's object form (force one named tool) is accepted for its SDK. */
const toolChoiceSchema = z.union(
  [
    z.enum(['none', 'auto']),
    z.object({ type: z.literal('function'), function: z.object({ name: z.string() }) }),
  ],
  message('must be "none", "auto" or {type: "function", function: {name}}'),
);

const responseFormatSchema = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('json_schema'),
      json_schema: z.object({
        name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, message('must be 1-64 letters, digits, _ or -')),
        schema: z.record(z.string(), z.unknown(), message('must be a JSON schema object')),
        description: z.string().optional(),
        strict: z.boolean().nullable().optional(),
      }),
    }),
    z.object({ type: z.literal('json_object') }),
  ],
  message('type must be "json_schema" or "json_object"'),
);

/** Fields a fallback may override; they are the request's own fields too. */
const overridableFields = {
  messages: z.array(messageSchema).min(1, message('must not be empty')).optional(),
  prompt: z.string().min(1, message('must not be empty')).optional(),
  transcript_id: z.string().min(1, message('must not be empty')).optional(),
  max_tokens: z
    .number(message('must be an integer >= 1'))
    .int(message('must be an integer >= 1'))
    .min(1, message('must be an integer >= 1'))
    .optional(),
  temperature: z
    .number(message('must be a number from 0 to 2'))
    .min(0, message('must be a number from 0 to 2'))
    .max(2, message('must be a number from 0 to 2'))
    .optional(),
  stream: z.boolean().optional(),
  tools: z.array(toolSchema).optional(),
  tool_choice: toolChoiceSchema.optional(),
  response_format: responseFormatSchema.optional(),
  post_processing_steps: z
    .array(z.object({ type: z.literal('json-repair', message('must be "json-repair"')) }))
    .optional(),
  // Sampling options of the OpenAI API, which the gateway (OpenAI-compatible) passes to the provider.
  top_p: z.number().min(0).max(1).optional(),
  stop: z.union([z.string(), z.array(z.string())]).optional(),
  seed: z.number().int().optional(),
  user: z.string().optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).optional(),
  parallel_tool_calls: z.boolean().optional(),
};

const modelSchema = z.string(message('is required')).min(1, message('is required'));

const fallbackSchema = z.strictObject({ model: modelSchema, ...overridableFields });

/**
 * Top-level and fallback objects are strict so a misspelt field (`max_token`) is reported
 * instead of silently ignored; the real gateway's handling of unknown fields is not documented.
 */
const chatRequestSchema = z.strictObject({
  model: modelSchema,
  ...overridableFields,
  fallbacks: z.array(fallbackSchema).optional(),
  /** AssemblyAI: `depth` chains up to two fallbacks (default one); `retry` (default true) retries a lone model once. */
  fallback_config: z
    .strictObject({
      depth: z.number().int().min(1).max(2, message('must be 1 or 2')).optional(),
      retry: z.boolean().optional(),
    })
    .optional(),
});

export type ChatRequest = z.infer<typeof chatRequestSchema>;
export type FallbackRequest = z.infer<typeof fallbackSchema>;
export type ChatMessage = z.infer<typeof messageSchema>;
export type Tool = z.infer<typeof toolSchema>;
export type ToolChoice = z.infer<typeof toolChoiceSchema>;
export type ResponseFormat = z.infer<typeof responseFormatSchema>;
export type ToolCall = z.infer<typeof toolCallSchema>;

/** One model's request after a fallback's overrides are applied. */
export type EffectiveRequest = Omit<ChatRequest, 'fallbacks' | 'fallback_config'>;

export function badRequest(text: string): HttpError {
  return new HttpError(400, { error: text });
}

export function parseChatRequest(body: unknown): ChatRequest {
  const parsed = chatRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest(issue ? describeIssue(issue) : 'Invalid request body');
  }
  return parsed.data;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path
    .map((segment, index) =>
      typeof segment === 'number' ? `[${segment}]` : `${index === 0 ? '' : '.'}${String(segment)}`,
    )
    .join('');
  return path ? `${path}: ${issue.message}` : issue.message;
}

/**
 * A fallback inherits every field it does not set. Setting `prompt` replaces inherited
 * `messages` and the other way round, since a request carries one or the other.
 */
export function applyFallback(primary: EffectiveRequest, fallback: FallbackRequest): EffectiveRequest {
  const merged: EffectiveRequest = { ...primary, ...fallback };
  if (fallback.prompt !== undefined && fallback.messages === undefined) delete merged.messages;
  if (fallback.messages !== undefined && fallback.prompt === undefined) delete merged.prompt;
  return merged;
}

/** Checks what the schema cannot express per field; `where` prefixes the message for a fallback. */
export function checkConversation(request: EffectiveRequest, where: string): void {
  if (request.messages === undefined && request.prompt === undefined) {
    throw badRequest(`${where}either messages or prompt is required`);
  }
  if (request.messages !== undefined && request.prompt !== undefined) {
    throw badRequest(`${where}messages and prompt cannot be used together`);
  }
  const choice = request.tool_choice;
  if (
    typeof choice === 'object' &&
    !request.tools?.some((tool) => tool.function.name === choice.function.name)
  ) {
    throw badRequest(`${where}tool_choice.function.name: no tool named "${choice.function.name}" in tools`);
  }
}
