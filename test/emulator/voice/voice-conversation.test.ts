import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../server';
import {
  decodedAudio,
  matching,
  peak,
  queueUtterance,
  silence,
  tone,
  utterance,
  VoiceTestClient,
  type ServerEvent,
} from './voice-test-client';

const key = 'voice-test-key';
const CHUNK_BYTES = 2400; // 50 ms of PCM16 at 24 kHz
const ACK = '(Sure|Got it|Okay|Right|Understood)\\.';

const weatherTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Get the current weather for a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['city', 'unit'],
  },
};
const timeTool = {
  type: 'function',
  name: 'get_time',
  description: 'Get the local time in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};

/** Like the app's library tools: one that can be called from words, one that needs times. */
const searchTool = {
  type: 'function',
  name: 'search_library',
  description: 'Finds what was said, and by whom, in every transcript of the library.',
  parameters: {
    type: 'object',
    properties: { query: { type: 'string' }, speaker: { type: 'string' }, limit: { type: 'integer' } },
    required: ['query'],
  },
};
const passageTool = {
  type: 'function',
  name: 'read_passage',
  description: 'Reads what was said in one transcript between two times.',
  parameters: {
    type: 'object',
    properties: {
      transcript_id: { type: 'string' },
      start_ms: { type: 'integer' },
      end_ms: { type: 'integer' },
    },
    required: ['transcript_id', 'start_ms', 'end_ms'],
  },
};

function types(messages: ServerEvent[]): string[] {
  return messages.map((message) => message.type);
}

/** Message types with runs of reply.audio and transcript.user.delta folded into one entry. */
function folded(messages: ServerEvent[]): string[] {
  return types(messages).filter((type, index, all) => type !== all[index - 1]);
}

function withEmulator(speed: number): {
  url: () => string;
  start: (session?: object) => Promise<VoiceTestClient>;
} {
  let emulator: RunningEmulator;
  const clients: VoiceTestClient[] = [];
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, speed, key });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await emulator.close();
  });
  return {
    url: () => emulator.url,
    start: async (session = {}) => {
      const client = await VoiceTestClient.start(emulator.url, key, session);
      clients.push(client);
      return client;
    },
  };
}

