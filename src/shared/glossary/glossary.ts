import { z } from 'zod';

/**
 * The newsroom glossary (issue #21): names, places, organisations and jargon spelled as the
 * newsroom spells them, with the ways the service mishears them. Glossaries are named sets of
 * entries kept in the library; the ones that apply to a new transcription become its
 * `keyterms_prompt` and `custom_spelling` (see glossary-request.ts).
 */

export const glossaryEntryKinds = ['person', 'place', 'organisation', 'term'] as const;
export const glossaryEntryKindSchema = z.enum(glossaryEntryKinds, {
  message: 'The kind is one of person, place, organisation or term.',
});
export type GlossaryEntryKind = z.infer<typeof glossaryEntryKindSchema>;

export const glossaryNameMaxLength = 80;
export const glossaryTermMaxLength = 100;
export const glossaryNoteMaxLength = 500;
/** A newsroom's glossary is hundreds of entries; the cap keeps a stray import from taking the app down. */
export const glossaryEntriesMax = 20_000;
export const defaultGlossaryName = 'General';

const term = z
  .string()
  .trim()
  .min(1, 'An entry needs its correct spelling.')
  .max(glossaryTermMaxLength, `A spelling has at most ${glossaryTermMaxLength} characters.`);

export const glossaryEntrySchema = z.object({
  id: z.number().int(),
  glossaryId: z.number().int(),
  term: z.string(),
  kind: glossaryEntryKindSchema,
  /** How the service mishears it ("Brenan", "Bren Ann"). */
  misheard: z.array(z.string()),
  note: z.string(),
  /** Made, edited, learned from a correction or applied to a transcript: what "recent" means when a limit bites. */
  usedAt: z.number().int(),
});
export type GlossaryEntry = z.infer<typeof glossaryEntrySchema>;

export const newGlossaryEntrySchema = z
  .object({
    term,
    kind: glossaryEntryKindSchema.default('term'),
    misheard: z
      .array(z.string().trim().min(1, 'A misheard form cannot be empty.').max(glossaryTermMaxLength))
      .max(20, 'An entry has at most 20 misheard forms.')
      .default([]),
    note: z.string().max(glossaryNoteMaxLength).default(''),
  })
  .strict();
export type NewGlossaryEntry = z.input<typeof newGlossaryEntrySchema>;

/** What this library knows of a glossary that is a newsroom glossary's copy. */
export const newsroomGlossaryStatusSchema = z.object({
  /** The newsroom glossary's id (a uuid). */
  id: z.string(),
  /** The desk it is shared with; null for the whole newsroom. */
  desk: z.string().nullable(),
  owner: z.string(),
  /** Whether this reporter may change it (its owner, or an editor of its desk); else they propose. */
  mayChange: z.boolean(),
  /** Changes and proposals made here that wait to be sent. */
  waiting: z.number().int(),
});
export type NewsroomGlossaryStatus = z.infer<typeof newsroomGlossaryStatusSchema>;

export const glossarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Applies to every new transcription unless the journalist unticks it. */
  usedByDefault: z.boolean(),
  /** The presets (by name) it applies to by default, besides `usedByDefault`. */
  presets: z.array(z.string()),
  entries: z.number().int(),
  /** Set when it is the copy of a glossary shared in the newsroom (issue #36): where, whose, and whether one may change it. */
  newsroom: newsroomGlossaryStatusSchema.optional(),
});
export type Glossary = z.infer<typeof glossarySchema>;

export const glossaryNameSchema = z
  .string()
  .trim()
  .min(1, 'A glossary needs a name.')
  .max(glossaryNameMaxLength, `A glossary's name has at most ${glossaryNameMaxLength} characters.`);

/** The glossaries a new transcription uses unless the journalist chooses: by default, and the preset's. */
export function defaultGlossaryIds(glossaries: readonly Glossary[], preset: string | undefined): number[] {
  return glossaries
    .filter(
      (glossary) => glossary.usedByDefault || (preset !== undefined && glossary.presets.includes(preset)),
    )
    .map((glossary) => glossary.id);
}

/** "person, misheard as Brenan, Bren Ann": what an entry holds, to say which one is meant. */
export function entrySummary(entry: Pick<GlossaryEntry, 'kind' | 'misheard'>): string {
  return entry.misheard.length > 0 ? `${entry.kind}, misheard as ${entry.misheard.join(', ')}` : entry.kind;
}

/** A word as the glossary compares words: a run of letters (with their accents) and digits. */
export const glossaryWordPattern = /[\p{L}\p{M}\p{N}]+/gu;

/** A text's words as the glossary compares them, ignoring case: "Al-Hassan" is al, hassan. */
export function glossaryWords(text: string): string[] {
  return (text.match(glossaryWordPattern) ?? []).map((word) => word.toLocaleLowerCase());
}

/**
 * The misheard forms that are part of the spelling itself: "Northwind" of "Northwind Ferries",
 * "Hassan" of "Al-Hassan" (issue #31). Sent as a custom spelling, such a form has the service
 * write the name twice wherever the recording says it right ("Northwind Ferries Ferries"), so it
 * is never sent; "Apply glossary" still fixes it where it stands alone.
 */
export function formsInsideSpelling(term: string, forms: readonly string[]): string[] {
  const spelled = glossaryWords(term);
  return forms.filter((form) => {
    const words = glossaryWords(form);
    if (words.length === 0 || words.length >= spelled.length) return false;
    return spelled.some((_, at) => words.every((word, index) => spelled[at + index] === word));
  });
}

/** "“Northwind”" or "“Northwind” and “Ferries”": forms named in a sentence. */
export function namedForms(forms: readonly string[]): string {
  const quoted = forms.map((form) => `“${form}”`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}

/** Why a form that is part of its spelling is never sent, in the journalist's words. */
export function insideSpellingReason(term: string, forms: readonly string[]): string {
  const one = forms.length === 1;
  return `${namedForms(forms)} ${one ? 'is' : 'are'} part of “${term}” itself: as a custom spelling ${one ? 'it' : 'they'} would have the service write the name twice wherever the recording says it right, so ${one ? 'it is' : 'they are'} never sent. Apply glossary still fixes ${one ? 'it' : 'them'} where ${one ? 'it stands' : 'they stand'} alone.`;
}

/**
 * The glossary kind of an entity the service detected (entity_detection): the real service's
 * `person_name`, `location` and `organization` (AssemblyAI's entity types; the spec does not list
 * them), anything else a term.
 */
export function glossaryKindOfEntity(entityType: string): GlossaryEntryKind {
  if (entityType === 'person_name') return 'person';
  if (entityType === 'location') return 'place';
  if (entityType === 'organization') return 'organisation';
  return 'term';
}
