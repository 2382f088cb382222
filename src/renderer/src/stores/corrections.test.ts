import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CorrectionState, EditResult } from '../../../shared/corrections/corrections';
import { VerbatimError } from '../../../shared/errors';
import type { TranscriptDetail } from '../../../shared/ipc/contract';
import type { Segment } from '../../../shared/library';
import { planEdit } from '../../../shared/corrections/edit-plan';
import { invertSteps, sentenceFrom } from '../../../shared/corrections/sentence-changes';

type EditCall = {
  id: string;
  intent: { kind: string; text?: string };
  expectedRevision?: number;
  continues?: number;
};
const edit = vi.fn<(input: EditCall) => Promise<EditResult>>();
const undo = vi.fn<(input: { id: string }) => Promise<EditResult>>();
const write = vi.fn(() => Promise.resolve(undefined));
vi.mock('../lib/api', () => ({ api: { corrections: { edit, undo }, log: { write } } }));

const { Corrections } = await import('./corrections.svelte');
const { buildModel } = await import('../lib/reader-model');

const state = (revision: number): CorrectionState => ({
  revision,
  undo: null,
  redo: null,
  applied: revision,
  checks: [],
});

function sentence(position: number, text: string, speaker: string): Segment {
  const words = text.split(' ').map((word, i) => ({
    text: word,
    start: position * 5000 + i * 400,
    end: position * 5000 + i * 400 + 300,
    confidence: 0.5,
    speaker,
  }));
  return { position, ...sentenceFrom(words, speaker) };
}

/** An open transcript as the TranscriptStore holds it, with a load that counts its calls. */
function openTranscript() {
  const sentences = [
    sentence(0, 'Mayor Brenan spoke first.', 'A'),
    sentence(1, 'Then the harbour master.', 'B'),
    sentence(2, 'Thank you both.', 'A'),
  ];
  const detail = {
    summary: {} as TranscriptDetail['summary'],
    sentences,
    paragraphs: [],
    transcript: null,
    corrections: state(0),
  } satisfies TranscriptDetail;
  const host = {
    id: 't1',
    detail: detail as TranscriptDetail | undefined,
    model: buildModel(sentences, []) as ReturnType<typeof buildModel> | undefined,
    notice: '',
    error: undefined as unknown,
    loads: 0,
    load(): Promise<void> {
      host.loads++;
      return Promise.resolve();
    },
  };
  const corrections = new Corrections(host as never);
  corrections.loaded(detail);
  return { host, corrections };
}

/** Main's answer to a text edit, planned by the same pure planner main uses. */
function answerAsMain(sentences: Segment[], call: EditCall, revision: number): EditResult {
  const intent = call.intent as { kind: 'text'; from: number; count: number; text: string };
  const noSpeakers = () => {
    throw new Error('not a speaker edit');
  };
  const step = planEdit(sentences, intent, {
    paragraphs: () => [],
    machineSentences: () => [],
    speakerLabel: noSpeakers,
    speakerName: (label) => label,
  }).step;
  return { editId: 7, steps: [step], replaced: 0, state: state(revision) };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

beforeEach(() => {
  edit.mockReset();
  undo.mockReset();
});

/**
 * The same value with every object's keys in reverse order: main's answers come through its
 * schemas and the library, which leave the keys of words and sentences in their own order.
 */
function reversedKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(reversedKeys) as T;
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, item]) => [key, reversedKeys(item as unknown)]),
  ) as T;
}

