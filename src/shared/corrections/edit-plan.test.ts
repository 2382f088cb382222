import { describe, expect, it } from 'vitest';
import type { Segment, Word } from '../library';
import { alignWords, tokenize } from './align-words';
import type { EditIntent } from './corrections';
import { planEdit, retype, type PlanContext } from './edit-plan';
import { applyStep, contentOf, invertSteps, sentenceFrom } from './sentence-changes';

function words(spec: string, start = 0, speaker = 'A'): Word[] {
  // "word@start-end" or plain words 500 ms apart.
  return spec.split(' ').map((text, i) => ({
    text,
    start: start + i * 500,
    end: start + i * 500 + 400,
    confidence: 0.9,
    speaker,
  }));
}

function sentence(position: number, text: string, start: number, speaker = 'A'): Segment {
  return { position, ...sentenceFrom(words(text, start, speaker), speaker) };
}

const context: PlanContext = {
  paragraphs: () => [
    { startMs: 0, endMs: 4000 },
    { startMs: 5000, endMs: 9000 },
  ],
  machineSentences: () => transcript,
  speakerLabel: (choice) => ('label' in choice ? choice.label : 'C'),
  speakerName: (label) => `Speaker ${label}`,
};

const transcript: Segment[] = [
  sentence(0, 'Mayor Brenan said hello.', 0),
  sentence(1, 'The ferry is late.', 2000),
  sentence(2, 'We will see.', 5000, 'B'),
  sentence(3, 'Thank you.', 7000, 'B'),
];

const place = (list: Word[], sentenceIndex = 0) => list.map((word) => ({ word, sentence: sentenceIndex }));

describe('aligning corrected text to the words it replaces', () => {
  it('keeps unchanged words and gives a replaced word the time of the word it replaced, at confidence 1', () => {
    const original = words('Mayor Brenan said hello.');
    const aligned = alignWords(place(original), 'Mayor Brennan said hello.', {
      startMs: 0,
      endMs: 0,
      sentence: 0,
    });
    expect(aligned.map((a) => a.word.text)).toEqual(['Mayor', 'Brennan', 'said', 'hello.']);
    expect(aligned[0]?.word).toBe(original[0]);
    expect(aligned[2]?.word).toBe(original[2]);
    expect(aligned[1]?.word).toMatchObject({
      start: 500,
      end: 900,
      confidence: 1,
      corrected: true,
      speaker: 'A',
    });
  });

  it('splits a replaced run across the new words in proportion to their length', () => {
    const original = words('the harbourboard met'); // "harbourboard" spans 500..900
    const aligned = alignWords(place(original), 'the harbour board met', {
      startMs: 0,
      endMs: 0,
      sentence: 0,
    });
    const [, first, second] = aligned.map((a) => a.word);
    // 7 letters and 5 letters share 400 ms.
    expect(first).toMatchObject({ text: 'harbour', start: 500, end: 733 });
    expect(second).toMatchObject({ text: 'board', start: 733, end: 900 });
  });

  it('matches a run replaced by as many words word for word', () => {
    const original = words('the harbour bored met');
    const aligned = alignWords(place(original), 'the Harbour Board met', {
      startMs: 0,
      endMs: 0,
      sentence: 0,
    });
    expect(aligned.map((a) => [a.word.text, a.word.start, a.word.end])).toEqual([
      ['the', 0, 400],
      ['Harbour', 500, 900],
      ['Board', 1000, 1400],
      ['met', 1500, 1900],
    ]);
  });

  it('puts inserted words in the gap between their neighbours and drops deleted ones', () => {
    const original = words('we met the mayor'); // "we" ends at 400, "met" starts at 500
    const inserted = alignWords(place(original), 'we all met the mayor', {
      startMs: 0,
      endMs: 0,
      sentence: 0,
    });
    expect(inserted[1]?.word).toMatchObject({ text: 'all', start: 400, end: 500, confidence: 1 });
    const deleted = alignWords(place(original), 'we met mayor', { startMs: 0, endMs: 0, sentence: 0 });
    expect(deleted.map((a) => a.word)).toEqual([original[0], original[1], original[3]]);
  });

  it('treats a change of punctuation or capitals as a one-word replacement with the same time', () => {
    const original = words('mayor brenan said hello');
    const aligned = alignWords(place(original), 'Mayor brenan said hello.', {
      startMs: 0,
      endMs: 0,
      sentence: 0,
    });
    expect(aligned.map((a) => [a.word.text, a.word.start, a.word.end])).toEqual([
      ['Mayor', 0, 400],
      ['brenan', 500, 900],
      ['said', 1000, 1400],
      ['hello.', 1500, 1900],
    ]);
    expect(aligned[3]?.word.corrected).toBe(true);
    expect(aligned[1]?.word.corrected).toBeUndefined();
  });

  it('returns no words when everything was deleted', () => {
    expect(alignWords(place(words('one two')), '   ', { startMs: 0, endMs: 0, sentence: 0 })).toEqual([]);
    expect(tokenize('  a\tb\nc ')).toEqual(['a', 'b', 'c']);
  });
});

