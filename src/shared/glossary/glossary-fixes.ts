import { z } from 'zod';
import type { EditIntent } from '../corrections/corrections';
import { findPattern } from '../corrections/edit-plan';
import type { Segment } from '../library';
import type { GlossaryEntry } from './glossary';

/**
 * "Apply glossary" on a transcript already made (issue #21): every place the corrected text has
 * one of the glossary's misheard forms, as a list the journalist reviews. The accepted ones are
 * applied as one ordinary correction (the `fixes` edit intent, one undo step), matched exactly
 * as find and replace matches: whole words, ignoring case.
 */
export const glossaryFixProposalSchema = z.object({
  position: z.number().int(),
  occurrence: z.number().int(),
  find: z.string(),
  replacement: z.string(),
  entryId: z.number().int(),
  startMs: z.number().int(),
  /** The words around the match, to judge it by. */
  before: z.string(),
  match: z.string(),
  after: z.string(),
});
export type GlossaryFixProposal = z.infer<typeof glossaryFixProposalSchema>;

const contextChars = 40;

export function proposeGlossaryFixes(
  sentences: readonly Pick<Segment, 'position' | 'words'>[],
  entries: readonly GlossaryEntry[],
): GlossaryFixProposal[] {
  const proposals: (GlossaryFixProposal & { offset: number })[] = [];
  for (const entry of entries)
    for (const form of new Set(entry.misheard.map((misheard) => misheard.trim()).filter(Boolean)))
      for (const sentence of sentences) {
        const shown = sentence.words.map((word) => word.text).join(' ');
        const matches = [...shown.matchAll(findPattern(form, { wholeWord: true }))];
        matches.forEach((match, occurrence) => {
          const offset = match.index;
          // Already spelled right (a form that differs from the spelling only in case).
          if (match[0] === entry.term) return;
          proposals.push({
            position: sentence.position,
            occurrence,
            find: form,
            replacement: entry.term,
            entryId: entry.id,
            startMs: wordAt(sentence.words, offset)?.start ?? 0,
            before: shown.slice(Math.max(0, offset - contextChars), offset),
            match: match[0],
            after: shown.slice(offset + match[0].length, offset + match[0].length + contextChars),
            offset,
          });
        });
      }
  return proposals
    .sort((a, b) => a.position - b.position || a.offset - b.offset)
    .map(({ offset: _offset, ...proposal }) => proposal);
}

/** The accepted proposals as the `fixes` edit intent takes them. */
export function fixesIntent(
  accepted: readonly GlossaryFixProposal[],
): Extract<EditIntent, { kind: 'fixes' }> {
  return {
    kind: 'fixes',
    fixes: accepted.map(({ position, occurrence, find, replacement }) => ({
      position,
      occurrence,
      find,
      replacement,
    })),
  };
}

/** The word the character at `offset` of the words joined by spaces belongs to. */
function wordAt<W extends { text: string }>(words: readonly W[], offset: number): W | undefined {
  let end = 0;
  for (const word of words) {
    end += word.text.length + 1;
    if (offset < end) return word;
  }
  return undefined;
}
