import { z } from 'zod';
import type { EditIntent } from '../corrections/corrections';
import type { Segment } from '../library';
import type { GlossaryEntry } from './glossary';
import { fixPlaces, spellingsOf } from './glossary-fix-places';

/**
 * "Apply glossary" on a transcript already made (issue #21): every place the corrected text has
 * one of the glossary's misheard forms, as a list the journalist reviews. The accepted ones are
 * applied as one ordinary correction (the `fixes` edit intent, one undo step), matched exactly
 * as find and replace matches: whole words, ignoring case, and never where the fix would write a
 * name twice (issue #31).
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

/**
 * Every place the text has one of the entries' misheard forms, for the journalist to review (all
 * ticked), never where the fix would write a name twice (see glossary-fix-places.ts): applying
 * the same glossary again proposes nothing.
 */
export function proposeGlossaryFixes(
  sentences: readonly Pick<Segment, 'position' | 'words'>[],
  entries: readonly GlossaryEntry[],
): GlossaryFixProposal[] {
  const spellings = spellingsOf(entries);
  const proposals: GlossaryFixProposal[] = [];
  for (const sentence of sentences) {
    const shown = sentence.words.map((word) => word.text).join(' ');
    for (const place of fixPlaces(shown, spellings))
      proposals.push({
        position: sentence.position,
        occurrence: place.occurrence,
        find: place.find,
        replacement: place.replacement,
        entryId: place.entry.id,
        startMs: wordAt(sentence.words, place.start)?.start ?? 0,
        before: shown.slice(Math.max(0, place.start - contextChars), place.start),
        match: place.match,
        after: shown.slice(place.end, place.end + contextChars),
      });
  }
  return proposals;
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
