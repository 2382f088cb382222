import { z } from 'zod';
import {
  structuredSchemas,
  type AnswerEntry,
  type AskEntry,
  type AskFormat,
  type AskUsage,
} from '../../../shared/ask';
import { VerbatimError } from '../../../shared/errors';
import { ServiceError } from '../http/service-error';
import type { GatewayAnswer, StreamDelta } from '../gateway/completion-stream';
import type { GatewayClient } from '../gateway/gateway-client';
import {
  TRANSCRIPT_TAG,
  type ChatMessage,
  type ChatRequest,
  type GatewayTool,
  type ToolCall,
} from '../gateway/gateway-request';
import type { ToolDefinition } from '../library-tools/library-tools';

/**
 * One question about one transcript, asked as a conversation. The first message carries the
 * transcript by reference (the gateway injects it for `transcript_id`; Verbatim never pastes
 * it), the library tools are offered for free questions, each tool call is run in main and the
 * conversation continued with its result, fallback models are tried in order, and the answer
 * records who answered, what it cost and how long it took.
 */

export interface AskDependencies {
  gateway: Pick<GatewayClient, 'answer' | 'stream'>;
  tools: ToolDefinition[];
  runTool: (name: string, args: string) => Promise<unknown>;
  now: () => number;
  newId: () => string;
}

export interface AskRequest {
  /** The service's id of the transcript (the gateway's transcript_id). */
  remoteTranscriptId: string;
  title: string;
  history: AskEntry[];
  question: string;
  label?: string;
  format: AskFormat;
  /** The JSON Schema of a `json` answer. */
  jsonSchema?: Record<string, unknown>;
  model: string;
  fallbackModels: string[];
  temperature?: number;
  maxTokens?: number;
  stream: boolean;
  signal?: AbortSignal;
  onDelta?: (text: string) => void;
  /** Each entry as soon as it exists: the question, every tool call, the answer. */
  onEntry?: (entry: AskEntry) => void;
}

/** Rounds of tool calls before the model must answer with what it has. */
const maxToolRounds = 4;
/** The gateway tries a primary and at most two fallbacks per request. */
const modelsPerRequest = 3;

export function systemPrompt(title: string): string {
  return [
    `You help a journalist work with the transcript of a recording titled "${title}".`,
    'Quote the transcript word for word; never invent quotes, names or figures.',
    'Tools can search the rest of their library or read a passage with its times.',
    '',
    'The transcript:',
    TRANSCRIPT_TAG,
  ].join('\n');
}

/** The conversation so far as gateway messages: tool calls grouped, failed answers left out. */
export function historyMessages(history: AskEntry[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  let calls: Extract<AskEntry, { kind: 'tool' }>[] = [];
  const flushCalls = (): void => {
    if (calls.length === 0) return;
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: calls.map((call) => ({
        id: call.callId,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      })),
    });
    for (const call of calls)
      messages.push({ role: 'tool', tool_call_id: call.callId, content: call.result });
    calls = [];
  };
  for (const entry of history) {
    if (entry.kind === 'tool') {
      calls.push(entry);
      continue;
    }
    flushCalls();
    if (entry.kind === 'question') messages.push({ role: 'user', content: entry.text });
    else if (entry.text.trim() !== '' && entry.status !== 'failed')
      messages.push({ role: 'assistant', content: entry.text });
  }
  flushCalls();
  return messages;
}