describe('leaving a corrected turn', () => {
  it('shows the corrected words before main answers, and main’s matching answer changes nothing more', async () => {
    const { host, corrections } = openTranscript();
    const before = host.detail!.sentences;
    const answer = deferred<EditResult>();
    edit.mockImplementation(() => answer.promise);
    const turn = corrections.startEditing(host.model!.turns[0]!)!;
    const finished = corrections.finishEditing(turn, 'Mayor Brennan spoke first.');

    expect(host.model!.turns[0]!.text).toBe('Mayor Brennan spoke first.');
    expect(corrections.editing).toBeUndefined();
    await vi.waitFor(() => expect(edit).toHaveBeenCalledTimes(1));
    const shownModel = host.model;
    answer.resolve(reversedKeys(answerAsMain(before, edit.mock.calls[0]![0], 1)));
    expect(await finished).toBe(true);
    expect(host.model).toBe(shownModel);
    expect(host.detail!.corrections.revision).toBe(1);
    expect(turn.editId).toBe(7);
    expect(host.notice).toContain('Correction saved');
  });

  it('puts the words back and reopens the typing when main refuses it', async () => {
    const { host, corrections } = openTranscript();
    const before = host.model;
    edit.mockRejectedValue(new VerbatimError('storage', 'The disk is full.'));
    const turn = corrections.startEditing(host.model!.turns[0]!)!;
    expect(await corrections.finishEditing(turn, 'Mayor Brennan spoke first.')).toBe(false);
    expect(host.model).toBe(before);
    expect(host.model!.turns[0]!.text).toBe('Mayor Brenan spoke first.');
    expect(corrections.editing).toBe(turn);
    expect(turn.draft).toBe('Mayor Brennan spoke first.');
    expect(turn.failure).toMatch(/^Not saved: The disk is full\. What you typed is still here/);
  });

  it('takes main’s words when they differ from what was shown', async () => {
    const { host, corrections } = openTranscript();
    const before = host.detail!.sentences;
    edit.mockImplementation((call) =>
      Promise.resolve(
        answerAsMain(
          before,
          { ...call, intent: { ...call.intent, text: 'Mayor Brennan spoke at last.' } },
          1,
        ),
      ),
    );
    const turn = corrections.startEditing(host.model!.turns[0]!)!;
    expect(await corrections.finishEditing(turn, 'Mayor Brennan spoke first.')).toBe(true);
    expect(host.model!.turns[0]!.text).toBe('Mayor Brennan spoke at last.');
    expect(host.detail!.sentences[0]!.text).toBe('Mayor Brennan spoke at last.');
  });

  it('reloads on a conflict and keeps what was typed, saying so', async () => {
    const { host, corrections } = openTranscript();
    edit.mockRejectedValue(new VerbatimError('conflict', 'changed elsewhere'));
    const turn = corrections.startEditing(host.model!.turns[0]!)!;
    expect(await corrections.finishEditing(turn, 'Mayor Brennan spoke first.')).toBe(false);
    expect(host.loads).toBe(1);
    expect(corrections.editing).toBe(turn);
    expect(turn.failure).toMatch(/changed somewhere else, so it was reloaded\. What you typed is still here/);
  });

  it('sends edits one at a time, each against the revision the one before it left', async () => {
    const { host, corrections } = openTranscript();
    const first = deferred<EditResult>();
    edit.mockImplementationOnce(() => first.promise);
    const turn = corrections.startEditing(host.model!.turns[0]!)!;
    const autosave = corrections.commitText(turn, 'Mayor Brennan spoke first.');
    const replace = corrections.run({
      kind: 'replace',
      find: 'harbour',
      replacement: 'Harbour',
      wholeWord: true,
      matchCase: true,
    });
    await Promise.resolve();
    expect(edit).toHaveBeenCalledTimes(1);
    edit.mockResolvedValueOnce({ editId: 8, steps: [], replaced: 1, state: state(2) });
    first.resolve(answerAsMain(host.detail!.sentences, edit.mock.calls[0]![0], 1));
    await autosave;
    await replace;
    expect(edit.mock.calls.map((call) => call[0].expectedRevision)).toEqual([0, 1]);
  });

  it('does not paint ahead while another edit is on its way', async () => {
    const { host, corrections } = openTranscript();
    const first = deferred<EditResult>();
    edit.mockImplementationOnce(() => first.promise);
    const turn = corrections.startEditing(host.model!.turns[0]!)!;
    void corrections.commitText(turn, 'Mayor Bren spoke first.');
    const finished = corrections.finishEditing(turn, 'Mayor Brennan spoke first.');
    expect(host.model!.turns[0]!.text).toBe('Mayor Brenan spoke first.');
    await vi.waitFor(() => expect(edit).toHaveBeenCalledTimes(1));
    const afterFirst = answerAsMain(host.detail!.sentences, edit.mock.calls[0]![0], 1);
    edit.mockImplementationOnce((call) => {
      expect(call.continues).toBe(7);
      return Promise.resolve(answerAsMain(host.detail!.sentences, call, 2));
    });
    first.resolve(afterFirst);
    expect(await finished).toBe(true);
    expect(host.model!.turns[0]!.text).toBe('Mayor Brennan spoke first.');
  });
});

