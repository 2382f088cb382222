import { HttpError, readJson, sendJson } from '../http';
import type { EmulatorApp, Region, RequestContext } from '../types';
import { composeAnswer, countTokens } from './answer';
import { streamCompletion } from './completion-stream';
import { substituteTranscript, toConversation, type ConversationMessage } from './conversation';
import { unsupportedFeature, type ModelResolver, type ResolvedModel } from './model-resolver';
import {
  applyFallback,
  badRequest,
  checkConversation,
  parseChatRequest,
  type ChatRequest,
  type EffectiveRequest,
} from './request-schema';

/**
 * POST /v1/chat/completions of the language-model gateway (spec: transcription-service.md,
 * "Gateway"; AssemblyAI's LLM Gateway documents what the spec leaves out): validation, the
 * `{{ transcript }}` injection, fallbacks with their overrides, and the answer as JSON or as a
 * stream.
 */

export interface Gateway {
  app: EmulatorApp;
  resolveModel: ModelResolver;
  /** A fresh request id (a UUID from a counter that the admin reset rewinds). */
  nextRequestId(): string;
}

const DEFAULT_MAX_TOKENS = 1000;
/** Emulated provider timings: a failing provider answers its error after a moment... */
const PROVIDER_FAILURE_MS = 150;
/** ...and AssemblyAI retries a lone model once, 500 ms later, unless fallback_config.retry is false. */
const RETRY_DELAY_MS = 500;
/** A successful (non-streamed) answer takes a base latency plus a little per generated token. */
const BASE_LATENCY_MS = 200;
const LATENCY_PER_TOKEN_MS = 5;
const MAX_LATENCY_MS = 2500;
/** Tokens each message costs beyond its text (role and separators), as OpenAI counts them. */
const MESSAGE_OVERHEAD_TOKENS = 3;
/** The failing provider's status, and the gateway's answer when no model could answer. */
const PROVIDER_ERROR_STATUS = 503;
const ALL_MODELS_FAILED_STATUS = 502;

interface Candidate {
  request: EffectiveRequest;
  model: ResolvedModel;
  conversation: ConversationMessage[];
  /** The transcript text, when it replaced a `{{ transcript }}` tag. */
  transcript: string | undefined;
}

export async function handleChatCompletion(ctx: RequestContext, gateway: Gateway): Promise<void> {
  authenticate(ctx, gateway.app.options.key);
  const body = await readJson(ctx.req);
  ctx.logBody(body);
  const request = parseChatRequest(body);
  const candidates = planCandidates(request, ctx.region, gateway);
  const { clock } = gateway.app;
  const requestId = gateway.nextRequestId();
  const created = Math.floor(clock.now() / 1000);
  const retries = candidates.length === 1 && request.fallback_config?.retry !== false ? 1 : 0;
  const failures: string[] = [];
  let elapsedMs = 0;

  for (const [index, candidate] of candidates.entries()) {
    const attempts = index === 0 ? 1 + retries : 1;
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      if (attempt > 0) {
        await clock.sleep(RETRY_DELAY_MS);
        elapsedMs += RETRY_DELAY_MS;
      }
      const stream = candidate.request.stream === true;
      // A provider that breaks off part-way fails the whole attempt when nothing was streamed yet.
      if (candidate.model.alwaysFails || (candidate.model.failsPartWay && !stream)) {
        await clock.sleep(PROVIDER_FAILURE_MS);
        elapsedMs += PROVIDER_FAILURE_MS;
        failures.push(`${candidate.model.name} (${PROVIDER_ERROR_STATUS})`);
        continue;
      }
      await answer(ctx, gateway, candidate, { requestId, created, elapsedMs });
      return;
    }
  }
  sendJson(ctx.res, ALL_MODELS_FAILED_STATUS, {
    error: `All models failed: ${failures.join(', ')}`,
    request_id: requestId,
    http_status_code: ALL_MODELS_FAILED_STATUS,
    llm_status_code: PROVIDER_ERROR_STATUS,
    response_time: elapsedMs * 1_000_000,
  });
}

/**
 * AssemblyAI's gateway takes the raw key in `Authorization`, without a scheme. `Bearer <key>` is
 * accepted as well so that the official openai SDK, which always sends a bearer token, works
 * unchanged against the emulator.
 */
