import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startEmulator, type RunningEmulator } from '../server';

const KEY = 'gateway-test-key';
const MANAGEMENT_KEY = 'gateway-test-management-key';
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, euPort: 0, speed: 20, key: KEY, managementKey: MANAGEMENT_KEY });
});

afterAll(async () => {
  await emulator.close();
});

interface Completion {
  id: string;
  object: string;
  created: number;
  model: string;
  request_id: string;
  choices: {
    index: number;
    message: {
      role: string;
      content: string | null;
      tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
    };
    finish_reason: string;
  }[];
  request: Record<string, unknown>;
  usage: Record<string, number>;
  http_status_code: number;
  response_time: number;
  llm_status_code: number;
}

async function complete<T = Completion>(
  body: unknown,
  options: { authorization?: string | null; region?: 'us' | 'eu' } = {},
): Promise<{ status: number; body: T }> {
  const authorization = options.authorization === undefined ? KEY : options.authorization;
  const response = await fetch(
    `${options.region === 'eu' ? emulator.euUrl : emulator.url}/v1/chat/completions`,
    {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(authorization === null ? {} : { Authorization: authorization }),
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    },
  );
  return { status: response.status, body: (await response.json()) as T };
}

function contentOf(completion: Completion): string {
  const content = completion.choices[0]?.message.content;
  if (typeof content !== 'string') throw new Error('expected text content');
  return content;
}

const ask = (text: string, model = 'claude-sonnet-4-5-20250929') => ({
  model,
  messages: [{ role: 'user', content: text }],
});

const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Get the current weather for a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
      required: ['city'],
    },
  },
};

describe('gateway authentication', () => {
  it('accepts the raw key (AssemblyAI style) and a bearer token (openai SDK style)', async () => {
    expect((await complete(ask('Hello'))).status).toBe(200);
    expect((await complete(ask('Hello'), { authorization: `Bearer ${KEY}` })).status).toBe(200);
  });

  it.each([null, 'wrong-key', 'Bearer wrong-key', MANAGEMENT_KEY])(
    'answers 401 to authorization %s',
    async (authorization) => {
      const answer = await complete<{ error: string }>(ask('Hello'), { authorization });
      expect(answer.status).toBe(401);
      expect(answer.body.error).toEqual(expect.any(String));
    },
  );
});

