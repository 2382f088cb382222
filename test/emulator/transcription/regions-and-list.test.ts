import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClock, startEmulator, type RunningEmulator } from '../server';
import { TranscriptionState, type TranscriptRecord } from './transcription-state';
import { Api, fixture } from './test-helpers';

let emulator: RunningEmulator;
let us: Api;
let eu: Api;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, euPort: 0, speed: 200 });
  us = Api.of(emulator, 'us');
  eu = Api.of(emulator, 'eu');
});
afterAll(() => emulator.close());

describe('regions', () => {
  it('keeps EU transcripts and uploads invisible on the US port, and the other way round', async () => {
    const euUpload = await eu.upload(fixture('press-statement.wav'));
    expect(euUpload.startsWith(`${emulator.euUrl}/v2/upload/`)).toBe(true);
    const euTranscript = await eu.transcribe({ audio_url: euUpload });
    expect(euTranscript.status).toBe('completed');

    const usTranscript = await us.transcribe({ audio_url: await us.upload(fixture('press-statement.wav')) });
    expect(usTranscript.status).toBe('completed');

    expect((await us.get(`/v2/transcript/${euTranscript.id as string}`)).status).toBe(404);
    expect((await us.get(`/v2/transcript/${euTranscript.id as string}/sentences`)).status).toBe(404);
    expect((await us.delete(`/v2/transcript/${euTranscript.id as string}`)).status).toBe(404);
    expect((await eu.get(`/v2/transcript/${usTranscript.id as string}`)).status).toBe(404);
    expect((await us.get(euUpload.replace(emulator.euUrl!, emulator.url))).status).toBe(404);
    expect((await eu.get(euUpload)).status).toBe(200);

    const usIds = ((await us.get('/v2/transcript')).json.transcripts as { id: string }[]).map(
      (item) => item.id,
    );
    expect(usIds).toContain(usTranscript.id);
    expect(usIds).not.toContain(euTranscript.id);
  });

  it('cannot transcribe an upload of the other region', async () => {
    const euUpload = await eu.upload(fixture('press-statement.wav'));
    const failed = await us.transcribe({ audio_url: euUpload });
    expect(failed.status).toBe('error');
    expect(failed.error).toMatch(/^Download error/);
  });

  it('gives the gateway the text of completed transcripts of the asking region only', () => {
    const state = new TranscriptionState(createClock(1), emulator.options.dataDir, emulator.options.idSeed);
    const record = (status: TranscriptRecord['status'], text: string): TranscriptRecord => ({
      id: `t-${status}`,
      region: 'eu',
      sequence: 1,
      createdAt: 0,
      completedAt: undefined,
      params: { audio_url: 'https://example.com/a.wav' },
      status,
      error: undefined,
      fields: { text },
      deleted: false,
      webhookStatusCode: undefined,
      redactedAudioPath: undefined,
    });
    state.transcripts('eu').set('t-completed', record('completed', 'Hello from the EU.'));
    state.transcripts('eu').set('t-processing', record('processing', 'Not yet.'));
    expect(state.completedText('t-completed', 'eu')).toBe('Hello from the EU.');
    expect(state.completedText('t-completed', 'us')).toBeUndefined();
    expect(state.completedText('t-processing', 'eu')).toBeUndefined();
    expect(state.completedText('unknown', 'eu')).toBeUndefined();
  });
});

