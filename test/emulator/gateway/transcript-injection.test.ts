import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../server';

/**
 * End to end with the transcription module: a transcript made by the emulator is injected into
 * the prompt by transcript_id, and the model's answer quotes it.
 */

const RECORDING = new URL('../../fixtures/press-statement.wav', import.meta.url);

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed: 200 });
});

afterAll(async () => {
  await emulator.close();
});

async function call(
  method: string,
  path: string,
  body?: string | Uint8Array,
  json = true,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: {
      Authorization: emulator.options.key,
      ...(json && body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    body,
  });
  return (await response.json()) as Record<string, unknown>;
}

async function completedTranscript(): Promise<{ id: string; text: string }> {
  const upload = await call('POST', '/v2/upload', readFileSync(RECORDING), false);
  const created = await call('POST', '/v2/transcript', JSON.stringify({ audio_url: upload.upload_url }));
  const id = String(created.id);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const transcript = await call('GET', `/v2/transcript/${id}`);
    if (transcript.status === 'completed') return { id, text: String(transcript.text) };
    if (transcript.status === 'error' || Date.now() > deadline) {
      throw new Error(`transcript ${id} did not complete: ${JSON.stringify(transcript)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('{{ transcript }} injection', () => {
  it('answers from the stored transcript named by transcript_id', async () => {
    const transcript = await completedTranscript();
    const answer = await call(
      'POST',
      '/v1/chat/completions',
      JSON.stringify({
        model: 'claude-sonnet-4-6',
        transcript_id: transcript.id,
        prompt: 'Summarise this press statement: {{ transcript }}',
      }),
    );
    const choices = answer.choices as { message: { content: string } }[];
    const quotes = [...(choices[0]?.message.content ?? '').matchAll(/"([^"]+)"/g)].map(
      (match) => match[1] ?? '',
    );
    expect(quotes.length).toBeGreaterThanOrEqual(1);
    for (const quote of quotes) expect(transcript.text).toContain(quote);
    expect((answer.usage as { input_tokens: number }).input_tokens).toBeGreaterThan(
      transcript.text.length / 4,
    );
  });
});
