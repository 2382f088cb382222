import { resolve } from 'node:path';
import { AssemblyAI, type Transcript } from 'assemblyai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../server';
import { decodeAudio } from '../speech/index';
import { FIXTURES, fixture } from './test-helpers';

/** The official AssemblyAI SDK, unchanged, pointed at the emulator. */

const INTERVIEW = resolve(FIXTURES, 'interview-ferry-contract.wav');
const POLLING = { pollingInterval: 20, pollingTimeout: 20_000 };

let emulator: RunningEmulator;
let client: AssemblyAI;
let transcript: Transcript;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed: 200 });
  client = new AssemblyAI({ apiKey: emulator.options.key, baseUrl: emulator.url });
  const uploadUrl = await client.files.upload(INTERVIEW);
  transcript = await client.transcripts.transcribe(
    {
      audio: uploadUrl,
      speaker_labels: true,
      entity_detection: true,
      auto_highlights: true,
      sentiment_analysis: true,
      iab_categories: true,
      content_safety: true,
      redact_pii: true,
      redact_pii_policies: ['person_name', 'phone_number', 'email_address'],
      redact_pii_sub: 'entity_name',
      redact_pii_audio: true,
    },
    POLLING,
  );
});
afterAll(() => emulator.close());

describe('the assemblyai SDK against the emulator', () => {
  it('uploads and transcribes with speaker labels and the analyses', () => {
    expect(transcript.status).toBe('completed');
    expect(transcript.text).toMatch(/Northwind Ferries/);
    expect(transcript.text).toContain('[PERSON_NAME]');
    expect(new Set(transcript.utterances?.map((utterance) => utterance.speaker))).toEqual(
      new Set(['A', 'B']),
    );
    expect(transcript.entities?.length).toBeGreaterThan(0);
    expect(transcript.auto_highlights_result?.results.length).toBeGreaterThan(0);
    expect(transcript.sentiment_analysis_results?.length).toBeGreaterThan(0);
    expect(transcript.iab_categories_result?.status).toBe('success');
    expect(transcript.content_safety_labels?.status).toBe('success');
  });

  it('gets sentences and paragraphs', async () => {
    const sentences = await client.transcripts.sentences(transcript.id);
    const paragraphs = await client.transcripts.paragraphs(transcript.id);
    expect(sentences.id).toBe(transcript.id);
    expect(sentences.sentences.flatMap((sentence) => sentence.words)).toEqual(transcript.words);
    expect(paragraphs.paragraphs.length).toBeGreaterThan(0);
    expect(paragraphs.audio_duration).toBe(transcript.audio_duration);
  });

  it('gets SRT and VTT subtitles', async () => {
    const srt = await client.transcripts.subtitles(transcript.id, 'srt');
    const vtt = await client.transcripts.subtitles(transcript.id, 'vtt', 32);
    expect(srt).toMatch(/^1\n\d{2}:\d{2}:\d{2},\d{3} --> \d{2}:\d{2}:\d{2},\d{3}\n/);
    expect(vtt).toMatch(/^WEBVTT\n\n\d{2}:\d{2}:\d{2}\.\d{3} --> /);
  });

  it('searches words', async () => {
    const result = await client.transcripts.wordSearch(transcript.id, ['ferry', 'Gull Island']);
    expect(result.id).toBe(transcript.id);
    expect(result.matches.map((match) => match.text)).toEqual(['ferry', 'Gull Island']);
    expect(result.total_count).toBe(result.matches[0]!.count + result.matches[1]!.count);
    expect(result.matches[0]!.count).toBeGreaterThan(0);
  });

  it('lists transcripts, with dates the SDK can parse', async () => {
    const page = await client.transcripts.list({ limit: 5 });
    expect(page.transcripts[0]!.id).toBe(transcript.id);
    expect(page.transcripts[0]!.created).toBeInstanceOf(Date);
    expect(Number.isNaN(page.transcripts[0]!.created.getTime())).toBe(false);
    expect(page.page_details.limit).toBe(5);
  });

  it('gets the redacted audio and its file', async () => {
    const redacted = await client.transcripts.redactedAudio(transcript.id);
    expect(redacted.status).toBe('redacted_audio_ready');
    const file = await client.transcripts.redactedAudioFile(transcript.id);
    const audio = decodeAudio(new Uint8Array(await file.arrayBuffer()));
    expect(audio.durationMs).toBe(decodeAudio(fixture('interview-ferry-contract.wav')).durationMs);
  });

  it('surfaces a 400 as an error naming the parameter', async () => {
    await expect(
      client.transcripts.submit({
        audio_url: `${emulator.url}/v2/upload/missing`,
        content_safety_confidence: 10,
      }),
    ).rejects.toThrow(/content_safety_confidence/);
  });

  it('deletes a transcript, which keeps answering with its content removed', async () => {
    const copy = await client.transcripts.transcribe({ audio: INTERVIEW }, POLLING);
    const deleted = await client.transcripts.delete(copy.id);
    expect(deleted.text).toBe('Deleted by user.');
    const after = await client.transcripts.get(copy.id);
    expect(after.audio_url).toBe('http://deleted_by_user');
  });
});
