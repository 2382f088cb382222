import type { Region } from '../../../shared/library';
import { VerbatimError } from '../../../shared/errors';
import type { HttpClient } from '../http/http-client';
import { ServiceError } from '../http/service-error';
import { checkChatRequest, type ChatRequest } from './gateway-request';
import { chatCompletionSchema, type ChatCompletion } from './gateway-response';
import {
  answerFromCompletion,
  readCompletionStream,
  type GatewayAnswer,
  type StreamDelta,
} from './completion-stream';

/**
 * AssemblyAI's LLM Gateway hosts. The spec names only {gateway_url}; AssemblyAI documents
 * llm-gateway.assemblyai.com and, for the EU region (whose transcripts only the EU gateway can
 * inject), llm-gateway.eu.assemblyai.com. Settings or VERBATIM_GATEWAY_URL override both.
 */
export const defaultGatewayUrls: Record<Region, string> = {
  us: 'https://llm-gateway.assemblyai.com',
  eu: 'https://llm-gateway.eu.assemblyai.com',
};

const path = '/v1/chat/completions';

export interface CallOptions {
  signal?: AbortSignal;
}

/**
 * POST /v1/chat/completions, whole or streamed. Requests are checked before sending; a
 * completion costs money, so only answers proving nothing ran (429, 503) are retried.
 */
export class GatewayClient {
  constructor(
    private readonly http: HttpClient,
    private readonly now: () => number = Date.now,
  ) {}

  /** One answer, the full response validated. */
  async complete(request: ChatRequest, options: CallOptions = {}): Promise<ChatCompletion> {
    const checked = checkChatRequest({ ...request, stream: false });
    try {
      return await this.http.request({
        method: 'POST',
        path,
        json: checked,
        schema: chatCompletionSchema,
        retry: 'rejections',
        // A model thinks in silence before it answers: the answer bound, not the idle one.
        patience: 'answer',
        signal: options.signal,
      });
    } catch (error) {
      throw explain(error);
    }
  }

  /** complete() in the shape the rest of Verbatim uses. */
  async answer(request: ChatRequest, options: CallOptions = {}): Promise<GatewayAnswer> {
    return answerFromCompletion(await this.complete(request, options), request.model);
  }

  /**
   * A streamed answer: `onDelta` sees each fragment as it arrives; the promise resolves with
   * the assembled answer. Stop with the signal: the connection is closed at once.
   */
  async stream(
    request: ChatRequest,
    options: CallOptions & { onDelta?: (delta: StreamDelta) => void } = {},
  ): Promise<GatewayAnswer> {
    const checked = checkChatRequest({ ...request, stream: true });
    const startedAt = this.now();
    try {
      const response = await this.http.stream({
        method: 'POST',
        path,
        json: checked,
        headers: { Accept: 'text/event-stream' },
        signal: options.signal,
      });
      if (!response.body) throw new ServiceError('service', 'The gateway sent no answer.', 200, undefined);
      // A provider that cannot stream may answer with plain JSON: accept it.
      if (response.headers.get('content-type')?.includes('application/json')) {
        const parsed = chatCompletionSchema.safeParse(await response.json());
        if (!parsed.success) throw unreadable();
        const answer = answerFromCompletion(parsed.data, request.model);
        if (answer.content) options.onDelta?.({ type: 'content', text: answer.content });
        return answer;
      }
      return await readCompletionStream(chunksOf(response.body, options.signal), {
        requestedModel: request.model,
        onDelta: options.onDelta,
        now: this.now,
        startedAt,
      });
    } catch (error) {
      if (options.signal?.aborted) throw stopped();
      throw explain(error);
    }
  }
}

/** The body's chunks until it ends or the signal aborts, which closes the connection. */
async function* chunksOf(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  const onAbort = (): void => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      if (signal?.aborted) throw stopped();
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Leaving early (the [DONE] event, an error event) closes the connection too.
    void reader.cancel().catch(() => undefined);
  }
}

function stopped(): ServiceError {
  return new ServiceError('cancelled', 'The answer was stopped.', undefined, undefined);
}

function unreadable(): VerbatimError {
  return new VerbatimError(
    'service',
    'The language-model gateway sent a reply Verbatim does not understand. The service may have changed; please report this.',
  );
}

/** The gateway's own failures, in words: every model failed (502), the model is refused (400). */
function explain(error: unknown): unknown {
  if (!(error instanceof ServiceError) || error.status === undefined) return error;
  if (error.status === 502) {
    return new ServiceError(
      'service',
      `None of the models could answer. Try again later, or choose another model or fallback models in Settings.${error.serviceMessage ? ` The gateway said: "${error.serviceMessage}"` : ''}`,
      error.status,
      error.serviceMessage,
    );
  }
  return error;
}
