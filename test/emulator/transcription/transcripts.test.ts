import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../server';
import { decodeAudio } from '../speech/index';
import { Api, fixture, poll } from './test-helpers';

/** Every field of the spec's Transcript table, plus the unredacted_* ones it names under redact_pii_return_unredacted. */
const SPEC_FIELDS = new Set([
  'id',
  'status',
  'error',
  'audio_url',
  'text',
  'words',
  'utterances',
  'confidence',
  'audio_duration',
  'audio_channels',
  'audio_start_from',
  'audio_end_at',
  'language_code',
  'language_codes',
  'language_confidence',
  'language_confidence_threshold',
  'language_detection',
  'language_detection_options',
  'punctuate',
  'format_text',
  'multichannel',
  'filter_profanity',
  'disfluencies',
  'speech_models',
  'speech_model_used',
  'speech_model',
  'language_model',
  'acoustic_model',
  'prompt',
  'keyterms_prompt',
  'domain',
  'custom_spelling',
  'speaker_labels',
  'speakers_expected',
  'auto_highlights',
  'auto_highlights_result',
  'content_safety',
  'content_safety_labels',
  'iab_categories',
  'iab_categories_result',
  'entity_detection',
  'entities',
  'sentiment_analysis',
  'sentiment_analysis_results',
  'auto_chapters',
  'chapters',
  'summarization',
  'summary_type',
  'summary_model',
  'summary',
  'custom_topics',
  'topics',
  'speech_threshold',
  'remove_audio_tags',
  'throttled',
  'redact_pii',
  'redact_pii_audio',
  'redact_pii_audio_options',
  'redact_pii_audio_quality',
  'redact_pii_policies',
  'redact_pii_sub',
  'redact_pii_return_unredacted',
  'webhook_url',
  'webhook_status_code',
  'webhook_auth',
  'webhook_auth_header_name',
  'speech_understanding',
  'unredacted_text',
  'unredacted_words',
  'unredacted_utterances',
]);
const REQUIRED_FIELDS = [
  'audio_url',
  'auto_highlights',
  'id',
  'language_confidence',
  'language_confidence_threshold',
  'redact_pii',
  'status',
  'summarization',
  'webhook_auth',
  'acoustic_model',
  'language_model',
  'speech_model',
];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function expectSpecShape(transcript: Record<string, unknown>): void {
  expect(Object.keys(transcript).filter((key) => !SPEC_FIELDS.has(key))).toEqual([]);
  for (const field of REQUIRED_FIELDS) expect(transcript, field).toHaveProperty(field);
  expect(transcript.id).toMatch(UUID);
}

const pressStatementMs = decodeAudio(fixture('press-statement.wav')).durationMs;

let emulator: RunningEmulator;
let api: Api;
let pressUrl: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed: 200 });
  api = Api.of(emulator);
  pressUrl = await api.upload(fixture('press-statement.wav'));
});
afterAll(() => emulator.close());

describe('authentication and unknown ids', () => {
  const routes: [string, string][] = [
    ['POST', '/v2/transcript'],
    ['GET', '/v2/transcript'],
    ['GET', '/v2/transcript/some-id'],
    ['DELETE', '/v2/transcript/some-id'],
    ['GET', '/v2/transcript/some-id/sentences'],
    ['GET', '/v2/transcript/some-id/srt'],
    ['POST', '/v2/upload'],
    ['GET', '/v2/upload/some-id'],
  ];

  it.each(routes)(
    '%s %s answers 401 without the key, with a wrong key or with a scheme',
    async (method, path) => {
      for (const authorization of [undefined, 'wrong-key', `Bearer ${emulator.options.key}`]) {
        const body = method === 'POST' ? { audio_url: pressUrl } : undefined;
        const response = await api.request(method, path, { authorization, body });
        expect(response.status).toBe(401);
        expect(response.json.error).toMatch(/Authentication error/);
      }
    },
  );

  it.each(['', '/sentences', '/paragraphs', '/srt', '/vtt', '/word-search?words=a', '/redacted-audio'])(
    'GET /v2/transcript/<unknown>%s answers 404',
    async (suffix) => {
      const response = await api.get(`/v2/transcript/00000000-0000-4000-8000-000000000000${suffix}`);
      expect(response.status).toBe(404);
      expect(response.json).toEqual({ error: 'Transcript not found' });
    },
  );

  it('DELETE of an unknown id answers 404', async () => {
    expect((await api.delete('/v2/transcript/nope')).status).toBe(404);
  });
});

