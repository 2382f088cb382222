import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../test/emulator/server';
import { MemorySecrets } from '../core/secrets/secret-store';
import { composeServices } from '../compose';
import { acceleratedClock } from '../core/clock';
import { createDispatcher } from './dispatcher';
import { createHandlers } from './handlers';
import { wireEvents } from './events';
import { unwrap } from '../../shared/ipc/envelope';
import type { EventName } from '../../shared/ipc/contract';
import { defaultAskTemplates, type AskEntry, type AskTemplate } from '../../shared/ask';

const speed = 300;
const statement = resolve(import.meta.dirname, '../../../test/fixtures/press-statement.wav');
let emulator: RunningEmulator;
let services: ReturnType<typeof composeServices>;
let dispatch: ReturnType<typeof createDispatcher>;
const events: { event: EventName; payload: unknown }[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, speed });
  services = composeServices({
    dataDir: mkdtempSync(join(tmpdir(), 'verbatim-ask-ipc-')),
    appInfo: { name: 'Verbatim', version: '0', platform: 'linux' },
    secrets: new MemorySecrets({ transcriptionKey: emulator.options.key }),
    transcriptionUrlOverride: emulator.url,
    gatewayUrlOverride: emulator.url,
    clock: acceleratedClock(speed),
  });
  dispatch = createDispatcher(createHandlers(services));
  wireEvents(services, (event, payload) => events.push({ event, payload }));
});
afterAll(async () => {
  await services.close();
  await emulator.close();
});

async function call<T>(method: string, input?: unknown): Promise<T> {
  return unwrap(await dispatch(method, input)) as T;
}

describe('Ask over IPC', () => {
  it('streams an answer as events keyed by the request id, then lists and clears the conversation', async () => {
    const job = await services.core.scheduler.submit({
      source: { kind: 'file', path: statement },
      options: {},
      region: 'us',
    });
    await services.core.scheduler.idle();
    const { entries } = await call<{ entries: AskEntry[] }>('ask.send', {
      requestId: 'renderer-request-1',
      transcriptId: job.id,
      question: 'What was announced?',
      model: 'gpt-5',
      temperature: 0.4,
      maxTokens: 400,
    });
    const mine = events.filter(
      (e) => (e.payload as { requestId?: string }).requestId === 'renderer-request-1',
    );
    const names = mine.map((e) => e.event);
    expect(names.filter((name) => name === 'ask.delta').length).toBeGreaterThan(1);
    expect(names.filter((name) => name === 'ask.entry')).toHaveLength(2);
    expect(names.at(-1)).toBe('ask.done');
    expect(entries.at(-1)).toMatchObject({ kind: 'answer', status: 'complete', model: 'gpt-5' });

    const listed = await call<{ entries: AskEntry[] }>('ask.conversation', { transcriptId: job.id });
    expect(listed.entries).toEqual(entries);
    expect(await call('ask.stop', { requestId: 'renderer-request-1' })).toEqual({ stopped: false });
    expect(await call('ask.clear', { transcriptId: job.id })).toEqual({ removed: 2 });
  });

  it('checks a question before asking, with messages a journalist understands', async () => {
    const base = { requestId: 'renderer-request-2', transcriptId: 'x', question: 'Hi' };
    for (const [change, words] of [
      [{ question: '  ' }, 'Write a question'],
      [{ temperature: 3 }, 'Temperature goes from 0 to 2'],
      [{ maxTokens: 0 }, 'at least 1 token'],
      [{ format: 'json' }, 'format'],
    ] as const) {
      const result = await dispatch('ask.send', { ...base, ...change });
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      expect(JSON.stringify(result)).toContain(words);
    }
  });

  it('gives the shipped ready-made asks and saves edited ones in the settings', async () => {
    const { templates } = await call<{ templates: AskTemplate[] }>('ask.templates');
    expect(templates).toEqual(defaultAskTemplates);
    expect(templates.map((t) => t.format)).toEqual(['text', 'quotes', 'claims', 'headlines', 'questions']);
    const edited = [
      { ...templates[0]!, prompt: 'Three sentences for the night editor.' },
      ...templates.slice(1),
    ];
    const saved = await call<{ templates: AskTemplate[] }>('ask.saveTemplates', { templates: edited });
    expect(saved.templates[0]?.prompt).toBe('Three sentences for the night editor.');
    expect((await services.settings.get()).askTemplates[0]?.prompt).toBe(
      'Three sentences for the night editor.',
    );
    const duplicate = await dispatch('ask.saveTemplates', { templates: [templates[0], templates[0]] });
    expect(duplicate).toMatchObject({ ok: false });
  });
});
