import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { defaultAskTemplates, type AskEntry, type AskTemplate } from '../../shared/ask';
import { startIpcTestbed, type IpcTestbed } from './ipc-testbed.test-kit';

const statement = resolve(import.meta.dirname, '../../../test/fixtures/press-statement.wav');
let testbed: IpcTestbed;

beforeAll(async () => {
  testbed = await startIpcTestbed(300);
});
afterAll(() => testbed.close());

describe('Ask over IPC', () => {
  it('streams an answer as events keyed by the request id, then lists and clears the conversation', async () => {
    const job = await testbed.services.core.scheduler.submit({
      source: { kind: 'file', path: statement },
      options: {},
      region: 'us',
    });
    await testbed.services.core.scheduler.idle();
    const { entries } = await testbed.call<{ entries: AskEntry[] }>('ask.send', {
      requestId: 'renderer-request-1',
      transcriptId: job.id,
      question: 'What was announced?',
      model: 'gpt-5',
      temperature: 0.4,
      maxTokens: 400,
    });
    const mine = testbed.events.filter(
      (e) => (e.payload as { requestId?: string }).requestId === 'renderer-request-1',
    );
    const names = mine.map((e) => e.event);
    expect(names.filter((name) => name === 'ask.delta').length).toBeGreaterThan(1);
    expect(names.filter((name) => name === 'ask.entry')).toHaveLength(2);
    expect(names.at(-1)).toBe('ask.done');
    expect(entries.at(-1)).toMatchObject({ kind: 'answer', status: 'complete', model: 'gpt-5' });

    const listed = await testbed.call<{ entries: AskEntry[] }>('ask.conversation', { transcriptId: job.id });
    expect(listed.entries).toEqual(entries);
    expect(await testbed.call('ask.stop', { requestId: 'renderer-request-1' })).toEqual({ stopped: false });
    expect(await testbed.call('ask.clear', { transcriptId: job.id })).toEqual({ removed: 2 });
  });

  it('checks a question before asking, with messages a journalist understands', async () => {
    const base = { requestId: 'renderer-request-2', transcriptId: 'x', question: 'Hi' };
    for (const [change, words] of [
      [{ question: '  ' }, 'Write a question'],
      [{ temperature: 3 }, 'Temperature goes from 0 to 2'],
      [{ maxTokens: 0 }, 'at least 1 token'],
      [{ format: 'json' }, 'format'],
    ] as const) {
      const result = await testbed.dispatch('ask.send', { ...base, ...change });
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      expect(JSON.stringify(result)).toContain(words);
    }
  });

  it('gives the shipped ready-made asks and saves edited ones in the settings', async () => {
    const { templates } = await testbed.call<{ templates: AskTemplate[] }>('ask.templates');
    expect(templates).toEqual(defaultAskTemplates);
    expect(templates.map((t) => t.format)).toEqual(['text', 'quotes', 'claims', 'headlines', 'questions']);
    const edited = [
      { ...templates[0]!, prompt: 'Three sentences for the night editor.' },
      ...templates.slice(1),
    ];
    const saved = await testbed.call<{ templates: AskTemplate[] }>('ask.saveTemplates', {
      templates: edited,
    });
    expect(saved.templates[0]?.prompt).toBe('Three sentences for the night editor.');
    expect((await testbed.services.settings.get()).askTemplates[0]?.prompt).toBe(
      'Three sentences for the night editor.',
    );
    const duplicate = await testbed.dispatch('ask.saveTemplates', {
      templates: [templates[0], templates[0]],
    });
    expect(duplicate).toMatchObject({ ok: false });
  });
});
