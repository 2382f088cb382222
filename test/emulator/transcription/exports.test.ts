import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../server';
import { decodeAudio } from '../speech/index';
import { Api, fixture } from './test-helpers';

interface Word {
  text: string;
  start: number;
  end: number;
  confidence: number;
  speaker: string | null;
}
interface Cue {
  index: string | undefined;
  start: number;
  end: number;
  text: string;
}

const INTERVIEW = 'interview-ferry-contract.wav';
const interviewMs = decodeAudio(fixture(INTERVIEW)).durationMs;

let emulator: RunningEmulator;
let api: Api;
let interviewUrl: string;
let transcript: Record<string, unknown>;
let words: Word[];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed: 200 });
  api = Api.of(emulator);
  interviewUrl = await api.upload(fixture(INTERVIEW));
  transcript = await api.transcribe({ audio_url: interviewUrl, speaker_labels: true });
  words = transcript.words as Word[];
});
afterAll(() => emulator.close());

const path = (suffix: string): string => `/v2/transcript/${transcript.id as string}${suffix}`;

function toMs(clock: string): number {
  const [hours, minutes, seconds, millis] = clock.split(/[:.,]/).map(Number);
  return ((hours! * 60 + minutes!) * 60 + seconds!) * 1000 + millis!;
}

/** Parses SRT or WebVTT cues, failing on anything that is not a well-formed cue. */
function parseCues(body: string, format: 'srt' | 'vtt'): Cue[] {
  let text = body;
  if (format === 'vtt') {
    expect(text.startsWith('WEBVTT\n\n')).toBe(true);
    text = text.slice('WEBVTT\n\n'.length);
  }
  const separator = format === 'srt' ? ',' : '\\.';
  const timing = new RegExp(
    `^(\\d{2}:\\d{2}:\\d{2}${separator}\\d{3}) --> (\\d{2}:\\d{2}:\\d{2}${separator}\\d{3})$`,
  );
  return text
    .trim()
    .split(/\n\n/)
    .map((block) => {
      const lines = block.split('\n');
      const index = format === 'srt' ? lines.shift() : undefined;
      const match = timing.exec(lines.shift() ?? '');
      expect(match, block).not.toBeNull();
      expect(lines.length, block).toBeGreaterThan(0);
      return { index, start: toMs(match![1]!), end: toMs(match![2]!), text: lines.join(' ') };
    });
}

function expectCuesInOrderInsideTheAudio(cues: Cue[]): void {
  expect(cues.length).toBeGreaterThan(3);
  let previousStart = 0;
  for (const cue of cues) {
    expect(cue.start).toBeGreaterThanOrEqual(previousStart);
    expect(cue.end).toBeGreaterThanOrEqual(cue.start);
    expect(cue.end).toBeLessThanOrEqual(interviewMs);
    previousStart = cue.start;
  }
  expect(cues.map((cue) => cue.text).join(' ')).toBe(words.map((word) => word.text).join(' '));
}

describe('sentences and paragraphs', () => {
  it.each(['sentences', 'paragraphs'])('GET .../%s covers the words of the transcript', async (kind) => {
    const response = await api.get(path(`/${kind}`));
    expect(response.status).toBe(200);
    expect(Object.keys(response.json).sort()).toEqual(['audio_duration', 'confidence', 'id', kind].sort());
    expect(response.json).toMatchObject({
      id: transcript.id,
      confidence: transcript.confidence,
      audio_duration: transcript.audio_duration,
    });
    const items = response.json[kind] as { text: string; start: number; end: number; words: Word[] }[];
    expect(items.length).toBeGreaterThan(1);
    expect(items.flatMap((item) => item.words)).toEqual(words);
    for (const item of items) expect(item.start).toBeLessThanOrEqual(item.end);
    if (kind === 'sentences') expect(items.every((item) => 'speaker' in item)).toBe(true);
  });
});

