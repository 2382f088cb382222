import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CorrectionState, EditResult } from '../../../shared/corrections/corrections';
import { VerbatimError } from '../../../shared/errors';
import type { TranscriptDetail, TranscriptOpening } from '../../../shared/ipc/contract';
import type { Segment } from '../../../shared/library';
import { sentenceFrom } from '../../../shared/corrections/sentence-changes';

const opening = vi.fn<(input: { id: string; sentences: number }) => Promise<TranscriptOpening>>();
const get = vi.fn<(input: { id: string }) => Promise<TranscriptDetail>>();
const edit = vi.fn<(input: unknown) => Promise<EditResult>>();
const write = vi.fn(() => Promise.resolve(undefined));
vi.mock('../lib/api', () => ({
  api: { transcripts: { opening, get }, corrections: { edit }, log: { write }, on: () => () => {} },
}));

const { TranscriptStore, openingSentences } = await import('./transcript.svelte');

const state: CorrectionState = { revision: 0, undo: null, redo: null, applied: 0, checks: [] };

function sentence(position: number, text: string): Segment {
  const words = text.split(' ').map((word, i) => ({
    text: word,
    start: position * 5000 + i * 400,
    end: position * 5000 + i * 400 + 300,
    confidence: 0.9,
    speaker: 'A',
  }));
  return { position, ...sentenceFrom(words, 'A') };
}

/** A transcript of `count` sentences, as main answers `transcripts.get`. */
function detailOf(count: number): TranscriptDetail {
  return {
    summary: { id: 't1', status: 'completed' } as TranscriptDetail['summary'],
    sentences: Array.from({ length: count }, (_, i) => sentence(i, `Sentence number ${i} here.`)),
    paragraphs: [],
    transcript: null,
    corrections: state,
  };
}

beforeEach(() => {
  vi.clearAllMocks();
});

describe('opening a transcript in the reader', () => {
  it('opens a short transcript with one request: the opening brings it whole', async () => {
    const detail = detailOf(3);
    opening.mockResolvedValue({ ...detail, complete: true });
    const store = new TranscriptStore('t1');
    await store.open();
    expect(opening).toHaveBeenCalledTimes(1);
    expect(get).not.toHaveBeenCalled();
    expect(store.detail).toEqual(detail);
    expect(store.model?.turns.map((turn) => turn.text)).toEqual([
      detail.sentences.map((s) => s.text).join(' '),
    ]);
    expect(store.opening).toBeUndefined();
  });

  it('paints a long transcript’s first sentences, then asks for the whole', async () => {
    const detail = detailOf(openingSentences + 5);
    opening.mockResolvedValue({
      summary: detail.summary,
      sentences: detail.sentences.slice(0, openingSentences),
      paragraphs: [],
      complete: false,
    });
    get.mockResolvedValue(detail);
    const store = new TranscriptStore('t1');
    await store.open();
    expect(opening).toHaveBeenCalledTimes(1);
    expect(get).toHaveBeenCalledTimes(1);
    expect(store.detail).toBe(detail);
  });

  it('reloads after a correction conflict without asking for an opening it would never show', async () => {
    const detail = detailOf(3);
    opening.mockResolvedValue({ ...detail, complete: true });
    get.mockResolvedValue(detail);
    const store = new TranscriptStore('t1');
    await store.open();
    edit.mockRejectedValue(new VerbatimError('conflict', 'changed elsewhere'));
    const turn = store.corrections.startEditing(store.model!.turns[0]!)!;
    expect(await store.corrections.finishEditing(turn, 'Sentence number zero here.')).toBe(false);
    expect(get).toHaveBeenCalledTimes(1);
    expect(opening).toHaveBeenCalledTimes(1);
  });
});
