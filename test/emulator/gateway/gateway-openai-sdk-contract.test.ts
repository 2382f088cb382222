import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startEmulator, type RunningEmulator } from '../server';

/**
 * Contract: the official openai SDK, unchanged apart from the base URL and the key, talks to
 * the emulated gateway (AssemblyAI documents its gateway as OpenAI-SDK compatible).
 */

let emulator: RunningEmulator;
let client: OpenAI;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed: 20 });
  client = new OpenAI({ apiKey: emulator.options.key, baseURL: `${emulator.url}/v1` });
});

afterAll(async () => {
  await emulator.close();
});

describe('openai SDK against the gateway', () => {
  it('creates a plain completion', async () => {
    const completion = await client.chat.completions.create({
      model: 'claude-sonnet-4-6',
      messages: [
        { role: 'system', content: 'You help reporters.' },
        { role: 'user', content: 'What did the council decide?' },
      ],
      max_tokens: 300,
      temperature: 0.5,
    });
    expect(completion.model).toBe('claude-sonnet-4-6');
    expect(completion.choices[0]?.message.content).toEqual(expect.any(String));
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(completion.usage?.total_tokens).toBe(
      (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0),
    );
  });

  it('streams a completion chunk by chunk', async () => {
    const request = {
      model: 'gpt-5',
      messages: [{ role: 'user' as const, content: 'Summarise the meeting' }],
    };
    const stream = await client.chat.completions.create({ ...request, stream: true });
    const deltas: string[] = [];
    let finishReason: string | null | undefined;
    for await (const chunk of stream) {
      const content = chunk.choices[0]?.delta.content;
      if (content) deltas.push(content);
      finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
    }
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    expect(finishReason).toBe('stop');
    const whole = await client.chat.completions.create(request);
    expect(deltas.join('')).toBe(whole.choices[0]?.message.content);
  });

  it('surfaces an error event in the stream as an APIError', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-5-flaky',
      messages: [{ role: 'user', content: 'Hello' }],
      stream: true,
    });
    const read = async (): Promise<void> => {
      for await (const chunk of stream) void chunk;
    };
    await expect(read()).rejects.toBeInstanceOf(OpenAI.APIError);
  });

  it('runs a tool round trip', async () => {
    const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
      {
        type: 'function',
        function: {
          name: 'lookup_speaker',
          description: 'Find the biography of a speaker quoted in the transcript',
          parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
      },
    ];
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Give me the biography of the speaker Maria Lopez.' },
    ];
    const first = await client.chat.completions.create({ model: 'gpt-5', messages, tools });
    const message = first.choices[0]?.message;
    const call = message?.tool_calls?.[0];
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    if (call?.type !== 'function' || !message) throw new Error('expected a function tool call');
    expect(call.function.name).toBe('lookup_speaker');
    expect(JSON.parse(call.function.arguments)).toEqual({ name: expect.any(String) as string });

    messages.push(message, { role: 'tool', tool_call_id: call.id, content: 'Mayor of the city since 2021.' });
    const second = await client.chat.completions.create({ model: 'gpt-5', messages, tools });
    expect(second.choices[0]?.message.content).toContain('Mayor of the city since 2021.');
  });

  it('parses a json_schema response_format into the schema', async () => {
    const Summary = z.object({
      headline: z.string(),
      points: z.array(z.string()),
      tone: z.enum(['neutral', 'critical']),
    });
    const completion = await client.chat.completions.parse({
      model: 'gemini-2.5-flash',
      messages: [{ role: 'user', content: 'Summarise the press conference' }],
      response_format: zodResponseFormat(Summary, 'summary'),
    });
    const parsed = completion.choices[0]?.message.parsed;
    expect(Summary.safeParse(parsed).success).toBe(true);
  });
});
