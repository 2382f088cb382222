import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeServices } from '../compose';
import { MemorySecrets } from '../core/secrets/secret-store';
import { createLogger, type LogRecord } from '../core/log/logger';
import type { JobRecord } from '../core/library/library';
import { createDispatcher, type Dispatch } from './dispatcher';
import { createHandlers } from './create-handlers';
import { unwrap } from '../../shared/ipc/envelope';

const id = 'interview';
const logWatchers = new Set<(record: LogRecord) => void>();
let services: ReturnType<typeof composeServices>;
let dispatch: Dispatch;

beforeAll(async () => {
  services = composeServices({
    dataDir: mkdtempSync(join(tmpdir(), 'verbatim-corrections-ipc-')),
    appInfo: { name: 'Verbatim', version: '0', platform: 'linux' },
    secrets: new MemorySecrets(),
    logger: createLogger({
      sinks: [
        {
          write: (record) => {
            for (const watch of logWatchers) watch(record);
          },
        },
      ],
    }),
  });
  dispatch = createDispatcher(createHandlers(services));
  const { library } = services.core;
  await library.createJob({
    id,
    title: 'Ferry interview',
    sourceKind: 'file',
    source: '/rec/interview.wav',
    audioPath: '/rec/interview.wav',
    region: 'us',
    options: { speaker_labels: true },
    status: 'uploading',
  });
  const text = 'The ferry contract was signed in March.';
  const words = text.split(' ').map((word, index) => ({
    text: word,
    start: index * 300,
    end: index * 300 + 250,
    confidence: 0.9,
    speaker: 'A',
  }));
  await library.saveCompleted(id, {
    transcript: { id: 'remote', text, language_code: 'en_us', audio_duration: 3 },
    sentences: [{ text, start: 0, end: 2400, confidence: 0.9, speaker: 'A', words }],
    paragraphs: [{ text, start: 0, end: 2400, confidence: 0.9, speaker: 'A', words }],
  });
});
afterAll(() => services.close());

/**
 * Dispatches `method` and records, in order, its answer and the `job.updated` announcements of
 * this transcript until one has arrived.
 */
async function answerAndAnnouncement(method: string, input: unknown) {
  const order: string[] = [];
  let answer: unknown;
  const announced = new Promise<JobRecord>((resolve) => {
    const following = services.jobUpdated.subscribe((job) => {
      if (job.id !== id) return;
      order.push('announced');
      following.dispose();
      resolve(job);
    });
  });
  await dispatch(method, input).then((envelope) => {
    order.push('answered');
    answer = unwrap(envelope);
  });
  const job = await announced;
  return { order, answer, job };
}

/** The first record logged from now on that `matches`: the log line itself, however late it comes. */
function nextLogged(matches: (record: LogRecord) => boolean): Promise<LogRecord> {
  return new Promise((resolve) => {
    const watch = (record: LogRecord): void => {
      if (!matches(record)) return;
      logWatchers.delete(watch);
      resolve(record);
    };
    logWatchers.add(watch);
  });
}

describe('the correction handlers', () => {
  it('answer an edit, undo, redo and check first, then announce the transcript to every window', async () => {
    const edited = await answerAndAnnouncement('corrections.edit', {
      id,
      intent: { kind: 'text', from: 0, count: 1, text: 'The ferry contract was signed in May.' },
    });
    expect(edited.order).toEqual(['answered', 'announced']);
    expect(edited.answer).toMatchObject({ state: { applied: 1 } });
    expect(edited.job.corrections).toBe(1);

    const undone = await answerAndAnnouncement('corrections.undo', { id });
    expect(undone.order).toEqual(['answered', 'announced']);
    expect(undone.job.corrections).toBe(0);

    const redone = await answerAndAnnouncement('corrections.redo', { id });
    expect(redone.order).toEqual(['answered', 'announced']);
    expect(redone.job.corrections).toBe(1);

    const checked = await answerAndAnnouncement('corrections.check', { id, paragraph: 0, checked: true });
    expect(checked.order).toEqual(['answered', 'announced']);
    expect(checked.job.review).toEqual({ checked: 1, paragraphs: 1 });
  });

  it('still answers an edit when announcing it fails, and logs the failure', async () => {
    const following = services.jobUpdated.subscribe(() => {
      throw new Error('a window went away mid-broadcast');
    });
    try {
      const warned = nextLogged((record) => record.level === 'warn');
      const answer = unwrap(
        await dispatch('corrections.edit', {
          id,
          intent: { kind: 'text', from: 0, count: 1, text: 'The ferry contract was signed in June.' },
        }),
      );
      expect(answer).toMatchObject({ state: { applied: 2 } });
      expect(await warned).toEqual(
        expect.objectContaining({
          level: 'warn',
          scope: expect.stringContaining('corrections') as string,
          message: expect.stringContaining('could not be announced') as string,
          details: expect.stringContaining('a window went away mid-broadcast') as string,
        }),
      );
    } finally {
      following.dispose();
    }
  });
});