describe('turns and replies', () => {
  const emulator = withEmulator(50);

  it('detects a spoken turn, transcribes it and replies with paced audio', async () => {
    await queueUtterance(emulator.url(), 'please summarize the council meeting');
    const client = await emulator.start();
    client.sendAudio(utterance(1000));

    const turn = await client.until('transcript.user');
    expect(folded(turn)).toEqual([
      'input.speech.started',
      'transcript.user.delta',
      'input.speech.stopped',
      'transcript.user',
    ]);
    const deltas = turn
      .filter((message) => message.type === 'transcript.user.delta')
      .map((m) => String(m.text));
    expect(deltas.length).toBeGreaterThanOrEqual(2);
    for (const [index, delta] of deltas.entries()) {
      expect('please summarize the council meeting'.startsWith(delta)).toBe(true);
      if (index > 0) expect(delta.length).toBeGreaterThan(deltas[index - 1]!.length);
    }
    const final = turn[turn.length - 1]!;
    expect(final).toEqual({
      type: 'transcript.user',
      text: 'please summarize the council meeting',
      item_id: matching(/^item_/),
    });

    const reply = await client.until('reply.done');
    expect(folded(reply)).toEqual(['reply.started', 'reply.audio', 'transcript.agent', 'reply.done']);
    const transcript = reply.find((message) => message.type === 'transcript.agent')!;
    expect(transcript).toEqual({
      type: 'transcript.agent',
      text: matching(new RegExp(`^${ACK} You said: please summarize the council meeting\\.$`)),
      reply_id: reply[0]!.reply_id,
      item_id: matching(/^item_/),
      interrupted: false,
    });
    expect(transcript.item_id).not.toBe(final.item_id);
    expect(reply[reply.length - 1]).toEqual({ type: 'reply.done', status: 'completed' });
    const chunks = decodedAudio(reply);
    expect(chunks.every((chunk) => chunk.length === CHUNK_BYTES)).toBe(true);
    // One 50 ms chunk per character: a sentence of ~50 characters lasts a few seconds.
    expect(chunks.length).toBe(Array.from(String(transcript.text)).length);
    expect(peak(Buffer.concat(chunks))).toBeGreaterThan(1000);
  });

  it('hears a deterministic placeholder when no utterance is queued', async () => {
    const client = await emulator.start();
    client.sendAudio(utterance(400));
    expect((await client.next('transcript.user')).text).toBe('Placeholder utterance 1');
    await client.next('reply.done');
    client.sendAudio(utterance(400));
    expect((await client.next('transcript.user')).text).toBe('Placeholder utterance 2');
  });

  it('ignores sound below vad_threshold and short blips', async () => {
    const client = await emulator.start({ input: { turn_detection: { vad_threshold: 0.5 } } });
    // A 0.3 tone has an RMS of about 0.21: quieter than the threshold.
    client.sendAudio(Buffer.concat([tone(1000), silence(700)]));
    client.send({ type: 'session.update', session: { input: { turn_detection: { vad_threshold: 0.02 } } } });
    // 40 ms of speech is shorter than the 60 ms a turn needs to start.
    client.sendAudio(Buffer.concat([tone(40), silence(700)]));
    client.send({ type: 'reply.create', instructions: 'Marker.' });
    await client.next('reply.done');
    expect(folded(client.received)).toEqual([
      'session.ready',
      'session.updated',
      'reply.started',
      'reply.audio',
      'transcript.agent',
      'reply.done',
    ]);
  });

  it('speaks the greeting as a reply once the session is ready', async () => {
    const client = await emulator.start({ greeting: 'Hello from the newsroom.' });
    const reply = await client.until('reply.done');
    expect(folded(reply)).toEqual(['reply.started', 'reply.audio', 'transcript.agent', 'reply.done']);
    expect(reply.find((message) => message.type === 'transcript.agent')?.text).toBe(
      'Hello from the newsroom.',
    );
    expect(decodedAudio(reply)).toHaveLength('Hello from the newsroom.'.length);
  });

  it('replies on reply.create with the instructions, or to the last utterance without them', async () => {
    const client = await emulator.start({ system_prompt: 'You are a news assistant.' });
    client.send({ type: 'reply.create', instructions: 'Read the first headline' });
    expect((await client.next('transcript.agent')).text).toMatch(
      new RegExp(`^${ACK} Read the first headline\\.$`),
    );
    await client.next('reply.done');
    client.send({ type: 'reply.create' });
    expect((await client.next('transcript.agent')).text).toMatch(new RegExp(`^${ACK} How can I help\\?$`));
    await queueUtterance(emulator.url(), 'check the spelling of Nguyen');
    client.sendAudio(utterance(400));
    await client.next('reply.done');
    client.send({ type: 'reply.create' });
    const echo = await client.next('transcript.agent');
    expect(echo.text).toMatch(new RegExp(`^${ACK} You said: check the spelling of Nguyen\\.$`));
  });

  it('synthesizes the same audio for the same reply and scales it by output.volume', async () => {
    const audioOf = async (output: object): Promise<Buffer> => {
      const client = await emulator.start({ system_prompt: 'Same prompt.', output });
      client.send({ type: 'reply.create', instructions: 'Hi.' });
      return Buffer.concat(decodedAudio(await client.until('reply.done')));
    };
    const native = await audioOf({});
    expect(await audioOf({ volume: null })).toEqual(native);
    const half = await audioOf({ volume: 50 });
    const muted = await audioOf({ volume: 0 });
    expect(half.length).toBe(native.length);
    expect(peak(half) / peak(native)).toBeCloseTo(0.5, 2);
    expect(peak(muted)).toBe(0);
  });
});

