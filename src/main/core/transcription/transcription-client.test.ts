import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectRecording, uploadSource } from './recording-file';
import { resolve } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../../test/emulator/server';
import { HttpClient } from '../http/http-client';
import { TranscriptionClient } from './transcription-client';
import type { Transcript } from './schemas';

const fixtures = resolve(import.meta.dirname, '../../../../test/fixtures');
let emulator: RunningEmulator;
let client: TranscriptionClient;
let euClient: TranscriptionClient;

function clientFor(baseUrl: string, key = 'emulator-key'): TranscriptionClient {
  return new TranscriptionClient(
    new HttpClient({
      service: 'transcription service',
      baseUrl,
      apiKey: () => key,
      authStyle: 'raw',
      fetch: (input, init) => fetch(input, init),
      sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 20))),
      now: Date.now,
      random: Math.random,
    }),
  );
}

async function upload(c: TranscriptionClient, name: string): Promise<string> {
  const path = resolve(fixtures, name);
  return c.upload(uploadSource(await inspectRecording(path)));
}

async function completed(c: TranscriptionClient, id: string): Promise<Transcript> {
  for (;;) {
    const transcript = await c.get(id);
    if (transcript.status === 'completed' || transcript.status === 'error') return transcript;
    await new Promise((r) => setTimeout(r, 20));
  }
}

let interviewId: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, euPort: 0, speed: 500 });
  client = clientFor(emulator.url);
  euClient = clientFor(emulator.euUrl!);
  const uploadUrl = await upload(client, 'interview-ferry-contract.wav');
  const created = await client.create({
    audio_url: uploadUrl,
    speaker_labels: true,
    redact_pii: true,
    redact_pii_policies: ['person_name', 'phone_number'],
    redact_pii_audio: true,
    redact_pii_return_unredacted: true,
    entity_detection: true,
  });
  interviewId = created.id;
  expect((await completed(client, interviewId)).status).toBe('completed');
});
afterAll(() => emulator.close());

describe('the transcription client against the emulator', () => {
  it('uploads, creates and reads a transcript with its sentences and paragraphs', async () => {
    const transcript = await client.get(interviewId);
    expect(transcript).toMatchObject({ id: interviewId, status: 'completed' });
    expect(transcript.text).not.toContain('Daniel Reyes');
    expect(transcript.unredacted_text).toContain('Daniel Reyes');
    // Fields Verbatim does not model are kept, not dropped.
    expect(transcript).toHaveProperty('unredacted_text');
    expect(transcript).toHaveProperty('entities');
    const sentences = await client.sentences(interviewId);
    expect(sentences.length).toBeGreaterThan(5);
    expect(sentences[0]).toMatchObject({ start: expect.any(Number) as number, speaker: 'A' });
    expect((await client.paragraphs(interviewId)).length).toBeGreaterThan(0);
  });

  it('refuses bad options before sending anything', async () => {
    await expect(
      client.create({ audio_url: 'https://x.example/a.mp3', content_safety_confidence: 101 }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('content_safety_confidence') as string,
    });
  });

  it('passes on the service message when the service refuses a request', async () => {
    // The client-side check allows a language code the service does not know of; the service says so.
    const error = await client.create({ audio_url: 'not-a-real-upload' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_input' });
  });

  it('lists transcripts newest first and pages to older ones', async () => {
    const extra: string[] = [];
    for (let i = 0; i < 3; i++) {
      extra.push((await client.create({ audio_url: await upload(client, 'press-statement.wav') })).id);
    }
    const first = await client.list({ limit: 2 });
    expect(first.transcripts.map((t) => t.id)).toEqual([extra[2], extra[1]]);
    expect(first.page_details.prev_url).toBeTruthy();
    const older = await client.listPage(first.page_details.prev_url!);
    expect(older.transcripts.map((t) => t.id)).toEqual([extra[0], interviewId]);
    expect(
      (await client.list({ status: 'completed' })).transcripts.every((t) => t.status === 'completed'),
    ).toBe(true);
    expect(() => client.list({ limit: 500 })).toThrow('limit');
  });

  it('gets subtitles as SRT and WebVTT', async () => {
    const srt = await client.subtitles(interviewId, 'srt', 32);
    expect(srt).toMatch(/^1\r?\n\d\d:\d\d:\d\d,\d\d\d --> \d\d:\d\d:\d\d,\d\d\d/);
    const vtt = await client.subtitles(interviewId, 'vtt');
    expect(vtt.startsWith('WEBVTT')).toBe(true);
  });

  it('searches words in a transcript', async () => {
    const found = await client.wordSearch(interviewId, ['ferry', ' contract ']);
    expect(found.total_count).toBeGreaterThan(0);
    expect(found.matches.map((m) => m.text.toLowerCase())).toEqual(expect.arrayContaining(['ferry']));
    expect(() => client.wordSearch(interviewId, ['  '])).toThrow('at least one word');
  });

  it('gets the redacted audio', async () => {
    const redacted = await client.redactedAudio(interviewId);
    expect(redacted.status).toBe('redacted_audio_ready');
    expect(redacted.redacted_audio_url).toMatch(/^http/);
  });

  it('deletes a transcript on the service', async () => {
    const id = (await client.create({ audio_url: await upload(client, 'press-statement.wav') })).id;
    await completed(client, id);
    const deleted = await client.delete(id);
    expect(deleted.id).toBe(id);
    expect((await client.get(id)).text ?? '').not.toContain('statement');
  });

  it('keeps the regions apart and says so when an id is unknown', async () => {
    await expect(euClient.get(interviewId)).rejects.toMatchObject({ code: 'not_found', status: 404 });
    const eu = await euClient.create({ audio_url: await upload(euClient, 'press-statement.wav') });
    expect((await completed(euClient, eu.id)).status).toBe('completed');
    await expect(client.get(eu.id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('explains a wrong key', async () => {
    await expect(clientFor(emulator.url, 'wrong').get(interviewId)).rejects.toMatchObject({
      code: 'unauthorized',
      status: 401,
    });
  });
});
