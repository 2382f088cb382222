import { ServiceError } from '../http/service-error';
import type { ToolCall } from './gateway-request';
import {
  completionChunkSchema,
  streamErrorSchema,
  type ChatCompletion,
  type CompletionChunk,
  type Usage,
} from './gateway-response';
import { SseParser } from './sse-parser';

/**
 * A streamed answer read event by event: each content or tool-call fragment is handed to the
 * caller the moment its event is complete, and the whole answer is assembled on the way.
 */

export type StreamDelta =
  | { type: 'content'; text: string }
  | { type: 'tool_call'; index: number; id?: string; name?: string; arguments: string };

/** One answer, streamed or not, in the shape the rest of Verbatim uses. */
export interface GatewayAnswer {
  requestId: string | undefined;
  /** The model that answered: the primary's or a fallback's. */
  model: string;
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: string | null;
  usage: Usage | undefined;
  responseTimeMs: number;
  llmStatusCode: number | undefined;
}

/** A failure that arrived inside the stream, after part of the answer. */
export class GatewayStreamError extends ServiceError {
  constructor(
    readonly providerMessage: string,
    readonly providerCode: unknown,
    readonly partialContent: string,
  ) {
    super(
      'service',
      `The model stopped part-way through its answer. Try again, or pick another model. It said: "${providerMessage}"`,
      typeof providerCode === 'number' ? providerCode : undefined,
      providerMessage,
    );
    this.name = 'GatewayStreamError';
  }
}

export function answerFromCompletion(completion: ChatCompletion, requestedModel: string): GatewayAnswer {
  const choice = completion.choices[0];
  return {
    requestId: completion.request_id,
    model: completion.model ?? completion.request?.model ?? requestedModel,
    content: choice?.message.content ?? null,
    toolCalls: choice?.message.tool_calls ?? [],
    finishReason: choice?.finish_reason ?? null,
    usage: completion.usage,
    responseTimeMs: Math.round(completion.response_time / 1_000_000),
    llmStatusCode: completion.llm_status_code,
  };
}

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

type ChunkChoice = CompletionChunk['choices'][number];
type ToolCallFragment = NonNullable<ChunkChoice['delta']['tool_calls']>[number];

/**
 * Reads a response body of server-sent events to the end (`data: [DONE]`), calling `onDelta`
 * for every fragment as it arrives. Throws GatewayStreamError for an error event.
 */
export async function readCompletionStream(
  body: AsyncIterable<Uint8Array>,
  options: {
    requestedModel: string;
    onDelta?: (delta: StreamDelta) => void;
    now: () => number;
    startedAt: number;
  },
): Promise<GatewayAnswer> {
  const parser = new SseParser();
  const answer = new StreamedAnswer(options.onDelta);
  for await (const bytes of body) {
    for (const event of parser.push(bytes)) answer.take(event.data);
    if (answer.done) break;
  }
  if (!answer.done) {
    for (const event of parser.end()) answer.take(event.data);
  }
  if (!answer.done) {
    throw new ServiceError(
      'network',
      'The connection to the language-model gateway broke off before the answer was complete. Try again.',
      undefined,
      undefined,
    );
  }
  return answer.result(options.requestedModel, Math.max(0, Math.round(options.now() - options.startedAt)));
}

/** A streamed answer assembled event by event, each fragment handed on as it comes. */
class StreamedAnswer {
  /** The end marker (`[DONE]`) has arrived. */
  done = false;
  private content = '';
  private sawContent = false;
  private model: string | undefined;
  private requestId: string | undefined;
  private finishReason: string | null = null;
  private usage: Usage | undefined;
  private readonly calls: PartialCall[] = [];

  constructor(private readonly onDelta: ((delta: StreamDelta) => void) | undefined) {}

  /** One event's data: the end marker, a failure, or a chunk of the answer. */
  take(data: string): void {
    if (data === '[DONE]') {
      this.done = true;
      return;
    }
    const json = parseEvent(data);
    const failure = streamErrorSchema.safeParse(json);
    if (failure.success) {
      const error = failure.data.error;
      throw new GatewayStreamError(
        typeof error === 'string' ? error : error.message,
        typeof error === 'string' ? undefined : error.code,
        this.content,
      );
    }
    const chunk = completionChunkSchema.safeParse(json);
    if (!chunk.success) return; // an event of a kind Verbatim does not know: tolerated
    this.model ??= chunk.data.model;
    this.requestId ??= chunk.data.request_id;
    if (chunk.data.usage) this.usage = chunk.data.usage;
    for (const choice of chunk.data.choices) {
      if (choice.index === 0) this.takeChoice(choice);
    }
  }

  result(requestedModel: string, responseTimeMs: number): GatewayAnswer {
    return {
      requestId: this.requestId,
      model: this.model ?? requestedModel,
      content: this.sawContent || this.calls.length === 0 ? this.content : null,
      toolCalls: this.calls
        .filter((call) => call !== undefined)
        .map((call) => ({
          id: call.id,
          type: 'function' as const,
          function: { name: call.name, arguments: call.arguments },
        })),
      finishReason: this.finishReason,
      usage: this.usage,
      responseTimeMs,
      llmStatusCode: undefined,
    };
  }

  private takeChoice(choice: ChunkChoice): void {
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    const delta = choice.delta;
    if (typeof delta.content === 'string') {
      this.sawContent = true;
      if (delta.content !== '') {
        this.content += delta.content;
        this.onDelta?.({ type: 'content', text: delta.content });
      }
    }
    for (const call of delta.tool_calls ?? []) this.takeToolCall(call);
  }

  /** A tool call arrives in pieces: its id and name once, its arguments a fragment at a time. */
  private takeToolCall(call: ToolCallFragment): void {
    const known = (this.calls[call.index] ??= { id: '', name: '', arguments: '' });
    if (call.id) known.id = call.id;
    if (call.function?.name) known.name += call.function.name;
    const fragment = call.function?.arguments ?? '';
    known.arguments += fragment;
    this.onDelta?.({
      type: 'tool_call',
      index: call.index,
      ...(call.id ? { id: call.id } : {}),
      ...(call.function?.name ? { name: call.function.name } : {}),
      arguments: fragment,
    });
  }
}

function parseEvent(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    throw new ServiceError(
      'network',
      'The language-model gateway sent part of its answer garbled. Try again.',
      undefined,
      undefined,
    );
  }
}
