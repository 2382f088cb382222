import type { ServerResponse } from 'node:http';
import type { Clock } from '../types';
import type { Answer } from './answer';

/**
 * `stream: true`: server-sent events shaped like OpenAI's `chat.completion.chunk` (the gateway is
 * OpenAI-compatible): a role chunk, content (or tool-call argument) deltas in several chunks, a
 * final chunk with finish_reason and usage, then `data: [DONE]`. A provider failure after the
 * stream started arrives as a `data: {"error": {...}}` event, as OpenAI streams errors.
 */

export interface StreamPlan {
  id: string;
  created: number;
  model: string;
  requestId: string;
  answer: Answer;
  usage: Record<string, number>;
  /** The provider breaks off after part of the answer. */
  failsPartWay: boolean;
}

/** Emulated time before the first token, and between chunks, so clients see incremental delivery. */
const FIRST_CHUNK_DELAY_MS = 200;
const CHUNK_INTERVAL_MS = 20;
/** Characters per content delta: several chunks for even a short answer. */
const CHUNK_CHARACTERS = 16;

/** Streams the answer; resolves with the emulated milliseconds it took. */
export async function streamCompletion(res: ServerResponse, clock: Clock, plan: StreamPlan): Promise<number> {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
  });
  const send = (payload: unknown): void => {
    if (!res.destroyed)
      res.write(`data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`);
  };
  const chunk = (
    delta: Record<string, unknown>,
    finishReason: string | null,
    extra: object = {},
  ): object => ({
    id: plan.id,
    object: 'chat.completion.chunk',
    created: plan.created,
    model: plan.model,
    request_id: plan.requestId,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    ...extra,
  });

  const { answer } = plan;
  const call = answer.toolCalls?.[0];
  const pieces = splitIntoPieces(call ? call.function.arguments : (answer.content ?? ''));
  const piecesSent = plan.failsPartWay
    ? Math.min(pieces.length, Math.max(1, Math.floor(pieces.length / 2)))
    : pieces.length;
  let elapsed = FIRST_CHUNK_DELAY_MS;
  await clock.sleep(FIRST_CHUNK_DELAY_MS);

  send(
    chunk(
      call
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                index: 0,
                id: call.id,
                type: 'function',
                function: { name: call.function.name, arguments: '' },
              },
            ],
          }
        : { role: 'assistant', content: '' },
      null,
    ),
  );
  for (const piece of pieces.slice(0, piecesSent)) {
    if (res.destroyed) return elapsed;
    send(
      chunk(call ? { tool_calls: [{ index: 0, function: { arguments: piece } }] } : { content: piece }, null),
    );
    await clock.sleep(CHUNK_INTERVAL_MS);
    elapsed += CHUNK_INTERVAL_MS;
  }
  if (plan.failsPartWay) {
    send({
      error: {
        message: `The provider of ${plan.model} failed mid-answer`,
        type: 'provider_error',
        code: 503,
      },
    });
    res.end();
    return elapsed;
  }
  send(chunk({}, answer.finishReason, { usage: plan.usage }));
  send('[DONE]');
  res.end();
  return elapsed;
}

function splitIntoPieces(text: string): string[] {
  const characters = [...text];
  const pieces: string[] = [];
  for (let index = 0; index < characters.length; index += CHUNK_CHARACTERS) {
    pieces.push(characters.slice(index, index + CHUNK_CHARACTERS).join(''));
  }
  return pieces;
}
