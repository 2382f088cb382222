import { z } from 'zod';
import { VerbatimError } from '../../../shared/errors';

/**
 * The body of POST {gateway_url}/v1/chat/completions (transcription-service.md, "Gateway"),
 * checked before anything is sent so that a mistake is reported with the field's name rather
 * than spent as a paid request. Where the spec says "not shown" (message and tool shapes,
 * fallback_config's fields, response_format's shape) this follows AssemblyAI's documented,
 * OpenAI-compatible gateway.
 */

export const DEFAULT_MAX_TOKENS = 1000;

/** The gateway's tag for the stored transcript: `{{ transcript }}`, spaces inside optional. */
export const TRANSCRIPT_TAG = '{{ transcript }}';
const transcriptTagPattern = /\{\{\s*transcript\s*\}\}/;

const toolName = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, "_" or "-"');

export const toolCallSchema = z.object({
  id: z.string().min(1, 'must not be empty'),
  type: z.literal('function').default('function'),
  function: z.object({ name: z.string().min(1, 'must not be empty'), arguments: z.string() }),
});
export type ToolCall = z.output<typeof toolCallSchema>;

export const chatMessageSchema = z
  .object({
    role: z.enum(['system', 'user', 'assistant', 'tool'], 'must be system, user, assistant or tool'),
    content: z.string('must be text').nullable(),
    name: z.string().optional(),
    tool_calls: z.array(toolCallSchema).optional(),
    tool_call_id: z.string().optional(),
  })
  .check((ctx) => {
    const message = ctx.value;
    if (message.content === null && !(message.role === 'assistant' && message.tool_calls?.length))
      ctx.issues.push({
        code: 'custom',
        path: ['content'],
        message: 'may be empty only on an assistant message that calls tools',
        input: message,
      });
    if (message.role === 'tool' && !message.tool_call_id)
      ctx.issues.push({
        code: 'custom',
        path: ['tool_call_id'],
        message: 'is required on a tool result',
        input: message,
      });
  });
export type ChatMessage = z.output<typeof chatMessageSchema>;

export const gatewayToolSchema = z.object({
  type: z.literal('function', 'must be "function"'),
  function: z.object({
    name: toolName,
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type GatewayTool = z.output<typeof gatewayToolSchema>;

export const responseFormatSchema = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('json_schema'),
      json_schema: z.object({
        name: toolName,
        schema: z.record(z.string(), z.unknown(), 'must be a JSON Schema object'),
        strict: z.boolean().optional(),
      }),
    }),
    z.object({ type: z.literal('json_object') }),
  ],
  'type must be "json_schema" or "json_object"',
);
export type ResponseFormat = z.output<typeof responseFormatSchema>;

/** The fields a fallback may override, which are the request's own. */
const requestFields = {
  messages: z.array(chatMessageSchema).min(1, 'must hold at least one message').optional(),
  prompt: z.string().min(1, 'must not be empty').optional(),
  transcript_id: z.string().min(1, 'must not be empty').optional(),
  max_tokens: z.int('must be a whole number of at least 1').min(1, 'must be at least 1').optional(),
  temperature: z
    .number('must be a number from 0 to 2')
    .min(0, 'must be from 0 to 2')
    .max(2, 'must be from 0 to 2')
    .optional(),
  stream: z.boolean().optional(),
  tools: z.array(gatewayToolSchema).optional(),
  tool_choice: z.enum(['none', 'auto'], 'must be "none" or "auto"').optional(),
  response_format: responseFormatSchema.optional(),
  post_processing_steps: z
    .array(z.object({ type: z.literal('json-repair', 'the supported step is "json-repair"') }))
    .optional(),
};

const modelName = z.string('is required').trim().min(1, 'is required').max(200, 'is too long');

export const fallbackSchema = z.strictObject({ model: modelName, ...requestFields });
export type Fallback = z.output<typeof fallbackSchema>;

export const chatRequestSchema = z.strictObject({
  model: modelName,
  ...requestFields,
  fallbacks: z.array(fallbackSchema).max(2, 'the gateway tries at most two').optional(),
  /** AssemblyAI: `depth` (1 or 2 fallbacks, default 1) and `retry` (a lone model once, default on). */
  fallback_config: z
    .strictObject({
      depth: z.int('must be 1 or 2').min(1, 'must be 1 or 2').max(2, 'must be 1 or 2').optional(),
      retry: z.boolean().optional(),
    })
    .optional(),
});
export type ChatRequest = z.input<typeof chatRequestSchema>;
export type CheckedChatRequest = z.output<typeof chatRequestSchema>;

/**
 * Checks a request and fills in max_tokens; throws a VerbatimError naming the first faulty
 * field (`fallbacks[0].temperature: must be from 0 to 2`).
 */
export function checkChatRequest(request: ChatRequest): CheckedChatRequest {
  const parsed = chatRequestSchema.safeParse(request);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? fieldPath(issue.path) : '';
    throw invalid(where ? `${where}: ${issue?.message}` : (issue?.message ?? 'the request is not valid'));
  }
  const checked = { ...parsed.data, max_tokens: parsed.data.max_tokens ?? DEFAULT_MAX_TOKENS };
  checkConversation(checked, '');
  for (const [index, fallback] of (checked.fallbacks ?? []).entries()) {
    checkConversation(
      {
        ...checked,
        ...fallback,
        ...(fallback.prompt !== undefined && !fallback.messages ? { messages: undefined } : {}),
        ...(fallback.messages !== undefined && !fallback.prompt ? { prompt: undefined } : {}),
      },
      `fallbacks[${index}].`,
    );
  }
  return checked;
}

function checkConversation(request: Omit<CheckedChatRequest, 'fallbacks'>, where: string): void {
  if (request.messages === undefined && request.prompt === undefined)
    throw invalid(`${where}messages: either messages or prompt is required`);
  if (request.messages !== undefined && request.prompt !== undefined)
    throw invalid(`${where}prompt: send either messages or prompt, not both`);
  if (request.transcript_id !== undefined) {
    const texts = request.prompt !== undefined ? [request.prompt] : request.messages!.map((m) => m.content);
    if (!texts.some((text) => text !== null && transcriptTagPattern.test(text)))
      throw invalid(
        `${where}transcript_id: put a ${TRANSCRIPT_TAG} tag where the transcript should go, or the model never sees it`,
      );
  }
}

function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
}

function invalid(detail: string): VerbatimError {
  return new VerbatimError('invalid_input', `The question could not be sent (${detail}).`, {
    field: detail.split(':')[0],
  });
}