describe('subtitles', () => {
  it('GET .../srt is valid SRT: numbered cues in order, inside the audio', async () => {
    const response = await api.get(path('/srt'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const cues = parseCues(response.text, 'srt');
    expect(cues.map((cue) => cue.index)).toEqual(cues.map((_, index) => String(index + 1)));
    expectCuesInOrderInsideTheAudio(cues);
  });

  it('GET .../vtt is valid WebVTT with cues in order, inside the audio', async () => {
    const response = await api.get(path('/vtt'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expectCuesInOrderInsideTheAudio(parseCues(response.text, 'vtt'));
  });

  it('honours chars_per_caption', async () => {
    const cues = parseCues((await api.get(path('/vtt?chars_per_caption=20'))).text, 'vtt');
    expectCuesInOrderInsideTheAudio(cues);
    for (const cue of cues) expect(cue.text.length <= 20 || !cue.text.includes(' ')).toBe(true);
    const wide = parseCues((await api.get(path('/srt?chars_per_caption=200'))).text, 'srt');
    expect(wide.length).toBeLessThan(cues.length);
  });

  it('rejects a chars_per_caption that is not a positive integer', async () => {
    for (const value of ['0', '-3', 'many']) {
      const response = await api.get(path(`/srt?chars_per_caption=${value}`));
      expect(response.status).toBe(400);
      expect(response.json.error).toContain('chars_per_caption');
    }
  });
});

describe('word search', () => {
  it('finds words and phrases with their timestamps and word indexes', async () => {
    const response = await api.get(path('/word-search?words=ferry,Port%20Hollow,zeppelin'));
    expect(response.status).toBe(200);
    const matches = response.json.matches as {
      text: string;
      count: number;
      timestamps: number[][];
      indexes: number[];
    }[];
    expect(matches.map((match) => match.text)).toEqual(['ferry', 'Port Hollow', 'zeppelin']);

    const bare = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, '');
    const ferryIndexes = words.flatMap((word, index) => (bare(word.text) === 'ferry' ? [index] : []));
    expect(ferryIndexes.length).toBeGreaterThan(0);
    expect(matches[0]).toEqual({
      text: 'ferry',
      count: ferryIndexes.length,
      indexes: ferryIndexes,
      timestamps: ferryIndexes.map((index) => [words[index]!.start, words[index]!.end]),
    });
    const port = matches[1]!;
    expect(port.count).toBeGreaterThan(0);
    for (const [position, index] of port.indexes.entries()) {
      expect(bare(words[index]!.text)).toBe('port');
      expect(bare(words[index + 1]!.text)).toBe('hollow');
      expect(port.timestamps[position]).toEqual([words[index]!.start, words[index + 1]!.end]);
    }
    expect(matches[2]).toEqual({ text: 'zeppelin', count: 0, timestamps: [], indexes: [] });
    expect(response.json.total_count).toBe(ferryIndexes.length + port.count);
    expect(response.json.id).toBe(transcript.id);
  });

  it('needs at least one term, each of at most five words', async () => {
    expect((await api.get(path('/word-search'))).status).toBe(400);
    const tooLong = await api.get(path('/word-search?words=one%20two%20three%20four%20five%20six'));
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.error).toContain('words');
  });
});

describe('redacted audio', () => {
  let redacted: Record<string, unknown>;

  beforeAll(async () => {
    redacted = await api.transcribe({
      audio_url: interviewUrl,
      redact_pii: true,
      redact_pii_policies: ['person_name', 'phone_number'],
      redact_pii_audio: true,
    });
  });

  it('points to a WAV the client can fetch without the key, with the PII spans changed', async () => {
    const response = await api.get(`/v2/transcript/${redacted.id as string}/redacted-audio`);
    expect(response.status).toBe(200);
    expect(Object.keys(response.json).sort()).toEqual(['redacted_audio_url', 'status']);
    expect(response.json.status).toBe('redacted_audio_ready');

    const file = await fetch(response.json.redacted_audio_url as string);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('audio/wav');
    const audio = new Uint8Array(await file.arrayBuffer());
    const original = decodeAudio(fixture(INTERVIEW));
    const decoded = decodeAudio(audio);
    expect(decoded.sampleRate).toBe(original.sampleRate);
    expect(decoded.channels[0]!.length).toBe(original.channels[0]!.length);
    expect(Buffer.from(decoded.channels[0]!.buffer).equals(Buffer.from(original.channels[0]!.buffer))).toBe(
      false,
    );

    const tampered = new URL(response.json.redacted_audio_url as string);
    tampered.searchParams.set('signature', '0'.repeat(32));
    expect((await fetch(tampered)).status).toBe(403);
  });

  it('answers 400 when redact_pii_audio was not requested', async () => {
    const response = await api.get(path('/redacted-audio'));
    expect(response.status).toBe(400);
    expect(response.json.error).toContain('redact_pii_audio');
  });

  it('answers 400 once the transcript is deleted', async () => {
    const copy = await api.transcribe({
      audio_url: interviewUrl,
      redact_pii: true,
      redact_pii_policies: ['person_name'],
      redact_pii_audio: true,
    });
    const { json } = await api.get(`/v2/transcript/${copy.id as string}/redacted-audio`);
    await api.delete(`/v2/transcript/${copy.id as string}`);
    expect((await api.get(`/v2/transcript/${copy.id as string}/redacted-audio`)).status).toBe(400);
    expect((await fetch(json.redacted_audio_url as string)).status).toBe(404);
  });
});

describe('exports of a transcript that is not completed', () => {
  const suffixes = [
    '/sentences',
    '/paragraphs',
    '/srt',
    '/vtt',
    '/word-search?words=ferry',
    '/redacted-audio',
  ];

  it.each(suffixes)('GET .../%s answers 400 while queued', async (suffix) => {
    const slow = await startEmulator({ port: 0, speed: 1 });
    try {
      const slowApi = Api.of(slow);
      const id = await slowApi.submit({
        audio_url: `${slow.url}/v2/upload/missing`,
        redact_pii: true,
        redact_pii_policies: ['person_name'],
        redact_pii_audio: true,
      });
      const response = await slowApi.get(`/v2/transcript/${id}${suffix}`);
      expect(response.status).toBe(400);
      expect(response.json.error).toMatch(/queued/);
    } finally {
      await slow.close();
    }
  });

  it.each(suffixes)('GET .../%s answers 400 after an error', async (suffix) => {
    const failed = await api.transcribe({
      audio_url: `${emulator.url}/v2/upload/missing`,
      redact_pii: true,
      redact_pii_policies: ['person_name'],
      redact_pii_audio: true,
    });
    const response = await api.get(`/v2/transcript/${failed.id as string}${suffix}`);
    expect(response.status).toBe(400);
    expect(response.json.error).toMatch(/error/);
  });
});