describe('tools', () => {
  const emulator = withEmulator(50);

  it('calls a tool the user asks for and answers with its result after reply.done', async () => {
    await queueUtterance(emulator.url(), 'What is the weather in Paris in fahrenheit');
    const client = await emulator.start({ tools: [weatherTool] });
    client.sendAudio(utterance(600));
    await client.next('transcript.user');
    const reply = await client.until('reply.done');
    expect(folded(reply)).toEqual([
      'reply.started',
      'reply.audio',
      'transcript.agent',
      'tool.call',
      'reply.done',
    ]);
    expect(reply.find((message) => message.type === 'transcript.agent')?.text).toMatch(
      new RegExp(`^${ACK} Let me check get weather\\.$`),
    );
    const call = reply.find((message) => message.type === 'tool.call')!;
    expect(call).toEqual({
      type: 'tool.call',
      call_id: matching(/^call_/),
      name: 'get_weather',
      arguments: { city: 'Paris', unit: 'fahrenheit' },
    });

    client.send({ type: 'tool.result', call_id: call.call_id, result: 'Sunny and 70 degrees' });
    const followUp = await client.until('reply.done');
    expect(folded(followUp)).toEqual(['reply.started', 'reply.audio', 'transcript.agent', 'reply.done']);
    expect(followUp.find((message) => message.type === 'transcript.agent')?.text).toMatch(
      new RegExp(`^${ACK} get weather says: Sunny and 70 degrees\\.$`),
    );

    client.send({ type: 'tool.result', call_id: call.call_id, result: 'again' });
    expect((await client.next('session.error')).code).toBe('unknown_call_id');
  });

  it('calls every tool asked for and follows up once all results are in', async () => {
    await queueUtterance(emulator.url(), 'weather and time in Oslo');
    const client = await emulator.start({ tools: [weatherTool, timeTool] });
    client.sendAudio(utterance(600));
    const reply = await client.until('reply.done');
    const calls = reply.filter((message) => message.type === 'tool.call');
    expect(calls.map((call) => [call.name, call.arguments])).toEqual([
      ['get_weather', { city: 'Oslo', unit: 'celsius' }],
      ['get_time', { city: 'Oslo' }],
    ]);
    client.send({ type: 'tool.result', call_id: calls[1]!.call_id, result: '9 pm' });
    client.send({ type: 'reply.create', instructions: 'Marker.' });
    // The marker reply comes first: the follow-up waits for the second result.
    expect((await client.next('transcript.agent')).text).toMatch(/Marker\.$/);
    client.send({ type: 'tool.result', call_id: calls[0]!.call_id, result: 'cold' });
    expect((await client.next('transcript.agent')).text).toMatch(
      new RegExp(`^${ACK} get weather says: cold\\. get time says: 9 pm\\.$`),
    );
  });

  it('drops outstanding calls when the user speaks again, ignoring their late results', async () => {
    await queueUtterance(emulator.url(), ['weather in Rome', 'never mind']);
    const client = await emulator.start({ tools: [weatherTool] });
    client.sendAudio(utterance(600));
    const call = await client.next('tool.call');
    await client.next('reply.done');
    client.sendAudio(utterance(600));
    expect((await client.next('transcript.agent')).text).toMatch(/You said: never mind\.$/);
    await client.next('reply.done');
    client.send({ type: 'tool.result', call_id: call.call_id, result: 'too late' });
    client.send({ type: 'reply.create', instructions: 'Marker.' });
    const rest = await client.until('reply.done');
    expect(rest.find((message) => message.type === 'transcript.agent')?.text).toMatch(/Marker\.$/);
    expect(types(client.received)).not.toContain('session.error');
  });

  it.each([
    {
      said: 'find what the mayor said about the ferry contract',
      calls: [['search_library', { query: 'ferry contract', speaker: 'mayor' }]],
    },
    { said: 'search for the council vote', calls: [['search_library', { query: 'council vote' }]] },
    {
      said: 'search for the council vote 3',
      calls: [['search_library', { query: 'council vote 3', limit: 3 }]],
    },
    // The passage needs times the reporter did not give: never made up (the demo once sent 0 and 0).
    { said: 'read me that passage again', calls: [] },
  ])('"$said": calls the best-matching tools it can fill, with what was said', async ({ said, calls }) => {
    await queueUtterance(emulator.url(), said);
    const client = await emulator.start({ tools: [searchTool, passageTool] });
    client.sendAudio(utterance(600));
    const reply = await client.until('reply.done');
    const made = reply.filter((message) => message.type === 'tool.call');
    expect(made.map((call) => [call.name, call.arguments])).toEqual(calls);
  });

  it('reads a JSON result out in words, never as JSON', async () => {
    await queueUtterance(emulator.url(), 'find what the mayor said about the ferry contract');
    const client = await emulator.start({ tools: [searchTool, passageTool] });
    client.sendAudio(utterance(600));
    const call = await client.next('tool.call');
    await client.next('reply.done');
    const result = {
      total: 1,
      quotes: [
        {
          transcript_id: 'e3737292',
          transcript_title: 'Interview with the mayor',
          speaker: 'Mayor Elena Alvarez',
          start_ms: 37_744,
          end_ms: 41_805,
          time: '00:00:37',
          quote: 'Frankly, the old ferry was a damn disgrace.',
        },
      ],
    };
    client.send({ type: 'tool.result', call_id: call.call_id, result: JSON.stringify(result) });
    expect((await client.next('transcript.agent')).text).toMatch(
      new RegExp(
        `^${ACK} search library says: total 1, 1 quote: Interview with the mayor, Mayor Elena Alvarez, ` +
          '00:00:37, Frankly, the old ferry was a damn disgrace\\.$',
      ),
    );
  });

  it('does not call tools the user does not ask for', async () => {
    await queueUtterance(emulator.url(), 'read me the headlines');
    const client = await emulator.start({ tools: [weatherTool] });
    client.sendAudio(utterance(600));
    const reply = await client.until('reply.done');
    expect(types(reply)).not.toContain('tool.call');
  });
});

