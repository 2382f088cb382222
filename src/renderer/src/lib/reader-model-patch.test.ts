import { describe, expect, it } from 'vitest';
import type { EditIntent } from '../../../shared/corrections/corrections';
import { planEdit, type PlanContext } from '../../../shared/corrections/edit-plan';
import { applyStep, sentenceFrom } from '../../../shared/corrections/sentence-changes';
import type { Segment } from '../../../shared/library';
import { buildModel, patchModel } from './reader-model';

/** A small deterministic random source, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 4294967296;
    return state / 4294967296;
  };
}

function transcript(next: () => number, count: number): Segment[] {
  const sentences: Segment[] = [];
  let at = 0;
  for (let position = 0; position < count; position++) {
    const speaker =
      next() < 0.35 ? (sentences.at(-1)?.speaker === 'A' ? 'B' : 'A') : (sentences.at(-1)?.speaker ?? 'A');
    const length = next() < 0.1 ? 0 : 1 + Math.floor(next() * 6);
    const words = Array.from({ length }, (_, i) => ({
      text: `w${position}-${i}`,
      start: at + i * 300,
      end: at + i * 300 + 250,
      confidence: 0.9,
      speaker,
    }));
    sentences.push({ position, ...sentenceFrom(words, speaker) });
    at += 2000;
  }
  return sentences;
}

const context: PlanContext = {
  paragraphs: () => [],
  machineSentences: () => [],
  speakerLabel: (choice) => ('label' in choice ? choice.label : 'C'),
  speakerName: (label) => label,
};

function randomIntent(next: () => number, sentences: Segment[]): EditIntent {
  const pick = (n: number) => Math.floor(next() * n);
  const from = pick(sentences.length);
  const count = 1 + pick(Math.min(3, sentences.length - from));
  const words = sentences.slice(from, from + count).flatMap((s) => s.words.map((w) => w.text));
  switch (pick(5)) {
    case 0:
      return { kind: 'text', from, count, text: words.filter(() => next() < 0.7).join(' ') };
    case 1:
      return { kind: 'text', from, count, text: [...words, 'added', 'words'].join(' ') };
    case 2:
      return { kind: 'speaker', from, count, speaker: { label: next() < 0.5 ? 'A' : 'B' } };
    case 3: {
      const sentence = sentences[from] as Segment;
      return {
        kind: 'split',
        position: from,
        word: pick(Math.max(1, sentence.words.length)),
        speaker: { newName: 'New' },
      };
    }
    default:
      return from > 0 ? { kind: 'merge', position: from } : { kind: 'text', from, count, text: '' };
  }
}

describe('patching the reader model after an edit', () => {
  it('gives exactly the model a full rebuild gives, over 400 random edits of every kind', () => {
    const next = random(19);
    let sentences = transcript(next, 60);
    let model = buildModel(sentences, []);
    for (let round = 0; round < 400 && sentences.length > 0; round++) {
      const intent = randomIntent(next, sentences);
      let step;
      try {
        step = planEdit(sentences, intent, context).step;
      } catch {
        continue; // a split at a word a sentence no longer has: nothing to patch
      }
      for (const change of step) {
        sentences = applyStep(sentences, [change]);
        model = patchModel(model, sentences, [], {
          position: change.position,
          removed: change.removed.length,
          inserted: change.inserted.length,
        });
        expect(model, `round ${round}: ${JSON.stringify(intent)}`).toEqual(buildModel(sentences, []));
      }
      if (sentences.length < 5) {
        sentences = transcript(next, 60);
        model = buildModel(sentences, []);
      }
    }
  });

  it('reuses the turns an edit did not reach when nothing moved', () => {
    const sentences = transcript(random(3), 40);
    const model = buildModel(sentences, []);
    const target = sentences.findIndex((s) => s.words.length > 0);
    const words = (sentences[target] as Segment).words.map((w, i) => (i === 0 ? 'changed' : w.text));
    const step = planEdit(
      sentences,
      { kind: 'text', from: target, count: 1, text: words.join(' ') },
      context,
    ).step;
    const after = applyStep(sentences, step);
    const patched = patchModel(model, after, [], { position: target, removed: 1, inserted: 1 });
    const touched = model.turnOf[0] ?? 0;
    expect(patched.turns.at(-1)).toBe(model.turns.at(-1));
    expect(patched.turns[touched]).not.toBe(model.turns[touched]);
    // A word retyped in place moves no word: the word arrays are the model's own, not copies.
    expect(patched.starts).toBe(model.starts);
    expect(patched.turnOf).toBe(model.turnOf);

    // A word added moves every word after it: fresh arrays, and the old model keeps its own.
    const startsBefore = Array.from(model.starts);
    const longer = planEdit(
      sentences,
      { kind: 'text', from: target, count: 1, text: `${words.join(' ')} more` },
      context,
    ).step;
    const grown = patchModel(model, applyStep(sentences, longer), [], {
      position: target,
      removed: 1,
      inserted: 1,
    });
    expect(grown.starts).not.toBe(model.starts);
    expect(grown.starts.length).toBe(model.starts.length + 1);
    expect(Array.from(model.starts)).toEqual(startsBefore);
  });
});
