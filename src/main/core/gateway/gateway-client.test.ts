import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startEmulator, type RunningEmulator } from '../../../../test/emulator/server';
import { VerbatimError } from '../../../shared/errors';
import { HttpClient, abortableSleep, type FetchLike } from '../http/http-client';
import { ServiceError } from '../http/service-error';
import { toolDefinitions } from '../library-tools/library-tools';
import { GatewayStreamError, type StreamDelta } from './completion-stream';
import { GatewayClient } from './gateway-client';
import type { ChatRequest } from './gateway-request';

const recording = new URL('../../../../test/fixtures/press-statement.wav', import.meta.url);
let emulator: RunningEmulator;
let transcript: { id: string; text: string };

function clientFor(
  baseUrl: string,
  options: { key?: string; fetch?: FetchLike; calls?: string[] } = {},
): GatewayClient {
  const fetchLike: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  return new GatewayClient(
    new HttpClient({
      service: 'language-model gateway',
      baseUrl,
      apiKey: () => options.key ?? emulator.options.key,
      authStyle: 'raw',
      fetch: (input, init) => {
        options.calls?.push(typeof init.body === 'string' ? init.body : '');
        return fetchLike(input, init);
      },
      sleep: abortableSleep,
      now: Date.now,
      random: () => 0.5,
      retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20 },
    }),
  );
}

async function emulatorCall(
  path: string,
  body?: string | Uint8Array,
  json = true,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${emulator.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: emulator.options.key, ...(json ? { 'Content-Type': 'application/json' } : {}) },
    body,
  });
  return (await response.json()) as Record<string, unknown>;
}

async function transcribe(): Promise<{ id: string; text: string }> {
  const upload = await emulatorCall('/v2/upload', readFileSync(recording), false);
  const created = await emulatorCall('/v2/transcript', JSON.stringify({ audio_url: upload.upload_url }));
  for (;;) {
    const current = await emulatorCall(`/v2/transcript/${String(created.id)}`);
    if (current.status === 'completed') return { id: String(current.id), text: String(current.text) };
    if (current.status === 'error') throw new Error(String(current.error));
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
}

async function fault(body: object): Promise<void> {
  await fetch(`${emulator.url}/__admin/faults`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed: 200 });
  transcript = await transcribe();
});
afterAll(() => emulator.close());

const question = (content: string, model = 'gpt-5'): ChatRequest => ({
  model,
  messages: [{ role: 'user', content }],
});

const quotesSchema = z.object({
  quotes: z.array(z.object({ quote: z.string(), speaker: z.string(), start_ms: z.int().min(0) })).min(1),
});
const quotesFormat = {
  type: 'json_schema' as const,
  json_schema: { name: 'key_quotes', schema: z.toJSONSchema(quotesSchema) as Record<string, unknown> },
};

describe('the gateway client: requests checked before sending', () => {
  it.each<[string, Partial<ChatRequest>, string]>([
    ['no model', { model: '' }, 'model'],
    ['max_tokens 0', { max_tokens: 0 }, 'max_tokens'],
    ['a fractional max_tokens', { max_tokens: 2.5 }, 'max_tokens'],
    ['temperature above 2', { temperature: 2.5 }, 'temperature'],
    ['temperature below 0', { temperature: -1 }, 'temperature'],
    ['both messages and prompt', { prompt: 'Hi' }, 'prompt'],
    ['a transcript_id without the tag', { transcript_id: 'abc' }, 'transcript_id'],
    ['an unknown tool_choice', { tool_choice: 'required' as 'auto' }, 'tool_choice'],
    [
      'a tool with a bad name',
      { tools: [{ type: 'function', function: { name: 'has space' } }] },
      'tools[0]',
    ],
    ['a response_format of type text', { response_format: { type: 'text' } as never }, 'response_format'],
    ['a fallback without a model', { fallbacks: [{ model: '' }] }, 'fallbacks[0].model'],
    [
      'a fallback with a bad temperature',
      { fallbacks: [{ model: 'gpt-4.1', temperature: 3 }] },
      'fallbacks[0].temperature',
    ],
    ['fallback_config.depth 3', { fallback_config: { depth: 3 } }, 'fallback_config.depth'],
    [
      'an unknown post-processing step',
      { post_processing_steps: [{ type: 'summarise' as 'json-repair' }] },
      'post_processing_steps[0].type',
    ],
    ['a misspelt field', { max_token: 10 } as Partial<ChatRequest>, 'max_token'],
  ])('refuses %s, naming the field, without calling the gateway', async (_case, change, field) => {
    const calls: string[] = [];
    const client = clientFor(emulator.url, { calls });
    const error = await client.complete({ ...question('Hello'), ...change }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VerbatimError);
    expect((error as VerbatimError).code).toBe('invalid_input');
    expect((error as VerbatimError).message).toContain(field);
    await expect(client.stream({ ...question('Hello'), ...change })).rejects.toThrow(field);
    expect(calls).toEqual([]);
  });

  it('sends max_tokens 1000 unless told otherwise', async () => {
    const calls: string[] = [];
    const completion = await clientFor(emulator.url, { calls }).complete(question('Hello'));
    expect(JSON.parse(calls[0] ?? '{}')).toMatchObject({ max_tokens: 1000, stream: false });
    expect(completion.request?.model).toBe('gpt-5');
  });
});