describe('undoing a corrected turn', () => {
  /** A turn corrected in one commit that main stored as painted: what Ctrl+Z then undoes. */
  async function corrected() {
    const opened = openTranscript();
    const { host, corrections } = opened;
    const original = host.model;
    const before = host.detail!.sentences;
    const stored = deferred<EditResult>();
    edit.mockImplementation((call) => {
      const answer = answerAsMain(before, call, 1);
      stored.resolve(answer);
      return Promise.resolve(
        reversedKeys({ ...answer, state: { ...answer.state, undo: 'Correction in turn 1' } }),
      );
    });
    const turn = corrections.startEditing(host.model!.turns[0]!)!;
    expect(await corrections.finishEditing(turn, 'Mayor Brennan spoke first.')).toBe(true);
    expect(host.model!.turns[0]!.text).toBe('Mayor Brennan spoke first.');
    return { ...opened, original, storedStep: (await stored.promise).steps };
  }

  it('paints the words as they were before main answers, and main’s matching answer changes nothing more', async () => {
    const { host, corrections, original, storedStep } = await corrected();
    const answer = deferred<EditResult>();
    undo.mockImplementation(() => answer.promise);
    const undone = corrections.undo();
    await vi.waitFor(() => expect(undo).toHaveBeenCalledTimes(1));
    expect(host.model).toBe(original);
    expect(host.detail!.sentences[0]!.text).toBe('Mayor Brenan spoke first.');
    answer.resolve({ editId: null, steps: invertSteps(storedStep), replaced: 0, state: state(2) });
    expect(await undone).toBe(true);
    expect(host.model).toBe(original);
    expect(host.detail!.corrections.revision).toBe(2);
    expect(host.notice).toBe('Undone: Correction in turn 1');
  });

  it('keeps its painted undo when main’s matching answer has its keys in another order, as main’s schema leaves them', async () => {
    const { host, corrections, original, storedStep } = await corrected();
    const steps = reversedKeys(invertSteps(storedStep));
    expect(JSON.stringify(steps)).not.toBe(JSON.stringify(invertSteps(storedStep)));
    undo.mockImplementation(() => Promise.resolve({ editId: null, steps, replaced: 0, state: state(2) }));
    expect(await corrections.undo()).toBe(true);
    // The painted model stays: nothing was taken back and painted again.
    expect(host.model).toBe(original);
    expect(host.detail!.corrections.revision).toBe(2);
  });

  it('takes main’s answer when main undid something else', async () => {
    const { host, corrections } = await corrected();
    const before = host.detail!.sentences;
    undo.mockImplementation(() =>
      Promise.resolve(
        answerAsMain(
          before,
          {
            id: 't1',
            intent: { kind: 'text', from: 2, count: 1, text: 'Thank you all.' } as EditCall['intent'],
          },
          2,
        ),
      ),
    );
    expect(await corrections.undo()).toBe(true);
    expect(host.model!.turns.map((turn) => turn.text)).toEqual([
      'Mayor Brennan spoke first.',
      'Then the harbour master.',
      'Thank you all.',
    ]);
  });

  it('puts the corrected words back when the undo fails, and says why', async () => {
    const { host, corrections } = await corrected();
    const correctedModel = host.model;
    undo.mockRejectedValue(new VerbatimError('storage', 'The disk is full.'));
    expect(await corrections.undo()).toBe(false);
    expect(host.model).toBe(correctedModel);
    expect(host.detail!.sentences[0]!.text).toBe('Mayor Brennan spoke first.');
    expect(host.error).toBeDefined();
  });

  it('waits for main when the edit was more than one commit (typing saved on the way)', async () => {
    const { host, corrections } = openTranscript();
    edit.mockImplementation((call) =>
      Promise.resolve({
        ...answerAsMain(host.detail!.sentences, call, (call.expectedRevision ?? 0) + 1),
        state: { ...state((call.expectedRevision ?? 0) + 1), undo: 'Correction in turn 1' },
      }),
    );
    const turn = corrections.startEditing(host.model!.turns[0]!)!;
    expect(await corrections.commitText(turn, 'Mayor Bren spoke first.')).toBe(true);
    expect(await corrections.finishEditing(turn, 'Mayor Brennan spoke first.')).toBe(true);
    const answer = deferred<EditResult>();
    undo.mockImplementation(() => answer.promise);
    const correctedModel = host.model;
    const undone = corrections.undo();
    await vi.waitFor(() => expect(undo).toHaveBeenCalledTimes(1));
    expect(host.model).toBe(correctedModel);
    answer.reject(new VerbatimError('storage', 'The disk is full.'));
    expect(await undone).toBe(false);
  });
});