describe('a transcript', () => {
  it('goes queued → processing → completed, observed by polling', async () => {
    const slow = await startEmulator({ port: 0, speed: 10 });
    try {
      const slowApi = Api.of(slow);
      const created = await slowApi.post('/v2/transcript', {
        audio_url: await slowApi.upload(fixture('press-statement.wav')),
      });
      expect(created.status).toBe(200);
      const seen = [created.json.status];
      await poll(async () => {
        const { json } = await slowApi.get(`/v2/transcript/${created.json.id as string}`);
        if (json.status !== seen.at(-1)) seen.push(json.status);
        return json.status === 'completed' || json.status === 'error' ? true : undefined;
      });
      expect(seen).toEqual(['queued', 'processing', 'completed']);
    } finally {
      await slow.close();
    }
  });

  it('is created queued, shaped as the spec says, with the request echoed and the real defaults', async () => {
    const created = await api.post('/v2/transcript', {
      audio_url: pressUrl,
      speaker_labels: true,
      keyterms_prompt: ['Gull Island'],
    });
    expect(created.status).toBe(200);
    const queued = created.json;
    expectSpecShape(queued);
    expect(queued).toMatchObject({
      status: 'queued',
      audio_url: pressUrl,
      speech_models: ['universal-3-5-pro', 'universal-2'],
      format_text: true,
      punctuate: true,
      speaker_labels: true,
      keyterms_prompt: ['Gull Island'],
      confidence: null,
      audio_duration: null,
      language_confidence: null,
      webhook_auth: false,
      speech_model: null,
      language_model: 'assemblyai_default',
      acoustic_model: 'assemblyai_default',
    });
    expect(queued).not.toHaveProperty('text');
    expect(queued).not.toHaveProperty('words');
    expect(queued).not.toHaveProperty('error');

    const done = await api.waitUntilDone(queued.id as string);
    expectSpecShape(done);
    expect(done.status).toBe('completed');
    expect(done.text).toMatch(/Northwind Ferries/);
    expect(Array.isArray(done.words) && done.words.length).toBeGreaterThan(10);
    expect(Array.isArray(done.utterances)).toBe(true);
    // audio_duration is whole seconds.
    expect(Math.abs((done.audio_duration as number) - pressStatementMs / 1000)).toBeLessThanOrEqual(1);
    expect(Number.isInteger(done.audio_duration)).toBe(true);
    expect(done.confidence).toEqual(expect.any(Number));
    expect(done.speech_model_used).toBe('universal-3-5-pro');
    expect(done.language_code).toBe('en_us');
  });

  it('reports every requested analysis, and nothing outside the spec', async () => {
    const done = await api.transcribe({
      audio_url: await api.upload(fixture('interview-ferry-contract.wav')),
      speaker_labels: true,
      auto_highlights: true,
      content_safety: true,
      iab_categories: true,
      entity_detection: true,
      sentiment_analysis: true,
      redact_pii: true,
      redact_pii_policies: ['person_name', 'phone_number', 'email_address'],
      redact_pii_return_unredacted: true,
      webhook_auth_header_name: 'X-Unused',
    });
    expectSpecShape(done);
    expect(done.status).toBe('completed');
    expect(done.auto_highlights_result).toMatchObject({ status: 'success' });
    expect(done.content_safety_labels).toMatchObject({ status: 'success' });
    expect(done.iab_categories_result).toMatchObject({ status: 'success' });
    const entities = done.entities as { entity_type: string }[];
    expect(entities.map((entity) => entity.entity_type)).toContain('person_name');
    expect((done.sentiment_analysis_results as unknown[]).length).toBeGreaterThan(0);
    expect(done.redact_pii_sub).toBe('hash');
    expect(done.text).not.toMatch(/Elena Alvarez/);
    expect(done.unredacted_text).toMatch(/Elena Alvarez/);
    expect(new Set((done.utterances as { speaker: string }[]).map((utterance) => utterance.speaker))).toEqual(
      new Set(['A', 'B']),
    );
    expect(done.webhook_auth_header_name).toBe('X-Unused');
    expect(done.webhook_auth).toBe(false);
  });

  it('is deterministic: the same audio and options give the same transcript apart from its id', async () => {
    const options = {
      audio_url: pressUrl,
      speaker_labels: true,
      entity_detection: true,
      auto_highlights: true,
    };
    const first = await api.transcribe(options);
    const second = await api.transcribe(options);
    expect(second.id).not.toBe(first.id);
    expect({ ...second, id: undefined }).toEqual({ ...first, id: undefined });
  });

  it('with one seed, hands out the same ids in every run, and again after a reset', async () => {
    const ids = async (target: RunningEmulator): Promise<string[]> => {
      const targetApi = Api.of(target);
      const url = `${target.url}/v2/upload/missing`;
      return [await targetApi.submit({ audio_url: url }), await targetApi.submit({ audio_url: url })];
    };
    const run = async (): Promise<string[]> => {
      const fresh = await startEmulator({ port: 0, speed: 200, idSeed: 'same-seed' });
      try {
        const before = await ids(fresh);
        await fetch(`${fresh.url}/__admin/reset`, { method: 'POST' });
        expect(await ids(fresh)).toEqual(before);
        expect((await Api.of(fresh).get(`/v2/transcript/${before[0]}`)).status).toBe(200);
        return before;
      } finally {
        await fresh.close();
      }
    };
    const firstRun = await run();
    expect(await run()).toEqual(firstRun);
    expect(new Set(firstRun).size).toBe(2);
  });

  it('without a seed, never hands out an id a previous run gave (a library outlives the emulator)', async () => {
    const idsOfOneRun = async (): Promise<string[]> => {
      const fresh = await startEmulator({ port: 0, speed: 200 });
      try {
        const freshApi = Api.of(fresh);
        const url = `${fresh.url}/v2/upload/missing`;
        return [await freshApi.submit({ audio_url: url }), await freshApi.submit({ audio_url: url })];
      } finally {
        await fresh.close();
      }
    };
    const first = await idsOfOneRun();
    const second = await idsOfOneRun();
    expect(new Set([...first, ...second]).size).toBe(4);
  });
});

