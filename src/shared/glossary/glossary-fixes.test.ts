import { describe, expect, it } from 'vitest';
import type { Segment } from '../library';
import { planEdit, type PlanContext } from '../corrections/edit-plan';
import type { GlossaryEntry } from './glossary';
import { fixesIntent, proposeGlossaryFixes } from './glossary-fixes';

function sentence(position: number, text: string, startMs = position * 10_000): Segment {
  const words = text.split(' ').map((word, index) => ({
    text: word,
    start: startMs + index * 400,
    end: startMs + index * 400 + 350,
    confidence: 0.9,
  }));
  return {
    position,
    startMs,
    endMs: startMs + words.length * 400,
    speaker: 'A',
    confidence: 0.9,
    text,
    words,
  };
}

function entry(id: number, term: string, misheard: string[]): GlossaryEntry {
  return { id, glossaryId: 1, term, kind: 'person', misheard, note: '', usedAt: 0 };
}

const sentences = [
  sentence(0, 'Mayor Brenan opened the meeting.'),
  sentence(1, 'Brenan said brenan twice, Brenans once.'),
  sentence(2, 'The Bren Ann plan, by Ortis.'),
];
const entries = [entry(1, 'Brennan', ['Brenan', 'Bren Ann']), entry(2, 'Ortiz', ['ortis', 'Ortiz'])];
const context: PlanContext = {
  paragraphs: () => [],
  machineSentences: () => [],
  speakerLabel: () => 'A',
  speakerName: () => 'Speaker A',
};

describe('proposeGlossaryFixes', () => {
  it('finds every whole-word misheard form, ignoring case, in reading order, with its context and time', () => {
    const proposals = proposeGlossaryFixes(sentences, entries);
    expect(proposals.map((p) => [p.position, p.occurrence, p.match, p.replacement])).toEqual([
      [0, 0, 'Brenan', 'Brennan'],
      [1, 0, 'Brenan', 'Brennan'],
      [1, 1, 'brenan', 'Brennan'],
      [2, 0, 'Bren Ann', 'Brennan'],
      [2, 0, 'Ortis', 'Ortiz'],
    ]);
    expect(proposals[0]).toMatchObject({ before: 'Mayor ', after: ' opened the meeting.', startMs: 400 });
    expect(proposals[2]).toMatchObject({ startMs: 10_000 + 2 * 400, before: 'Brenan said ' });
    expect(proposeGlossaryFixes([sentence(0, 'Ortiz and Brennan.')], entries)).toEqual([]);
  });

  it('gives fixes the correction planner applies exactly where they were found, as one step', () => {
    const proposals = proposeGlossaryFixes(sentences, entries);
    // The journalist leaves out the second one of sentence 1.
    const accepted = proposals.filter((p) => !(p.position === 1 && p.occurrence === 1));
    const plan = planEdit(sentences, fixesIntent(accepted), context);
    expect(plan.summary).toBe('Fixed 4 spellings from the glossary');
    const after = new Map(
      plan.step.map((change) => [change.position, change.inserted.map((s) => s.text).join(' ')]),
    );
    expect(after.get(0)).toBe('Mayor Brennan opened the meeting.');
    expect(after.get(1)).toBe('Brennan said brenan twice, Brenans once.');
    expect(after.get(2)).toBe('The Brennan plan, by Ortiz.');
    // The unchanged words keep their times.
    const opened = plan.step[0]!.inserted[0]!.words.find((word) => word.text === 'opened');
    expect(opened).toMatchObject({ start: 800, end: 1150 });
  });
});