function authenticate(ctx: RequestContext, key: string): void {
  const header = (ctx.req.headers.authorization ?? '').trim();
  const presented = header.replace(/^Bearer\s+/i, '');
  if (presented !== key)
    throw new HttpError(401, { error: 'Authentication error, API token missing/invalid' });
}

/**
 * The primary request and the fallbacks that fallback_config.depth allows (one by default, at
 * most two), each validated, with its model resolved and its transcript injected.
 */
function planCandidates(request: ChatRequest, region: Region, gateway: Gateway): Candidate[] {
  const { fallbacks = [], fallback_config: fallbackConfig, ...primary } = request;
  const depth = fallbackConfig?.depth ?? 1;
  const requests = [
    { request: primary, where: '' },
    ...fallbacks.slice(0, depth).map((fallback, index) => ({
      request: applyFallback(primary, fallback),
      where: `fallbacks[${index}]: `,
    })),
  ];
  return requests.map(({ request: effective, where }) => {
    checkConversation(effective, where);
    const model = gateway.resolveModel(effective.model, region);
    if ('error' in model) throw badRequest(`${where}model: ${model.error}`);
    const unsupported = unsupportedFeature(model, effective);
    if (unsupported) throw badRequest(`${where}${unsupported}`);
    let conversation = toConversation(effective);
    let transcript: string | undefined;
    if (effective.transcript_id !== undefined) {
      const text = gateway.app.shared.transcriptText(effective.transcript_id, region);
      if (text === undefined)
        throw new HttpError(404, { error: `Transcript ${effective.transcript_id} not found` });
      const substitution = substituteTranscript(conversation, text);
      conversation = substitution.conversation;
      if (substitution.substituted) transcript = text;
    }
    return { request: effective, model, conversation, transcript };
  });
}

async function answer(
  ctx: RequestContext,
  gateway: Gateway,
  candidate: Candidate,
  meta: { requestId: string; created: number; elapsedMs: number },
): Promise<void> {
  const { request, model, conversation } = candidate;
  const result = composeAnswer({
    conversation,
    transcript: candidate.transcript,
    seed: JSON.stringify([
      model.entry?.model.id,
      request.temperature ?? null,
      conversation,
      request.tools ?? null,
      request.response_format ?? null,
    ]),
    maxTokens: request.max_tokens ?? DEFAULT_MAX_TOKENS,
    tools: request.tools,
    toolChoice: request.tool_choice,
    responseFormat: request.response_format,
    sloppyJson: model.sloppyJson,
    repairJson: request.post_processing_steps?.some((step) => step.type === 'json-repair') ?? false,
  });
  const inputTokens =
    conversation.reduce((sum, message) => sum + countTokens(message.content) + MESSAGE_OVERHEAD_TOKENS, 0) +
    (request.tools ? countTokens(JSON.stringify(request.tools)) : 0);
  const outputTokens = countTokens(
    result.content ?? (result.toolCalls ?? []).map((call) => call.function.arguments).join(''),
  );
  // The spec's names, plus OpenAI's (prompt_tokens, completion_tokens) that the openai SDK reads.
  const usage = {
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
  };
  const id = `chatcmpl-${meta.requestId.replaceAll('-', '').slice(0, 24)}`;
  const { clock } = gateway.app;

  if (request.stream === true) {
    await streamCompletion(ctx.res, clock, {
      id,
      created: meta.created,
      model: model.name,
      requestId: meta.requestId,
      answer: result,
      usage,
      failsPartWay: model.failsPartWay,
    });
    return;
  }

  const latencyMs = Math.min(MAX_LATENCY_MS, BASE_LATENCY_MS + LATENCY_PER_TOKEN_MS * outputTokens);
  await clock.sleep(latencyMs);
  const { prompt: _prompt, messages: _messages, ...requestCopy } = request;
  sendJson(ctx.res, 200, {
    // OpenAI's envelope, which the real gateway returns too; `model` names the model that answered.
    id,
    object: 'chat.completion',
    created: meta.created,
    model: model.name,
    request_id: meta.requestId,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: result.content,
          ...(result.toolCalls ? { tool_calls: result.toolCalls } : {}),
        },
        finish_reason: result.finishReason,
      },
    ],
    request: { ...requestCopy, max_tokens: request.max_tokens ?? DEFAULT_MAX_TOKENS },
    usage,
    http_status_code: 200,
    response_time: (meta.elapsedMs + latencyMs) * 1_000_000,
    llm_status_code: 200,
  });
}