export async function ask(request: AskRequest, deps: AskDependencies): Promise<AskEntry[]> {
  const entries: AskEntry[] = [];
  const record = (entry: AskEntry): void => {
    entries.push(entry);
    request.onEntry?.(entry);
  };
  record({
    kind: 'question',
    id: deps.newId(),
    at: deps.now(),
    text: request.question,
    ...(request.label ? { label: request.label } : {}),
    format: request.format,
  });

  const messages: ChatMessage[] = [
    { role: 'system', content: systemPrompt(request.title) },
    ...historyMessages(request.history),
    { role: 'user', content: request.question },
  ];
  const structured = request.format !== 'text';
  const tools: GatewayTool[] = deps.tools.map((tool) => ({ type: 'function', function: tool }));
  let text = '';
  let usage: AskUsage | null = null;
  let responseTimeMs: number | null = null;
  let last: GatewayAnswer | undefined;

  const answerEntry = (status: AnswerEntry['status'], problem?: string): AnswerEntry => ({
    kind: 'answer',
    id: deps.newId(),
    at: deps.now(),
    status,
    text,
    format: request.format,
    ...(problem ? { problem } : {}),
    requestedModel: request.model,
    model: last?.model ?? request.model,
    usage,
    responseTimeMs,
    requestId: last?.requestId ?? null,
  });

  try {
    for (let round = 0; ; round++) {
      const base: Omit<ChatRequest, 'model'> = {
        transcript_id: request.remoteTranscriptId,
        messages,
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
        ...(structured
          ? {
              response_format: {
                type: 'json_schema',
                json_schema: {
                  name: `verbatim_${request.format}`,
                  schema: request.jsonSchema ?? jsonSchemaOf(request.format),
                },
              },
              post_processing_steps: [{ type: 'json-repair' }],
            }
          : tools.length > 0
            ? { tools, tool_choice: round < maxToolRounds ? 'auto' : 'none' }
            : {}),
      };
      const roundText: string[] = [];
      last = await askWithFallbacks(base, request, deps, (delta) => {
        if (delta.type !== 'content') return;
        roundText.push(delta.text);
        text += delta.text;
        request.onDelta?.(delta.text);
      });
      usage = addUsage(usage, last);
      responseTimeMs = (responseTimeMs ?? 0) + last.responseTimeMs;
      if (last.toolCalls.length === 0) {
        // A non-streamed answer (or a provider that could not stream) arrives whole.
        if (roundText.length === 0 && last.content) {
          text += last.content;
          request.onDelta?.(last.content);
        }
        break;
      }
      messages.push({ role: 'assistant', content: last.content, tool_calls: last.toolCalls });
      for (const call of last.toolCalls) messages.push(await runCall(call, deps, record));
    }
  } catch (error) {
    if (!(error instanceof VerbatimError)) throw error;
    const stopped = error.code === 'cancelled';
    record(answerEntry(stopped ? 'stopped' : 'failed', stopped ? undefined : error.message));
    return entries;
  }

  if (request.format === 'text') {
    record(answerEntry('complete'));
    return entries;
  }
  const read = readStructured(request.format, text);
  record(
    'value' in read
      ? { ...answerEntry('complete'), structured: read.value }
      : answerEntry('complete', read.problem),
  );
  return entries;
}

async function runCall(
  call: ToolCall,
  deps: AskDependencies,
  record: (entry: AskEntry) => void,
): Promise<ChatMessage> {
  const result = JSON.stringify(await deps.runTool(call.function.name, call.function.arguments));
  record({
    kind: 'tool',
    id: deps.newId(),
    at: deps.now(),
    callId: call.id,
    name: call.function.name,
    arguments: call.function.arguments,
    result,
  });
  return { role: 'tool', tool_call_id: call.id, content: result };
}

/**
 * The primary model with the first fallbacks in one request (the gateway tries them in order);
 * when all of them fail, the next models of the setting in a new request.
 */
async function askWithFallbacks(
  base: Omit<ChatRequest, 'model'>,
  request: AskRequest,
  deps: AskDependencies,
  onDelta: (delta: StreamDelta) => void,
): Promise<GatewayAnswer> {
  const chain = [request.model, ...request.fallbackModels.filter((model) => model !== request.model)];
  for (let start = 0; ; start += modelsPerRequest) {
    const [primary, ...fallbacks] = chain.slice(start, start + modelsPerRequest);
    const body: ChatRequest = {
      ...base,
      model: primary ?? request.model,
      ...(fallbacks.length > 0
        ? {
            fallbacks: fallbacks.map((model) => ({ model })),
            fallback_config: { depth: fallbacks.length },
          }
        : {}),
    };
    try {
      return request.stream
        ? await deps.gateway.stream(body, { signal: request.signal, onDelta })
        : await deps.gateway.answer(body, { signal: request.signal });
    } catch (error) {
      const allFailed = error instanceof ServiceError && error.status === 502;
      if (!allFailed || start + modelsPerRequest >= chain.length) throw error;
    }
  }
}

function addUsage(total: AskUsage | null, answer: GatewayAnswer): AskUsage | null {
  if (!answer.usage) return total;
  return {
    inputTokens: (total?.inputTokens ?? 0) + answer.usage.input_tokens,
    outputTokens: (total?.outputTokens ?? 0) + answer.usage.output_tokens,
    totalTokens: (total?.totalTokens ?? 0) + answer.usage.total_tokens,
  };
}

export function jsonSchemaOf(format: AskFormat): Record<string, unknown> {
  if (format === 'text' || format === 'json') throw new Error(`a ${format} answer has no built-in schema`);
  const { $schema: _schema, ...schema } = z.toJSONSchema(structuredSchemas[format]) as Record<
    string,
    unknown
  >;
  return schema;
}

/** A structured answer checked against its format's schema, or a problem a journalist can act on. */
export function readStructured(
  format: Exclude<AskFormat, 'text'>,
  text: string,
): { value: unknown } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {
      problem:
        'The model did not answer in the form Verbatim asked for (its JSON could not be read, even after repair). Try again, or choose another model.',
    };
  }
  if (format === 'json') return { value: json };
  const parsed = structuredSchemas[format].safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      problem: `The model's answer is missing part of what Verbatim asked for (${issue ? `${issue.path.join('.') || 'answer'}: ${issue.message}` : 'unknown'}). Try again, or choose another model.`,
    };
  }
  return { value: parsed.data };
}