describe('failures end in status error with the reason', () => {
  it.each([
    [
      'an unreachable URL',
      () => 'http://127.0.0.1:1/interview.wav',
      /^Download error, unable to download http:\/\/127\.0\.0\.1:1/,
    ],
    ['a URL answering 404', () => `${emulator.url}/files/missing.wav`, /^Download error: 404/],
    ['an upload id that does not exist', () => `${emulator.url}/v2/upload/unknown`, /^Download error/],
  ])('%s', async (_name, audioUrl, message) => {
    const failed = await api.transcribe({ audio_url: audioUrl() });
    expectSpecShape(failed);
    expect(failed.status).toBe('error');
    expect(failed.error).toMatch(message);
    expect(failed).not.toHaveProperty('text');
  });

  it('a file that is not audio', async () => {
    const garbage = new TextEncoder().encode('These are meeting notes, not a recording.\n'.repeat(50));
    const failed = await api.transcribe({ audio_url: await api.upload(garbage) });
    expect(failed.status).toBe('error');
    expect(failed.error).toBe(
      'Transcoding failed. File does not appear to contain audio. File type is text/plain (ASCII text).',
    );
  });

  it('a video recording is transcribed from its sound, as the service transcodes it', async () => {
    const done = await api.transcribe({ audio_url: await api.upload(fixture('press-statement.webm')) });
    const fromWav = await api.transcribe({ audio_url: await api.upload(fixture('press-statement.wav')) });
    expect(done.status).toBe('completed');
    expect(done.text).toBe(fromWav.text);
    expect(done.words).toEqual(fromWav.words);
  });

  it('a WebM file without sound names its type', async () => {
    const header = Uint8Array.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7]);
    const failed = await api.transcribe({ audio_url: await api.upload(header) });
    expect(failed.error).toBe(
      'Transcoding failed. File does not appear to contain audio. File type is video/webm (WebM).',
    );
  });

  it('a silent file', async () => {
    const failed = await api.transcribe({ audio_url: await api.upload(fixture('silence.wav')) });
    expect(failed.status).toBe('error');
    expect(failed.error).toMatch(/audio/i);
  });

  it('a detected language below language_confidence_threshold', async () => {
    const failed = await api.transcribe({
      audio_url: await api.upload(fixture('spanish-clip.wav')),
      language_detection: true,
      language_confidence_threshold: 0.99,
    });
    expect(failed.status).toBe('error');
    expect(failed.error).toMatch(/below the requested confidence threshold/);
    expect(failed.language_confidence_threshold).toBe(0.99);
  });
});

describe('DELETE /v2/transcript/{id}', () => {
  it('refuses a transcript still in the queue', async () => {
    const id = await api.submit({ audio_url: pressUrl });
    const response = await api.delete(`/v2/transcript/${id}`);
    expect(response.status).toBe(400);
    expect(response.json.error).toMatch(/queued|processing/);
    await api.waitUntilDone(id);
  });

  it('removes the content and keeps answering with the redacted resource', async () => {
    const done = await api.transcribe({ audio_url: pressUrl, entity_detection: true, speaker_labels: true });
    const deleted = await api.delete(`/v2/transcript/${done.id as string}`);
    expect(deleted.status).toBe(200);
    expectSpecShape(deleted.json);
    expect(deleted.json).toMatchObject({
      id: done.id,
      status: 'completed',
      text: 'Deleted by user.',
      audio_url: 'http://deleted_by_user',
      words: [],
      utterances: [],
      entities: [],
      audio_duration: done.audio_duration,
    });
    const again = await api.get(`/v2/transcript/${done.id as string}`);
    expect(again.json).toEqual(deleted.json);
    const sentences = await api.get(`/v2/transcript/${done.id as string}/sentences`);
    expect(sentences.json.sentences).toEqual([]);
  });
});