describe('planning an edit', () => {
  const run = (intent: EditIntent, sentences = transcript) => {
    const plan = planEdit(sentences, intent, context);
    return { plan, after: applyStep(sentences, plan.step) };
  };

  it('retypes a turn across a sentence boundary, keeping each word in its sentence', () => {
    const { plan, after } = run({
      kind: 'text',
      from: 0,
      count: 2,
      text: 'Mayor Brennan said hello, the ferry is late.',
    });
    expect(after.map((s) => s.text)).toEqual([
      'Mayor Brennan said hello,',
      'the ferry is late.',
      'We will see.',
      'Thank you.',
    ]);
    expect(after[1]?.startMs).toBe(2000);
    expect(plan.summary).toBe('Changed “Brenan said hello. The” to “Brennan said hello, the”');
    // Only the sentences that changed are rewritten.
    expect(plan.step).toHaveLength(1);
    expect(plan.step[0]?.removed).toHaveLength(2);
  });

  it('rewrites only the sentence that changed inside a long turn', () => {
    const { plan } = run({
      kind: 'text',
      from: 0,
      count: 2,
      text: 'Mayor Brenan said hello. The ferry was late.',
    });
    expect(plan.step[0]?.position).toBe(1);
    expect(plan.step[0]?.removed.map((s) => s.text)).toEqual(['The ferry is late.']);
  });

  it('gives a paragraph retyped from scratch the time span of the words it replaced', () => {
    const { after } = run({ kind: 'text', from: 2, count: 2, text: 'Completely different words here' });
    const typed = after.slice(2).flatMap((s) => s.words);
    expect(typed.map((w) => w.text)).toEqual(['Completely', 'different', 'words', 'here']);
    expect(typed[0]?.start).toBe(5000);
    expect(typed.at(-1)?.end).toBe(7900);
    expect(typed.every((w) => w.confidence === 1 && w.corrected)).toBe(true);
    for (let i = 1; i < typed.length; i++) expect(typed[i]!.start).toBeGreaterThanOrEqual(typed[i - 1]!.end);
  });

  it('removes the sentences of a turn whose text was deleted entirely', () => {
    const { after } = run({ kind: 'text', from: 2, count: 2, text: '' });
    expect(after.map((s) => [s.position, s.text])).toEqual([
      [0, 'Mayor Brenan said hello.'],
      [1, 'The ferry is late.'],
    ]);
  });

  it('reassigns sentences, splits a turn at a word and merges turns', () => {
    expect(
      run({ kind: 'speaker', from: 1, count: 1, speaker: { label: 'B' } }).after.map((s) => s.speaker),
    ).toEqual(['A', 'B', 'B', 'B']);
    const split = run({ kind: 'split', position: 2, word: 1, speaker: { newName: 'Mayor' } });
    expect(split.after.map((s) => [s.speaker, s.text])).toEqual([
      ['A', 'Mayor Brenan said hello.'],
      ['A', 'The ferry is late.'],
      ['B', 'We'],
      ['C', 'will see.'],
      ['C', 'Thank you.'],
    ]);
    expect(split.after[3]?.words.every((w) => w.speaker === 'C')).toBe(true);
    expect(run({ kind: 'merge', position: 2 }).after.map((s) => s.speaker)).toEqual(['A', 'A', 'A', 'A']);
  });

  it('replaces every occurrence, whole words only when asked, as one step', () => {
    const sentences = [
      sentence(0, 'Brenan met Brenan.', 0),
      sentence(1, 'Brenanville is far, brenan said.', 3000),
    ];
    const all = run(
      { kind: 'replace', find: 'Brenan', replacement: 'Brennan', wholeWord: true, matchCase: false },
      sentences,
    );
    expect(all.after.map((s) => s.text)).toEqual([
      'Brennan met Brennan.',
      'Brenanville is far, Brennan said.',
    ]);
    expect(all.plan.replaced).toBe(3);
    const caseSensitive = run(
      { kind: 'replace', find: 'Brenan', replacement: 'Brennan', wholeWord: false, matchCase: true },
      sentences,
    );
    expect(caseSensitive.after[1]?.text).toBe('Brennanville is far, brenan said.');
    const one = run(
      {
        kind: 'replace',
        find: 'brenan',
        replacement: 'Brennan',
        wholeWord: true,
        matchCase: false,
        at: { position: 0, occurrence: 1 },
      },
      sentences,
    );
    expect(one.after[0]?.text).toBe('Brenan met Brennan.');
    expect(one.plan.replaced).toBe(1);
  });

  it('reverts one paragraph to the machine words', () => {
    const edited = run({ kind: 'text', from: 2, count: 2, text: 'Nothing else.' }).after;
    const reverted = planEdit(edited, { kind: 'revert', paragraph: 1 }, context);
    expect(applyStep(edited, reverted.step).map(contentOf)).toEqual(transcript.map(contentOf));
    const twice = applyStep(
      edited,
      planEdit(edited, { kind: 'text', from: 0, count: 1, text: 'Hi.' }, context).step,
    );
    expect(twice[0]?.text).toBe('Hi.');
    const whole = planEdit(twice, { kind: 'revert' }, context);
    expect(whole.summary).toBe('Reverted the whole transcript to the machine transcript');
    expect(applyStep(twice, whole.step)).toEqual(transcript);
  });

  it('undoes any edit exactly', () => {
    for (const intent of [
      { kind: 'text', from: 0, count: 2, text: 'Hello there' },
      { kind: 'split', position: 0, word: 2, speaker: { label: 'B' } },
      { kind: 'replace', find: 'the', replacement: 'a', wholeWord: true, matchCase: false },
    ] satisfies EditIntent[]) {
      const { plan, after } = run(intent);
      let back = after;
      for (const step of invertSteps([plan.step])) back = applyStep(back, step);
      expect(back).toEqual(transcript);
    }
  });

  it('keeps sentence times on the words after a retype', () => {
    const [retyped] = retype([contentOf(transcript[0]!)], 'Mayor Brennan said hello.');
    expect(retyped).toMatchObject({ startMs: 0, endMs: 1900, text: 'Mayor Brennan said hello.' });
  });
});
