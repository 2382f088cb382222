import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../server';
import { Api, fixture, poll } from './test-helpers';

interface Delivery {
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A local webhook receiver answering with the scripted statuses in turn (then 200). */
class Receiver {
  readonly deliveries: Delivery[] = [];
  script: { status: number; delayMs?: number }[] = [];
  private server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      this.deliveries.push({ url: req.url ?? '', headers: req.headers, body: JSON.parse(body) as unknown });
      const { status, delayMs = 0 } = this.script.shift() ?? { status: 200 };
      setTimeout(() => res.writeHead(status).end(), delayMs);
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let emulator: RunningEmulator;
let api: Api;
let audioUrl: string;
let receiver: Receiver;
let receiverUrl: string;

beforeAll(async () => {
  // Slower than the other suites: 10 s emulated is 400 ms here, room for a loaded machine to answer in time.
  emulator = await startEmulator({ port: 0, speed: 25 });
  api = Api.of(emulator);
  audioUrl = await api.upload(fixture('press-statement.wav'));
  receiver = new Receiver();
  receiverUrl = await receiver.start();
});
afterAll(async () => {
  await emulator.close();
  await receiver.close();
});
afterEach(() => {
  receiver.deliveries.length = 0;
  receiver.script = [];
});

/** Transcribes with a webhook and waits until the transcript records `finalStatusCode` from the receiver. */
async function transcribeWithWebhook(
  body: Record<string, unknown>,
  finalStatusCode = 200,
): Promise<Record<string, unknown>> {
  const id = await api.submit({ audio_url: audioUrl, ...body });
  return poll(async () => {
    const { json } = await api.get(`/v2/transcript/${id}`);
    return json.webhook_status_code === finalStatusCode ? json : undefined;
  });
}

/** Long enough for two retry intervals (10 s emulated = 400 ms here) to pass. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1000));

describe('webhooks', () => {
  it('POSTs {transcript_id, status} to the URL with its query parameters, once, on success', async () => {
    const transcript = await transcribeWithWebhook({
      webhook_url: `${receiverUrl}/hooks/verbatim?story=ferry&n=1`,
    });
    await settle();
    expect(receiver.deliveries).toHaveLength(1);
    const [delivery] = receiver.deliveries;
    expect(delivery!.url).toBe('/hooks/verbatim?story=ferry&n=1');
    expect(delivery!.headers['content-type']).toMatch(/^application\/json/);
    expect(delivery!.body).toEqual({ transcript_id: transcript.id, status: 'completed' });
    expect(transcript).toMatchObject({
      status: 'completed',
      webhook_url: `${receiverUrl}/hooks/verbatim?story=ferry&n=1`,
      webhook_status_code: 200,
      webhook_auth: false,
    });
  });

  it('reports a failed transcript with status error', async () => {
    const transcript = await transcribeWithWebhook({
      audio_url: `${emulator.url}/v2/upload/missing`,
      webhook_url: `${receiverUrl}/hook`,
    });
    expect(transcript.status).toBe('error');
    expect(receiver.deliveries[0]!.body).toEqual({ transcript_id: transcript.id, status: 'error' });
  });

  it('sends the custom auth header, and never echoes its value', async () => {
    const transcript = await transcribeWithWebhook({
      webhook_url: `${receiverUrl}/hook`,
      webhook_auth_header_name: 'X-Verbatim-Secret',
      webhook_auth_header_value: 's3cret-value',
    });
    expect(receiver.deliveries[0]!.headers['x-verbatim-secret']).toBe('s3cret-value');
    expect(transcript).toMatchObject({ webhook_auth: true, webhook_auth_header_name: 'X-Verbatim-Secret' });
    expect(JSON.stringify(transcript)).not.toContain('s3cret-value');
  });

  it('retries after 5xx answers until a 2xx', async () => {
    receiver.script = [{ status: 500 }, { status: 503 }, { status: 204 }];
    const transcript = await transcribeWithWebhook({ webhook_url: `${receiverUrl}/hook` }, 204);
    await settle();
    expect(receiver.deliveries).toHaveLength(3);
    expect(new Set(receiver.deliveries.map((delivery) => JSON.stringify(delivery.body))).size).toBe(1);
    expect(transcript.webhook_status_code).toBe(204);
  });

  it('retries a receiver that does not answer within 10 seconds', async () => {
    receiver.script = [{ status: 200, delayMs: 2000 }, { status: 200 }];
    await transcribeWithWebhook({ webhook_url: `${receiverUrl}/hook` });
    await settle();
    expect(receiver.deliveries).toHaveLength(2);
  });

  it('stops at once on a 4xx', async () => {
    receiver.script = [{ status: 410 }];
    const transcript = await transcribeWithWebhook({ webhook_url: `${receiverUrl}/hook` }, 410);
    await settle();
    expect(receiver.deliveries).toHaveLength(1);
    expect(transcript.status).toBe('completed');
  });

  it('gives up after 10 attempts', async () => {
    receiver.script = Array.from({ length: 20 }, () => ({ status: 500 }));
    const id = await api.submit({ audio_url: audioUrl, webhook_url: `${receiverUrl}/hook` });
    await poll(() => (receiver.deliveries.length >= 10 ? true : undefined));
    await settle();
    expect(receiver.deliveries).toHaveLength(10);
    expect((await api.get(`/v2/transcript/${id}`)).json.webhook_status_code).toBe(500);
  });
});
