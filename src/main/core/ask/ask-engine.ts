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
import { toolResultText, type ToolDefinition } from '../library-tools/library-tools';

/**
 * One question about one transcript, asked as a conversation. The first message carries the
 * transcript by reference (the gateway injects it for `transcript_id`), unless the journalist
 * has corrected it: the service's copy does not know the corrections, so then the corrected
 * text goes in the message itself. The library tools are offered for free questions, each tool call is run in main and the
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
  /**
   * What the model reads: the service's transcript by its id (the gateway's transcript_id), or,
   * once the journalist has corrected it, the corrected text itself, which the service's stored
   * copy does not know.
   */
  transcript: { remoteId: string } | { correctedText: string };
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

/**
 * The first message. Without corrected text the gateway puts the stored transcript where the
 * tag is; with it, the text is there already (and no tag is left for the gateway to fill).
 */
export function systemPrompt(title: string, correctedText?: string): string {
  return [
    `You help a journalist work with the transcript of a recording titled "${title}".`,
    'Quote the transcript word for word; never invent quotes, names or figures.',
    'Tools can search the rest of their library or read a passage with its times.',
    '',
    correctedText === undefined ? 'The transcript:' : 'The transcript, as the journalist corrected it:',
    correctedText ?? TRANSCRIPT_TAG,
  ].join('\n');
}

/**
 * A corrected transcript as the model reads it: a paragraph for each turn, with the speaker's
 * name as the journalist set it, so it can say who said what.
 */
export function correctedTranscriptText(
  sentences: readonly { speaker: string | null; text: string }[],
  speakerName: (label: string) => string,
): string {
  const turns: { speaker: string | null; texts: string[] }[] = [];
  for (const sentence of sentences) {
    const last = turns.at(-1);
    if (last && last.speaker === sentence.speaker) last.texts.push(sentence.text);
    else turns.push({ speaker: sentence.speaker, texts: [sentence.text] });
  }
  return turns
    .map((turn) => `${turn.speaker === null ? '' : `${speakerName(turn.speaker)}: `}${turn.texts.join(' ')}`)
    .join('\n\n');
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

/** What the answer has gathered so far, across the rounds of tool calls. */
interface AnswerSoFar {
  text: string;
  usage: AskUsage | null;
  responseTimeMs: number | null;
  /** The latest round's answer: who answered, and the request's id. */
  last: GatewayAnswer | undefined;
}

type RecordEntry = (entry: AskEntry) => void;

export async function ask(request: AskRequest, deps: AskDependencies): Promise<AskEntry[]> {
  const entries: AskEntry[] = [];
  const record: RecordEntry = (entry) => {
    entries.push(entry);
    request.onEntry?.(entry);
  };
  record(questionEntry(request, deps));
  const soFar: AnswerSoFar = { text: '', usage: null, responseTimeMs: null, last: undefined };
  const answer = (status: AnswerEntry['status'], problem?: string): AnswerEntry =>
    answerEntry(request, deps, soFar, status, problem);
  try {
    await converse(request, deps, soFar, record);
  } catch (error) {
    if (!(error instanceof VerbatimError)) throw error;
    const stopped = error.code === 'cancelled';
    record(answer(stopped ? 'stopped' : 'failed', stopped ? undefined : error.message));
    return entries;
  }
  record(completeAnswer(request.format, soFar.text, answer));
  return entries;
}

function questionEntry(request: AskRequest, deps: AskDependencies): AskEntry {
  return {
    kind: 'question',
    id: deps.newId(),
    at: deps.now(),
    text: request.question,
    ...(request.label ? { label: request.label } : {}),
    format: request.format,
  };
}

function answerEntry(
  request: AskRequest,
  deps: AskDependencies,
  soFar: AnswerSoFar,
  status: AnswerEntry['status'],
  problem?: string,
): AnswerEntry {
  return {
    kind: 'answer',
    id: deps.newId(),
    at: deps.now(),
    status,
    text: soFar.text,
    format: request.format,
    ...(problem ? { problem } : {}),
    requestedModel: request.model,
    model: soFar.last?.model ?? request.model,
    usage: soFar.usage,
    responseTimeMs: soFar.responseTimeMs,
    requestId: soFar.last?.requestId ?? null,
  };
}

/** The finished answer; a structured one is checked against its format's schema. */
function completeAnswer(
  format: AskFormat,
  text: string,
  answer: (status: AnswerEntry['status'], problem?: string) => AnswerEntry,
): AnswerEntry {
  if (format === 'text') return answer('complete');
  const read = readStructured(format, text);
  return 'value' in read
    ? { ...answer('complete'), structured: read.value }
    : answer('complete', read.problem);
}

/**
 * Asks, runs the tool calls the model makes and asks again with their results, until the model
 * answers without calling a tool. Streamed text is handed on as it arrives.
 */
async function converse(
  request: AskRequest,
  deps: AskDependencies,
  soFar: AnswerSoFar,
  record: RecordEntry,
): Promise<void> {
  const messages: ChatMessage[] = [
    {
      role: 'system',
      content: systemPrompt(
        request.title,
        'correctedText' in request.transcript ? request.transcript.correctedText : undefined,
      ),
    },
    ...historyMessages(request.history),
    { role: 'user', content: request.question },
  ];
  const tools: GatewayTool[] = deps.tools.map((tool) => ({ type: 'function', function: tool }));
  for (let round = 0; ; round++) {
    const roundText: string[] = [];
    const last = await askWithFallbacks(
      roundRequest(request, messages, tools, round),
      request,
      deps,
      (delta) => {
        if (delta.type !== 'content') return;
        roundText.push(delta.text);
        soFar.text += delta.text;
        request.onDelta?.(delta.text);
      },
    );
    soFar.last = last;
    soFar.usage = addUsage(soFar.usage, last);
    soFar.responseTimeMs = (soFar.responseTimeMs ?? 0) + last.responseTimeMs;
    if (last.toolCalls.length === 0) {
      // A non-streamed answer (or a provider that could not stream) arrives whole.
      if (roundText.length === 0 && last.content) {
        soFar.text += last.content;
        request.onDelta?.(last.content);
      }
      return;
    }
    messages.push({ role: 'assistant', content: last.content, tool_calls: last.toolCalls });
    for (const call of last.toolCalls) messages.push(await runCall(call, deps, record));
  }
}

/**
 * One round's request: a structured answer asks for its JSON schema (repaired by the gateway);
 * a text answer is offered the tools, until the last round, which must answer with what it has.
 */
function roundRequest(
  request: AskRequest,
  messages: ChatMessage[],
  tools: GatewayTool[],
  round: number,
): Omit<ChatRequest, 'model'> {
  return {
    ...('remoteId' in request.transcript ? { transcript_id: request.transcript.remoteId } : {}),
    messages,
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
    ...(request.format !== 'text'
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
}

async function runCall(call: ToolCall, deps: AskDependencies, record: RecordEntry): Promise<ChatMessage> {
  const result = toolResultText(await deps.runTool(call.function.name, call.function.arguments));
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