describe('GET /v2/transcript (list)', () => {
  let api: Api;
  let ids: string[];
  let listEmulator: RunningEmulator;

  beforeAll(async () => {
    listEmulator = await startEmulator({ port: 0, speed: 200 });
    api = Api.of(listEmulator);
    const audio = await api.upload(fixture('press-statement.wav'));
    ids = [];
    for (let index = 0; index < 7; index += 1) {
      // Every other transcript fails (a missing upload), so status filters have something to tell apart.
      ids.push(
        await api.submit({ audio_url: index % 2 === 0 ? audio : `${listEmulator.url}/v2/upload/missing` }),
      );
    }
    for (const id of ids) await api.waitUntilDone(id);
  });
  afterAll(() => listEmulator.close());

  type Page = { page_details: Record<string, unknown>; transcripts: Record<string, unknown>[] };
  const list = async (query: string): Promise<Page> => {
    const response = await api.get(`/v2/transcript${query}`);
    expect(response.status, response.text).toBe(200);
    return response.json as unknown as Page;
  };
  const newestFirst = (): string[] => [...ids].reverse();

  it('lists newest first with the documented item shape and page details', async () => {
    const page = await list('');
    expect(page.transcripts.map((item) => item.id)).toEqual(newestFirst());
    expect(page.page_details).toEqual({
      limit: 10,
      result_count: 7,
      current_url: `${listEmulator.url}/v2/transcript`,
      prev_url: null,
      next_url: null,
    });
    const item = page.transcripts[0]!;
    expect(Object.keys(item).sort()).toEqual([
      'audio_url',
      'completed',
      'created',
      'error',
      'id',
      'resource_url',
      'status',
    ]);
    expect(item.resource_url).toBe(`${listEmulator.url}/v2/transcript/${item.id as string}`);
    expect(item.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/);
    expect(item.completed).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('pages to older transcripts with prev_url and back to newer ones with next_url', async () => {
    const seen: string[] = [];
    let page = await list('?limit=3');
    const firstPage = page;
    for (;;) {
      seen.push(...page.transcripts.map((item) => item.id as string));
      expect(page.page_details.result_count).toBe(page.transcripts.length);
      const prev = page.page_details.prev_url as string | null;
      if (!prev) break;
      page = await list(prev.slice(`${listEmulator.url}/v2/transcript`.length));
    }
    expect(seen).toEqual(newestFirst());
    expect(firstPage.page_details.next_url).toBeNull();

    const second = await list(`?limit=3&before_id=${ids[4]!}`);
    expect(second.transcripts.map((item) => item.id)).toEqual([ids[3], ids[2], ids[1]]);
    const back = await list(
      (second.page_details.next_url as string).slice(`${listEmulator.url}/v2/transcript`.length),
    );
    expect(back.transcripts.map((item) => item.id)).toEqual([ids[6], ids[5], ids[4]]);
    const newer = await list(`?limit=2&after_id=${ids[1]!}`);
    expect(newer.transcripts.map((item) => item.id)).toEqual([ids[3], ids[2]]);
    const window = await list(`?after_id=${ids[1]!}&before_id=${ids[5]!}`);
    expect(window.transcripts.map((item) => item.id)).toEqual([ids[4], ids[3], ids[2]]);
  });

  it('filters by status, created_on and throttled_only', async () => {
    const errors = await list('?status=error&limit=2');
    expect(errors.transcripts.map((item) => item.id)).toEqual([ids[5], ids[3]]);
    expect(errors.transcripts.every((item) => typeof item.error === 'string')).toBe(true);
    expect(errors.page_details.prev_url).toBe(
      `${listEmulator.url}/v2/transcript?limit=2&status=error&before_id=${ids[3]!}`,
    );
    const completed = await list('?status=completed');
    expect(completed.transcripts.map((item) => item.id)).toEqual([ids[6], ids[4], ids[2], ids[0]]);
    expect(completed.transcripts.every((item) => item.error === null)).toBe(true);

    const today = (completed.transcripts[0]!.created as string).slice(0, 10);
    expect((await list(`?created_on=${today}`)).transcripts).toHaveLength(7);
    expect((await list('?created_on=1999-01-01')).transcripts).toEqual([]);
    expect((await list('?throttled_only=true')).transcripts).toEqual([]);
  });

  it.each([
    ['?limit=0', 'limit'],
    ['?limit=201', 'limit'],
    ['?limit=ten', 'limit'],
    ['?status=finished', 'status'],
    ['?created_on=yesterday', 'created_on'],
    ['?before_id=unknown', 'before_id'],
    ['?after_id=unknown', 'after_id'],
    ['?throttled_only=maybe', 'throttled_only'],
  ])('rejects %s with a 400 naming %s', async (query, parameter) => {
    const response = await api.get(`/v2/transcript${query}`);
    expect(response.status).toBe(400);
    expect(response.json.error).toContain(parameter);
  });

  it('accepts the largest limit', async () => {
    expect((await list('?limit=200')).page_details.limit).toBe(200);
  });
});
