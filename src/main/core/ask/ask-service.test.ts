import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAskTemplates, type AnswerEntry, type AskEntry } from '../../../shared/ask';
import type { Core } from '../app-core';
import { openDatabase } from '../library/database';
import type { AskEvent, AskService, AskSettings } from './ask-service';
import {
  closeAskTestbed,
  defaultAskSettings,
  startAskTestbed,
  type AskTestbed,
} from './ask-testbed.test-kit';
import { AskConversationStore } from '../library/ask-conversation-store';
import type { IDisposable } from '../../base/lifecycle';

let testbed: AskTestbed;
let core: Core;
let dataDir: string;
let transcriptId: string;
const sent: Record<string, unknown>[] = [];
const settings: AskSettings = defaultAskSettings();
let service: AskService;
let requestCount = 0;
const nextRequestId = (): string => `request-${(requestCount += 1)}`;

beforeAll(async () => {
  testbed = await startAskTestbed({
    folderPrefix: 'verbatim-ask-',
    options: { speaker_labels: true },
    settings: () => Promise.resolve(settings),
    fetch: (input, init) => {
      if (typeof init.body === 'string') sent.push(JSON.parse(init.body) as Record<string, unknown>);
      return fetch(input, init);
    },
  });
  ({ core, dataDir, transcriptId, service } = testbed);
});
afterAll(() => closeAskTestbed(testbed));

function answerOf(entries: AskEntry[]): AnswerEntry {
  const answer = entries.at(-1);
  if (answer?.kind !== 'answer') throw new Error('expected the last entry to be the answer');
  return answer;
}

function listen(): { events: AskEvent[]; listening: IDisposable } {
  const events: AskEvent[] = [];
  return { events, listening: service.events.subscribe((event) => events.push(event)) };
}