describe('the gateway client against the emulator', () => {
  it('answers from the transcript injected by transcript_id, with the whole response validated', async () => {
    const client = clientFor(emulator.url);
    const completion = await client.complete({
      model: 'claude-sonnet-4-5',
      transcript_id: transcript.id,
      messages: [
        { role: 'system', content: 'The transcript:\n{{ transcript }}' },
        { role: 'user', content: 'What was said?' },
      ],
      temperature: 0.2,
    });
    expect(completion.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(completion).toMatchObject({ http_status_code: 200, llm_status_code: 200 });
    expect(completion.response_time).toBeGreaterThan(0);
    expect(completion.usage.total_tokens).toBe(
      completion.usage.input_tokens + completion.usage.output_tokens,
    );
    expect(completion.usage.input_tokens).toBeGreaterThan(transcript.text.length / 4);
    const quoted = [...(completion.choices[0]?.message.content ?? '').matchAll(/"([^"]+)"/g)];
    expect(quoted.length).toBeGreaterThan(0);
    for (const [, quote] of quoted) expect(transcript.text).toContain(quote);
  });

  it('streams deltas as they arrive, before the answer ends, and assembles the same answer', async () => {
    const slow = await startEmulator({ port: 0, speed: 1 });
    try {
      const client = new GatewayClient(
        new HttpClient({
          service: 'language-model gateway',
          baseUrl: slow.url,
          apiKey: () => slow.options.key,
          authStyle: 'raw',
          fetch: (input, init) => fetch(input, init),
          sleep: abortableSleep,
          now: Date.now,
          random: Math.random,
        }),
      );
      const arrivals: { at: number; delta: StreamDelta }[] = [];
      const answer = await client.stream(question('Summarise the council meeting'), {
        onDelta: (delta) => arrivals.push({ at: Date.now(), delta }),
      });
      const endedAt = Date.now();
      expect(arrivals.length).toBeGreaterThanOrEqual(3);
      // The first piece reached us well before the last (the emulator spaces chunks 20 ms apart).
      expect(endedAt - arrivals[0]!.at).toBeGreaterThanOrEqual(40);
      expect(arrivals.map(({ delta }) => (delta.type === 'content' ? delta.text : '')).join('')).toBe(
        answer.content,
      );
      expect(answer).toMatchObject({ model: 'gpt-5', finishReason: 'stop' });
      expect(answer.usage?.output_tokens).toBeGreaterThan(0);
      const whole = await client.answer(question('Summarise the council meeting'));
      expect(answer.content).toBe(whole.content);
    } finally {
      await slow.close();
    }
  });

  it('offers the library tools and reads back the call the model makes, streamed or not', async () => {
    const client = clientFor(emulator.url);
    const tools = toolDefinitions().map((tool) => ({ type: 'function' as const, function: tool }));
    const request: ChatRequest = {
      ...question('Search the library for the ferry contract'),
      tools,
      tool_choice: 'auto',
    };
    const answer = await client.answer(request);
    expect(answer.finishReason).toBe('tool_calls');
    expect(answer.toolCalls[0]?.function.name).toBe('search_library');
    expect(JSON.parse(answer.toolCalls[0]?.function.arguments ?? '')).toHaveProperty('query');
    const streamed = await client.stream(request);
    expect(streamed.toolCalls).toEqual(answer.toolCalls);
    expect(streamed.content).toBeNull();

    const followUp = await client.answer({
      ...request,
      messages: [
        ...(request.messages ?? []),
        { role: 'assistant', content: null, tool_calls: answer.toolCalls },
        { role: 'tool', tool_call_id: answer.toolCalls[0]!.id, content: '{"total": 0, "quotes": []}' },
      ],
    });
    expect(followUp.content).toContain('search_library');
    const quiet = await client.answer({ ...request, tool_choice: 'none' });
    expect(quiet.toolCalls).toEqual([]);
  });

  it('gets JSON matching a response_format schema', async () => {
    const answer = await clientFor(emulator.url).answer({
      model: 'gpt-5',
      transcript_id: transcript.id,
      prompt: 'Key quotes from {{ transcript }}',
      response_format: quotesFormat,
    });
    const quotes = quotesSchema.parse(JSON.parse(answer.content ?? ''));
    for (const quote of quotes.quotes) expect(transcript.text).toContain(quote.quote);
  });

  it('needs json-repair to turn a sloppy model into valid JSON', async () => {
    const client = clientFor(emulator.url);
    const request: ChatRequest = { ...question('Key quotes', 'gpt-5-sloppy'), response_format: quotesFormat };
    const broken = await client.answer(request);
    expect(() => JSON.parse(broken.content ?? '') as unknown).toThrow();
    const repaired = await client.answer({ ...request, post_processing_steps: [{ type: 'json-repair' }] });
    expect(quotesSchema.safeParse(JSON.parse(repaired.content ?? '')).success).toBe(true);
  });

  it('reports which model answered when the primary failed and a fallback took over', async () => {
    const client = clientFor(emulator.url);
    const request: ChatRequest = {
      ...question('Hello', 'fail-primary'),
      fallbacks: [{ model: 'fail-second' }, { model: 'gpt-5-mini', temperature: 0.5 }],
      fallback_config: { depth: 2 },
    };
    expect((await client.answer(request)).model).toBe('gpt-5-mini');
    expect((await client.stream(request)).model).toBe('gpt-5-mini');
  });

  it('stops a stream mid-answer: the promise rejects as cancelled and no delta follows', async () => {
    const slow = await startEmulator({ port: 0, speed: 1 });
    try {
      const client = clientFor(slow.url, { key: slow.options.key });
      const controller = new AbortController();
      const deltas: StreamDelta[] = [];
      let afterStop = 0;
      const pending = client.stream(question('Tell me about the budget debate'), {
        signal: controller.signal,
        onDelta: (delta) => {
          if (controller.signal.aborted) afterStop += 1;
          deltas.push(delta);
          if (deltas.length === 2) controller.abort();
        },
      });
      const error = await pending.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServiceError);
      expect((error as ServiceError).code).toBe('cancelled');
      expect(afterStop).toBe(0);
      expect(deltas).toHaveLength(2);
    } finally {
      await slow.close();
    }
  });
});

