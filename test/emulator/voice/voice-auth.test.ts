import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../server';
import { anyString, connectRefused, matching, socketUrl, VoiceTestClient } from './voice-test-client';

let emulator: RunningEmulator;
const key = 'voice-test-key';

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed: 50, key });
});
afterAll(async () => {
  await emulator.close();
});

/** GET /v1/token with the raw key, another Authorization value, or none (null). */
async function getToken(query = '', authorization: string | null = key): Promise<Response> {
  return fetch(`${emulator.url}/v1/token${query}`, {
    headers: authorization === null ? {} : { Authorization: authorization },
  });
}

async function issueToken(query = ''): Promise<string> {
  const response = await getToken(query);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { token: string };
  return body.token;
}

describe('voice agent authentication', () => {
  it('opens the socket with the API key as a bearer token', async () => {
    const client = await VoiceTestClient.start(emulator.url, key);
    expect(client.received[0]).toEqual({
      type: 'session.ready',
      session_id: matching(/^sess_/),
    });
    await client.close();
  });

  it('refuses the upgrade with 401 without credentials, with a wrong key or a key without Bearer', async () => {
    expect(await connectRefused(socketUrl(emulator.url))).toEqual({ status: 401 });
    expect(await connectRefused(socketUrl(emulator.url), { Authorization: 'Bearer wrong' })).toEqual({
      status: 401,
    });
    expect(await connectRefused(socketUrl(emulator.url), { Authorization: key })).toEqual({ status: 401 });
    expect(await connectRefused(socketUrl(emulator.url, 'tok_unknown'))).toEqual({ status: 401 });
  });

  it('issues temporary tokens for the raw key or a bearer key, and only for the key', async () => {
    const raw = await getToken();
    expect(await raw.json()).toEqual({ token: matching(/^tok_/), expires_in_seconds: 60 });
    const bearer = await getToken('?expires_in_seconds=600', `Bearer ${key}`);
    expect(await bearer.json()).toEqual({ token: anyString(), expires_in_seconds: 600 });
    expect((await getToken('', null)).status).toBe(401);
    expect((await getToken('', 'wrong')).status).toBe(401);
    for (const bad of ['0', '601', '1.5', 'soon']) {
      expect((await getToken(`?expires_in_seconds=${bad}`)).status).toBe(400);
    }
  });

  it('accepts a temporary token once', async () => {
    const token = await issueToken();
    const client = await VoiceTestClient.connect(emulator.url, { token });
    client.send({ type: 'session.update', session: {} });
    await client.next('session.ready');
    expect(await connectRefused(socketUrl(emulator.url, token))).toEqual({ status: 401 });
    await client.close();
  });

  it('refuses an expired temporary token', async () => {
    // One second of emulator time is 20 ms at speed 50; wait ten times that.
    const token = await issueToken('?expires_in_seconds=1');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await connectRefused(socketUrl(emulator.url, token))).toEqual({ status: 401 });
  });
});

describe('faults injected on the upgrade', () => {
  async function injectFault(fault: object): Promise<void> {
    const response = await fetch(`${emulator.url}/__admin/faults`, {
      method: 'POST',
      body: JSON.stringify(fault),
    });
    expect(response.status).toBe(200);
  }

  it('answers the upgrade with the injected status, once', async () => {
    await injectFault({ path: '^/v1/ws$', kind: 'status', status: 503 });
    const headers = { Authorization: `Bearer ${key}` };
    expect(await connectRefused(socketUrl(emulator.url), headers)).toEqual({ status: 503 });
    const client = await VoiceTestClient.start(emulator.url, key);
    await client.close();
  });

  it('drops the connection for an injected reset', async () => {
    await injectFault({ path: '^/v1/ws$', kind: 'reset' });
    const outcome = await connectRefused(socketUrl(emulator.url), { Authorization: `Bearer ${key}` });
    expect(outcome).toEqual({ error: matching(/socket hang up|ECONNRESET/) });
  });
});