describe('barge-in', () => {
  // Slow enough that the reply is still speaking when the interruption arrives.
  const emulator = withEmulator(2);

  it('stops the reply at once when the user speaks over it', async () => {
    const said = 'tell me everything about the city council budget vote from last night';
    const client = await emulator.start({ system_prompt: 'Barge-in test.' });
    // A short reply first, to learn the acknowledgement this system prompt gives.
    client.send({ type: 'reply.create', instructions: 'Hi.' });
    const ack = String((await client.next('transcript.agent')).text).replace(/ Hi\.$/, '');
    await client.next('reply.done');
    const fullText = `${ack} You said: ${said}.`;

    await queueUtterance(emulator.url(), said);
    client.sendAudio(utterance(400));
    await client.next('reply.started');
    // Let a few words be spoken (12 chunks: 0.6 s of audio), then talk over the rest.
    for (let chunk = 0; chunk < 12; chunk++) await client.next('reply.audio');
    client.sendAudio(tone(200));
    const interrupted = await client.until('reply.done');
    expect(folded(interrupted).slice(-3)).toEqual(['input.speech.started', 'transcript.agent', 'reply.done']);
    expect(interrupted[interrupted.length - 1]).toEqual({ type: 'reply.done', status: 'interrupted' });
    const transcript = interrupted.find((message) => message.type === 'transcript.agent')!;
    expect(transcript.interrupted).toBe(true);
    // The words spoken before the interruption: a whole-word prefix of what the reply would have said.
    const spoken = String(transcript.text);
    expect(fullText.startsWith(spoken)).toBe(true);
    expect(spoken.length).toBeGreaterThan(0);
    expect(fullText.charAt(spoken.length)).toMatch(/^\s$/);
    expect(spoken.length).toBeLessThan(fullText.length - 20);
    expect(decodedAudio(interrupted).length).toBeLessThan(fullText.length - 20);

    // The user's turn ends; the next reply starts without leftover audio of the old one.
    client.sendAudio(silence(700));
    const next = await client.until('reply.started');
    expect(folded(next)).toEqual([
      'transcript.user.delta',
      'input.speech.stopped',
      'transcript.user',
      'reply.started',
    ]);
    await client.next('reply.done');
  });
});

describe('pacing at speed 1', () => {
  const emulator = withEmulator(1);

  it('sends reply audio no faster than twice real time', async () => {
    const client = await emulator.start();
    client.send({ type: 'reply.create', instructions: 'Hi.' });
    await client.next('reply.started');
    const startedAt = performance.now();
    const reply = await client.until('reply.done');
    const elapsedMs = performance.now() - startedAt;
    const audioMs = decodedAudio(reply).length * 50;
    expect(audioMs).toBeGreaterThanOrEqual(300);
    expect(elapsedMs).toBeGreaterThanOrEqual(audioMs / 2 - 50);
  });
});