describe('gateway validation', () => {
  const prompt = { model: 'gpt-5', prompt: 'Hello' };
  it.each([
    ['a body that is not JSON', '{"model": ', 'JSON'],
    ['no model', { prompt: 'Hello' }, 'model'],
    ['an empty model', { ...prompt, model: '' }, 'model'],
    ['an unknown model', { ...prompt, model: 'gpt-0' }, 'model'],
    ['a model without text output', { ...prompt, model: 'openai/text-embedding-3-small' }, 'model'],
    ['max_tokens 0', { ...prompt, max_tokens: 0 }, 'max_tokens'],
    ['a fractional max_tokens', { ...prompt, max_tokens: 1.5 }, 'max_tokens'],
    ['a string max_tokens', { ...prompt, max_tokens: '10' }, 'max_tokens'],
    ['temperature below 0', { ...prompt, temperature: -0.1 }, 'temperature'],
    ['temperature above 2', { ...prompt, temperature: 2.1 }, 'temperature'],
    ['neither messages nor prompt', { model: 'gpt-5' }, 'messages or prompt'],
    ['both messages and prompt', { ...ask('Hi', 'gpt-5'), prompt: 'Hi' }, 'messages and prompt'],
    ['empty messages', { model: 'gpt-5', messages: [] }, 'messages'],
    ['an unknown role', { model: 'gpt-5', messages: [{ role: 'bot', content: 'Hi' }] }, 'messages[0].role'],
    ['a message without content', { model: 'gpt-5', messages: [{ role: 'user' }] }, 'messages[0].content'],
    [
      'a tool message without tool_call_id',
      {
        model: 'gpt-5',
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'tool', content: '{}' },
        ],
      },
      'messages[1].tool_call_id',
    ],
    ['tool_choice "required"', { ...prompt, tools: [weatherTool], tool_choice: 'required' }, 'tool_choice'],
    [
      'tool_choice naming a missing tool',
      { ...prompt, tools: [weatherTool], tool_choice: { type: 'function', function: { name: 'get_time' } } },
      'tool_choice.function.name',
    ],
    ['a response_format of type text', { ...prompt, response_format: { type: 'text' } }, 'response_format'],
    [
      'a json_schema without schema',
      { ...prompt, response_format: { type: 'json_schema', json_schema: { name: 'x' } } },
      'response_format.json_schema.schema',
    ],
    ['a fallback without model', { ...prompt, fallbacks: [{ temperature: 1 }] }, 'fallbacks[0].model'],
    [
      'a fallback with an unknown model',
      { ...prompt, fallbacks: [{ model: 'gpt-0' }] },
      'fallbacks[0]: model',
    ],
    ['fallback_config.depth 3', { ...prompt, fallback_config: { depth: 3 } }, 'fallback_config.depth'],
    [
      'an unsupported post-processing step',
      { ...prompt, post_processing_steps: [{ type: 'summarise' }] },
      'post_processing_steps[0].type',
    ],
    ['an unknown field', { ...prompt, max_token: 10 }, 'max_token'],
  ])('rejects %s with 400 naming the field', async (_case, body, field) => {
    const answer = await complete<{ error: string }>(body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain(field);
  });

  it('answers 404 for an unknown transcript_id', async () => {
    const answer = await complete<{ error: string }>({
      model: 'gpt-5',
      prompt: 'Summarise {{ transcript }}',
      transcript_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(answer.status).toBe(404);
    expect(answer.body.error).toContain('00000000-0000-4000-8000-000000000000');
  });
});

describe('plain completions', () => {
  it('answers with the fields of the spec and the OpenAI envelope', async () => {
    const { status, body } = await complete({ ...ask('What did the council decide?'), temperature: 0.3 });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'claude-sonnet-4-5-20250929',
      http_status_code: 200,
      llm_status_code: 200,
      request: { model: 'claude-sonnet-4-5-20250929', max_tokens: 1000, temperature: 0.3 },
    });
    expect(body.request_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(Number.isInteger(body.created) && Number.isInteger(body.response_time)).toBe(true);
    expect(body.response_time).toBeGreaterThan(0);
    expect(body.request).not.toHaveProperty('messages');
    expect(body.request).not.toHaveProperty('prompt');
    expect(body.choices).toHaveLength(1);
    expect(body.choices[0]).toMatchObject({
      index: 0,
      finish_reason: 'stop',
      message: { role: 'assistant' },
    });
    expect(contentOf(body).length).toBeGreaterThan(20);
    const { input_tokens: input, output_tokens: output } = body.usage;
    expect(body.usage).toEqual({
      input_tokens: input,
      output_tokens: output,
      total_tokens: (input ?? 0) + (output ?? 0),
      prompt_tokens: input,
      completion_tokens: output,
    });
  });

  it('gives the same answer to the same request, with a new request id', async () => {
    const first = await complete(ask('Summarise the debate'));
    const second = await complete(ask('Summarise the debate'));
    expect(contentOf(second.body)).toBe(contentOf(first.body));
    expect(second.body.request_id).not.toBe(first.body.request_id);
  });

  it('accepts a catalog id and a short gateway name for the same model', async () => {
    const byId = await complete(ask('Hello', 'anthropic/claude-sonnet-4.5'));
    const byName = await complete(ask('Hello', 'claude-sonnet-4-5'));
    expect(byId.status).toBe(200);
    expect(byName.body.model).toBe('claude-sonnet-4-5');
    expect(contentOf(byName.body)).toBe(contentOf(byId.body));
  });

  it('converts prompt into a user message and honours max_tokens', async () => {
    const { body } = await complete({ model: 'gpt-5', prompt: 'Tell me everything', max_tokens: 4 });
    expect(body.choices[0]?.finish_reason).toBe('length');
    expect(body.usage.output_tokens).toBeLessThanOrEqual(4);
  });

  it('serves only EU-routable models on the EU port', async () => {
    expect((await complete(ask('Hello', 'claude-sonnet-4-6'), { region: 'eu' })).status).toBe(200);
    const refused = await complete<{ error: string }>(ask('Hello', 'gpt-5'), { region: 'eu' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('EU');
  });
});

describe('fallbacks', () => {
  it('tries fallbacks in order up to fallback_config.depth and reports the model that answered', async () => {
    const { status, body } = await complete({
      ...ask('Hello', 'fail-primary'),
      fallbacks: [{ model: 'fail-secondary' }, { model: 'gpt-5-mini', temperature: 0.4 }],
      fallback_config: { depth: 2 },
    });
    expect(status).toBe(200);
    expect(body.model).toBe('gpt-5-mini');
    expect(body.request).toMatchObject({ model: 'gpt-5-mini', temperature: 0.4 });
  });

  it('uses one fallback by default, with its overrides of the request', async () => {
    const { body } = await complete({
      ...ask('Original question', 'fail-primary'),
      temperature: 0.2,
      fallbacks: [
        { model: 'gpt-5', messages: [{ role: 'user', content: 'Concise question' }] },
        { model: 'gpt-4.1' },
      ],
    });
    expect(body.model).toBe('gpt-5');
    expect(body.request).toMatchObject({ model: 'gpt-5', temperature: 0.2 });
    expect(contentOf(body)).toContain('Concise question');

    const exhausted = await complete<{ error: string; llm_status_code: number; http_status_code: number }>({
      ...ask('Hello', 'fail-primary'),
      fallbacks: [{ model: 'fail-secondary' }, { model: 'gpt-5' }],
    });
    expect(exhausted.status).toBe(502);
    expect(exhausted.body.error).toContain('fail-secondary');
    expect(exhausted.body.error).not.toContain('gpt-5');
  });

  it('answers an error with llm_status_code when every model fails, retrying a lone model once', async () => {
    const { status, body } = await complete<Record<string, unknown>>(ask('Hello', 'fail-only'));
    expect(status).toBe(502);
    expect(body).toMatchObject({ http_status_code: 502, llm_status_code: 503 });
    expect(String(body.error).match(/fail-only/g)).toHaveLength(2);
    const noRetry = await complete<{ error: string }>({
      ...ask('Hello', 'fail-only'),
      fallback_config: { retry: false },
    });
    expect(noRetry.body.error.match(/fail-only/g)).toHaveLength(1);
  });

  it('falls back when a flaky provider fails part-way through a non-streamed answer', async () => {
    const { body } = await complete({ ...ask('Hello', 'gpt-5-flaky'), fallbacks: [{ model: 'gpt-4.1' }] });
    expect(body.model).toBe('gpt-4.1');
  });
});

describe('tools', () => {
  const question = { role: 'user', content: 'What is the weather in Paris today?' };

  it('calls a tool the user asks for, then answers with its result', async () => {
    const first = await complete({ model: 'gpt-5', messages: [question], tools: [weatherTool] });
    const choice = first.body.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    const call = choice?.message.tool_calls?.[0];
    expect(call).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
    const args = JSON.parse(call?.function.arguments ?? '') as { city: string; unit: string };
    expect(args.city).toBe('Paris');
    expect(['celsius', 'fahrenheit']).toContain(args.unit);

    const second = await complete({
      model: 'gpt-5',
      tools: [weatherTool],
      messages: [
        question,
        choice?.message,
        { role: 'tool', tool_call_id: call?.id, content: '{"temperature": 18, "sky": "overcast"}' },
      ],
    });
    expect(second.body.choices[0]?.finish_reason).toBe('stop');
    expect(contentOf(second.body)).toContain('get_weather');
    // Read out in words, as a model would, never as the JSON it was given.
    expect(contentOf(second.body)).toContain('get_weather: temperature 18, overcast');
    expect(contentOf(second.body)).not.toMatch(/[{}]/);
  });

  it('does not call tools with tool_choice none or for unrelated questions', async () => {
    const none = await complete({
      model: 'gpt-5',
      messages: [question],
      tools: [weatherTool],
      tool_choice: 'none',
    });
    expect(none.body.choices[0]?.finish_reason).toBe('stop');
    const unrelated = await complete({ ...ask('Who won the vote?', 'gpt-5'), tools: [weatherTool] });
    expect(unrelated.body.choices[0]?.message.tool_calls).toBeUndefined();
  });

  it('calls the tool named by an object tool_choice', async () => {
    const forced = await complete({
      ...ask('Who won the vote?', 'gpt-5'),
      tools: [weatherTool],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
    expect(forced.body.choices[0]?.message.tool_calls?.[0]?.function.name).toBe('get_weather');
  });
});

describe('structured output', () => {
  const storySchema = z.object({
    headline: z.string(),
    quotes: z.array(z.object({ speaker: z.string(), text: z.string() })).min(3),
    sentiment: z.enum(['positive', 'neutral', 'negative']),
    year: z.int().min(2000).max(2030),
    score: z.number().min(0).max(1),
    verified: z.boolean(),
  });
  const responseFormat = {
    type: 'json_schema',
    json_schema: { name: 'story', schema: z.toJSONSchema(storySchema) },
  };

  it('returns JSON valid against the json_schema', async () => {
    const { body } = await complete({
      ...ask('Extract the story', 'gpt-5'),
      response_format: responseFormat,
    });
    expect(storySchema.safeParse(JSON.parse(contentOf(body))).success).toBe(true);
  });

  it('returns a JSON object for json_object', async () => {
    const { body } = await complete({
      ...ask('Extract the story', 'gpt-5'),
      response_format: { type: 'json_object' },
    });
    expect(JSON.parse(contentOf(body))).toEqual({ answer: expect.any(String) as string });
  });

  it('needs the json-repair step to make a sloppy model answer valid JSON', async () => {
    const request = { ...ask('Extract the story', 'gpt-5-sloppy'), response_format: responseFormat };
    const broken = contentOf((await complete(request)).body);
    expect(() => JSON.parse(broken) as unknown).toThrow();

    const repaired = contentOf(
      (await complete({ ...request, post_processing_steps: [{ type: 'json-repair' }] })).body,
    );
    expect(storySchema.safeParse(JSON.parse(repaired)).success).toBe(true);
    const tidy = contentOf((await complete({ ...request, model: 'gpt-5' })).body);
    expect(repaired).toBe(tidy);
  });
});

describe('streaming', () => {
  interface StreamEvent {
    choices?: { delta: { role?: string; content?: string | null }; finish_reason: string | null }[];
    usage?: Record<string, number>;
    model?: string;
    error?: { message: string; code: number };
  }

  async function stream(
    body: unknown,
    base = emulator.url,
  ): Promise<{ events: (StreamEvent | '[DONE]')[]; readsBeforeEnd: number; contentType: string | null }> {
    const response = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...(body as object), stream: true }),
    });
    if (!response.body) throw new Error('expected a streamed body');
    const decoder = new TextDecoder();
    let text = '';
    let readsBeforeEnd = 0;
    for await (const bytes of response.body as AsyncIterable<Uint8Array>) {
      const piece = decoder.decode(bytes, { stream: true });
      if (!piece.includes('[DONE]') && piece.includes('data: ')) readsBeforeEnd += 1;
      text += piece;
    }
    const events = text
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => block.slice('data: '.length))
      .map((data) => (data === '[DONE]' ? '[DONE]' : (JSON.parse(data) as StreamEvent)));
    return { events, readsBeforeEnd, contentType: response.headers.get('content-type') };
  }

  const isChunk = (event: StreamEvent | '[DONE]'): event is StreamEvent => event !== '[DONE]';

  it('delivers content deltas incrementally, then finish_reason, usage and [DONE]', async () => {
    // A slow clock, so that the chunks are spaced out enough to arrive in separate reads.
    const slow = await startEmulator({ port: 0, speed: 1, key: KEY });
    try {
      const request = ask('Summarise the meeting', 'gpt-5');
      const { events, readsBeforeEnd, contentType } = await stream(request, slow.url);
      expect(contentType).toContain('text/event-stream');
      expect(readsBeforeEnd).toBeGreaterThanOrEqual(3);
      expect(events.at(-1)).toBe('[DONE]');
      const chunks = events.filter(isChunk);
      expect(chunks[0]?.choices?.[0]?.delta.role).toBe('assistant');
      const deltas = chunks.map((chunk) => chunk.choices?.[0]?.delta.content ?? '').filter(Boolean);
      expect(deltas.length).toBeGreaterThanOrEqual(3);
      const last = chunks.at(-1);
      expect(last?.choices?.[0]?.finish_reason).toBe('stop');
      expect(last?.usage?.output_tokens).toBeGreaterThan(0);

      const plain = await complete(request);
      expect(deltas.join('')).toBe(contentOf(plain.body));
    } finally {
      await slow.close();
    }
  });

  it('streams from the fallback when the primary fails before the stream starts', async () => {
    const { events } = await stream({
      ...ask('Hello', 'fail-primary'),
      fallbacks: [{ model: 'gpt-5-nano' }],
    });
    expect(events.filter(isChunk).every((chunk) => chunk.model === 'gpt-5-nano')).toBe(true);
    expect(events.at(-1)).toBe('[DONE]');
  });

  it('reports a provider failure after the stream started as an error event', async () => {
    const { events } = await stream({ ...ask('Hello', 'gpt-5-flaky'), fallbacks: [{ model: 'gpt-4.1' }] });
    const chunks = events.filter(isChunk);
    expect(chunks.filter((chunk) => chunk.choices?.[0]?.delta.content).length).toBeGreaterThanOrEqual(1);
    expect(chunks.at(-1)?.error).toMatchObject({
      code: 503,
      message: expect.stringContaining('gpt-5-flaky') as string,
    });
    expect(events).not.toContain('[DONE]');
  });

  it('streams tool calls as argument deltas', async () => {
    const { events } = await stream({
      model: 'gpt-5',
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
      tools: [weatherTool],
    });
    const chunks = events.filter(isChunk);
    expect(chunks.at(-1)?.choices?.[0]?.finish_reason).toBe('tool_calls');
  });
});