describe('Ask', () => {
  it('sends the transcript by reference in the first message and keeps the conversation after a restart', async () => {
    await service.clear(transcriptId);
    sent.length = 0;
    const job = await core.library.get(transcriptId);
    const entries = await service.send({
      requestId: nextRequestId(),
      transcriptId,
      question: 'What did they say about the ferry?',
      stream: false,
    });
    const request = sent.at(-1) as { transcript_id: string; messages: { role: string; content: string }[] };
    expect(request.transcript_id).toBe(job?.remoteId);
    expect(request.messages[0]?.role).toBe('system');
    expect(request.messages[0]?.content).toContain('{{ transcript }}');
    const sentences = await core.library.sentences(transcriptId);
    expect(JSON.stringify(request)).not.toContain(sentences[1]?.text);
    const answer = answerOf(entries);
    expect(answer).toMatchObject({ status: 'complete', model: 'claude-sonnet-4-5', format: 'text' });
    expect(answer.text).toContain(sentences.find((s) => answer.text.includes(s.text))?.text ?? '∅');
    expect(answer.usage?.totalTokens).toBeGreaterThan(0);
    expect(answer.responseTimeMs).toBeGreaterThan(0);
    expect(answer.requestId).toMatch(/^[0-9a-f-]{36}$/);

    // The next question carries the conversation so far.
    await service.send({ requestId: nextRequestId(), transcriptId, question: 'And then?', stream: false });
    const followUp = sent.at(-1) as { messages: { role: string; content: string }[] };
    expect(followUp.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(followUp.messages[2]?.content).toBe(answer.text);

    const reopened = openDatabase(join(dataDir, 'library.sqlite'));
    try {
      const saved = new AskConversationStore(reopened).list(transcriptId);
      expect(saved.map((entry) => entry.kind)).toEqual(['question', 'answer', 'question', 'answer']);
      expect(saved[1]).toEqual(answer);
    } finally {
      reopened.close();
    }
    expect(await service.conversation(transcriptId)).toHaveLength(4);
    expect(await service.clear(transcriptId)).toBe(4);
    expect(await service.conversation(transcriptId)).toEqual([]);
  });

  it('streams the answer as delta events before it is done, and announces every saved entry', async () => {
    const { events, listening } = listen();
    const requestId = nextRequestId();
    const entries = await service.send({ requestId, transcriptId, question: 'Summarise it.' });
    listening.dispose();
    const kinds = events.map((event) => event.type);
    expect(kinds.filter((kind) => kind === 'delta').length).toBeGreaterThanOrEqual(2);
    expect(kinds.indexOf('delta')).toBeLessThan(kinds.lastIndexOf('entry'));
    expect(kinds.at(-1)).toBe('done');
    expect(events.every((event) => event.requestId === requestId)).toBe(true);
    const text = events.map((event) => (event.type === 'delta' ? event.text : '')).join('');
    expect(answerOf(entries).text).toBe(text);
    expect(answerOf(entries).usage?.outputTokens).toBeGreaterThan(0);
  });

  it('runs the library tools the model calls, records each call, and continues with the result', async () => {
    sent.length = 0;
    const entries = await service.send({
      requestId: nextRequestId(),
      transcriptId,
      question: 'Search the library for the ferry contract',
    });
    expect(entries.map((entry) => entry.kind)).toEqual(['question', 'tool', 'answer']);
    const call = entries[1] as Extract<AskEntry, { kind: 'tool' }>;
    expect(call.name).toBe('search_library');
    expect(JSON.parse(call.result)).toHaveProperty('quotes');
    expect(answerOf(entries).text).toContain('According to search_library');
    const second = sent.at(-1) as { messages: { role: string; tool_call_id?: string }[]; tools: unknown[] };
    expect(second.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: call.callId });
    expect(second.tools).toHaveLength(3);
    const stored = await service.conversation(transcriptId);
    expect(stored.some((entry) => entry.kind === 'tool' && entry.callId === call.callId)).toBe(true);
  });

  it("gives the model a tool's error as the sentence it can act on, never as JSON", async () => {
    sent.length = 0;
    // The emulated model makes up the passage's transcript id: the tool cannot read it.
    const entries = await service.send({
      requestId: nextRequestId(),
      transcriptId,
      question: 'Read the passage between the first two questions',
    });
    expect(entries.map((entry) => entry.kind)).toEqual(['question', 'tool', 'answer']);
    const call = entries[1] as Extract<AskEntry, { kind: 'tool' }>;
    expect(call.name).toBe('read_passage');
    expect(call.result).toMatch(
      /^(There is no transcript with id .+ in the library|read_passage was not run: .+)\.$/,
    );
    const second = sent.at(-1) as { messages: { role: string; content: string }[] };
    expect(second.messages.at(-1)).toMatchObject({ role: 'tool', content: call.result });
    expect(answerOf(entries).text).toBe(`According to read_passage: ${call.result}`);
  });

  it('tries the fallback models of the setting in order and records which one answered', async () => {
    settings.askModel = 'fail-first';
    settings.askFallbackModels = ['fail-second', 'fail-third', 'gpt-5-mini'];
    sent.length = 0;
    try {
      const entries = await service.send({ requestId: nextRequestId(), transcriptId, question: 'Hello?' });
      expect(answerOf(entries)).toMatchObject({
        status: 'complete',
        requestedModel: 'fail-first',
        model: 'gpt-5-mini',
      });
      expect(sent.map((body) => body.model)).toEqual(['fail-first', 'gpt-5-mini']);
      expect(sent[0]).toMatchObject({
        fallbacks: [{ model: 'fail-second' }, { model: 'fail-third' }],
        fallback_config: { depth: 2 },
      });
    } finally {
      settings.askModel = 'claude-sonnet-4-5';
      settings.askFallbackModels = [];
    }
  });

  it('gives key quotes as checked JSON whose times are those of the transcript', async () => {
    sent.length = 0;
    const template = defaultAskTemplates.find((t) => t.format === 'quotes')!;
    const entries = await service.send({
      requestId: nextRequestId(),
      transcriptId,
      question: template.prompt,
      label: template.label,
      format: 'quotes',
      model: 'gpt-5-sloppy',
    });
    expect(sent.at(-1)).toMatchObject({
      response_format: { type: 'json_schema' },
      post_processing_steps: [{ type: 'json-repair' }],
    });
    expect(sent.at(-1)).not.toHaveProperty('tools');
    const answer = answerOf(entries);
    expect(answer.problem).toBeUndefined();
    const { quotes } = answer.structured as { quotes: { quote: string; start_ms: number }[] };
    const sentences = await core.library.sentences(transcriptId);
    expect(quotes.length).toBeGreaterThan(0);
    for (const quote of quotes) {
      const sentence = sentences.find((s) => s.text.includes(quote.quote) || quote.quote.includes(s.text));
      expect(sentence?.startMs).toBe(quote.start_ms);
    }
    expect(entries[0]).toMatchObject({ kind: 'question', label: 'Key quotes', format: 'quotes' });
  });

  it('says clearly when the model cannot give valid structured JSON', async () => {
    const entries = await service.send({
      requestId: nextRequestId(),
      transcriptId,
      question: 'Claims?',
      format: 'claims',
      maxTokens: 3,
    });
    const answer = answerOf(entries);
    expect(answer.structured).toBeUndefined();
    expect(answer.problem).toMatch(/not answer in the form|missing part/);
    expect(answer.problem).toContain('choose another model');
  });

  it('stops mid-stream and keeps what had arrived', async () => {
    const requestId = nextRequestId();
    let deltas = '';
    const following = service.events.subscribe((event) => {
      if (event.type !== 'delta') return;
      deltas += event.text;
      service.stop(requestId);
    });
    const entries = await service.send({ requestId, transcriptId, question: 'Tell me everything.' });
    following.dispose();
    const answer = answerOf(entries);
    expect(answer.status).toBe('stopped');
    expect(answer.text).toBe(deltas);
    expect(deltas.length).toBeGreaterThan(0);
    expect(service.stop(requestId)).toBe(false);
  });

  it('records a failure inside the stream as a failed answer with its reason', async () => {
    const entries = await service.send({
      requestId: nextRequestId(),
      transcriptId,
      question: 'Hello',
      model: 'gpt-5-flaky',
    });
    const answer = answerOf(entries);
    expect(answer.status).toBe('failed');
    expect(answer.problem).toContain('part-way');
    expect(answer.text.length).toBeGreaterThan(0);
  });

  it('refuses a transcript that is not in the library or not finished', async () => {
    await expect(
      service.send({ requestId: nextRequestId(), transcriptId: 'nope', question: 'Hi' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    const pending = await core.library.createJob({
      id: 'pending-one',
      title: 'Pending',
      sourceKind: 'file',
      source: '/x.wav',
      audioPath: null,
      region: 'us',
      options: {},
      status: 'queued',
    });
    await expect(
      service.send({ requestId: nextRequestId(), transcriptId: pending.id, question: 'Hi' }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
  });
});