describe('the gateway client: every failure in words', () => {
  it('surfaces an error that arrives inside the stream, with the part already received', async () => {
    const deltas: string[] = [];
    const error = await clientFor(emulator.url)
      .stream(question('Hello', 'gpt-5-flaky'), {
        onDelta: (delta) => delta.type === 'content' && deltas.push(delta.text),
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayStreamError);
    const streamError = error as GatewayStreamError;
    expect(streamError.providerMessage).toContain('gpt-5-flaky');
    expect(streamError.status).toBe(503);
    expect(streamError.partialContent).toBe(deltas.join(''));
    expect(deltas.length).toBeGreaterThan(0);
  });

  it.each([
    ['a wrong key', { key: 'wrong' }, question('Hello'), 'unauthorized', 'API key'],
    ['an unknown model', {}, question('Hello', 'gpt-0'), 'invalid_input', 'model'],
    [
      'an unknown transcript',
      {},
      { model: 'gpt-5', prompt: '{{ transcript }}', transcript_id: 'missing-transcript' },
      'not_found',
      'missing-transcript',
    ],
    ['every model failing', {}, question('Hello', 'fail-only'), 'service', 'None of the models'],
  ] as const)('explains %s, whole or streamed', async (_case, options, request, code, words) => {
    const client = clientFor(emulator.url, options);
    for (const call of [() => client.complete(request), () => client.stream(request)]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServiceError);
      expect((error as ServiceError).code).toBe(code);
      expect((error as ServiceError).message).toContain(words);
    }
  });

  it('retries a busy gateway (429 with Retry-After, 503), never a 500', async () => {
    const client = clientFor(emulator.url);
    await fault({ path: 'chat', kind: 'status', status: 429, retryAfter: '0', count: 1 });
    await fault({ path: 'chat', kind: 'status', status: 503, count: 1 });
    expect((await client.answer(question('Hello'))).content).toBeTruthy();
    await fault({ path: 'chat', kind: 'status', status: 500, count: 1 });
    await expect(client.answer(question('Hello'))).rejects.toMatchObject({ status: 500, code: 'service' });
  });

  it('reports a garbled answer and a dropped connection as network failures', async () => {
    const client = clientFor(emulator.url, { calls: [] });
    await fault({ path: 'chat', kind: 'malformed', count: 1 });
    await expect(client.complete(question('Hello'))).rejects.toMatchObject({ code: 'network' });
    await fault({ path: 'chat', kind: 'reset', count: 3 });
    await expect(client.complete(question('Hello'))).rejects.toMatchObject({ code: 'network' });
    await fetch(`${emulator.url}/__admin/faults`, { method: 'DELETE' });
  });

  it.each([
    ['{"error": "plain words"}', 'application/json', 'plain words'],
    ['{"error": {"message": "nested words", "code": 400}}', 'application/json', 'nested words'],
    ['{"message": "top-level words"}', 'application/json', 'top-level words'],
    ['<html><body><h1>Bad gateway words</h1></body></html>', 'text/html', 'Bad gateway words'],
    ['just text', 'text/plain', 'just text'],
  ])('reads the error body %s', async (body, type, words) => {
    const client = clientFor('http://gateway.invalid', {
      fetch: () => Promise.resolve(new Response(body, { status: 400, headers: { 'Content-Type': type } })),
    });
    await expect(client.complete(question('Hello'))).rejects.toMatchObject({
      code: 'invalid_input',
      serviceMessage: words,
    });
  });

  it('refuses a success response that lacks the fields of the spec', async () => {
    const client = clientFor('http://gateway.invalid', {
      fetch: () =>
        Promise.resolve(
          Response.json({ request_id: 'x', choices: [{ message: { role: 'assistant', content: 'hi' } }] }),
        ),
    });
    await expect(client.complete(question('Hello'))).rejects.toThrow(/does not understand/);
  });
});
