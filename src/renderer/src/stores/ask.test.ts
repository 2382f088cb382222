import { describe, expect, it, vi } from 'vitest';
import type { AskEntry } from '../../../shared/ask';

type Listener = (payload: never) => void;
const listeners = new Map<string, Set<Listener>>();
let finishSend: (() => void) | undefined;
const send = vi.fn(
  (_input: { requestId: string; transcriptId: string; question: string; stream: boolean }) =>
    new Promise<{ entries: AskEntry[] }>((resolve) => {
      finishSend = () => resolve({ entries: [] });
    }),
);
const stop = vi.fn(() => Promise.resolve({ stopped: true }));

vi.mock('../lib/api', () => ({
  api: {
    ask: {
      send,
      stop,
      conversation: () => Promise.resolve({ entries: [] }),
      templates: () => Promise.resolve({ templates: [] }),
    },
    on: (event: string, listener: Listener) => {
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
      return () => set.delete(listener);
    },
  },
}));

const { AskStore } = await import('./ask.svelte');

function fire(event: string, payload: unknown): void {
  for (const listener of listeners.get(event) ?? []) listener(payload as never);
}

const answer = (id: string): AskEntry => ({
  kind: 'answer',
  id,
  at: 2,
  status: 'complete',
  text: 'Hello there.',
  format: 'text',
  requestedModel: 'm',
  model: 'm',
  usage: null,
  responseTimeMs: 5,
  requestId: null,
});

describe('the Ask store', () => {
  it('shows the deltas of its own request as they arrive, then the saved answer in their place', async () => {
    const store = new AskStore('t1');
    const unlisten = store.listen();
    const asking = store.ask('What happened?');
    const { requestId } = send.mock.calls[0]![0];
    expect(send.mock.calls[0]![0]).toMatchObject({
      transcriptId: 't1',
      question: 'What happened?',
      stream: true,
    });
    expect(store.busy).toBe(true);

    fire('ask.delta', { requestId, transcriptId: 't1', text: 'Hello ' });
    fire('ask.delta', { requestId: 'someone-else', transcriptId: 't1', text: 'noise' });
    fire('ask.delta', { requestId, transcriptId: 't1', text: 'there.' });
    expect(store.streaming?.text).toBe('Hello there.');

    await store.stop();
    expect(stop).toHaveBeenCalledWith({ requestId });

    fire('ask.entry', { requestId, transcriptId: 'other', entry: answer('elsewhere') });
    fire('ask.entry', { requestId, transcriptId: 't1', entry: answer('a1') });
    fire('ask.entry', { requestId, transcriptId: 't1', entry: answer('a1') });
    expect(store.entries.map((entry) => entry.id)).toEqual(['a1']);
    expect(store.streaming).toBeUndefined();
    finishSend?.();
    await asking;
    expect(store.busy).toBe(false);
    unlisten();
    expect([...(listeners.get('ask.delta') ?? [])]).toHaveLength(0);
  });
});
