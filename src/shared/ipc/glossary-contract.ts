import { z } from 'zod';
import {
  glossaryEntryKindSchema,
  glossaryEntrySchema,
  glossaryNameSchema,
  glossaryNoteMaxLength,
  glossarySchema,
  glossaryTermMaxLength,
  newGlossaryEntrySchema,
} from '../glossary/glossary';
import { glossaryFixProposalSchema } from '../glossary/glossary-fixes';
import { glossaryProposalSchema, glossarySyncReportSchema } from '../glossary/newsroom-glossary';

/**
 * The newsroom glossary (issue #21): named glossaries of spellings kept in the library, CSV in
 * and out, and what a set of them adds to a new transcription (`glossaries.contribution`, the
 * New transcription form's "what they contribute"). Every change is announced as
 * `glossaries.changed`, whoever made it (a window, the command line in another process does not).
 */
const id = z.number().int().min(1);
const path = z.string().min(1).max(4096);

export const glossaryContributionSchema = z.object({
  keyterms: z.array(z.string()),
  customSpelling: z.array(z.object({ from: z.array(z.string()), to: z.string() })),
  leftOut: z.array(z.string()),
  notExpressible: z.array(z.object({ term: z.string(), form: z.string().optional(), reason: z.string() })),
});

export const glossaryContract = {
  'glossaries.list': { input: z.undefined(), output: z.array(glossarySchema) },
  'glossaries.create': { input: z.object({ name: glossaryNameSchema }).strict(), output: glossarySchema },
  'glossaries.rename': { input: z.object({ id, name: glossaryNameSchema }).strict(), output: glossarySchema },
  'glossaries.delete': { input: z.object({ id }).strict(), output: glossarySchema },
  /** Whether it applies to every new transcription, and to which presets (by name) by default. */
  'glossaries.setDefaults': {
    input: z
      .object({
        id,
        usedByDefault: z.boolean().optional(),
        presets: z.array(z.string().max(80)).max(50).optional(),
      })
      .strict(),
    output: glossarySchema,
  },
  /** Entries of one glossary (or all), searched by spelling, misheard form or note. */
  'glossaries.entries': {
    input: z
      .object({ glossaryId: id.optional(), query: z.string().max(200).optional() })
      .strict()
      .default({}),
    output: z.array(glossaryEntrySchema),
  },
  /**
   * A spelling the glossary has already gains the new misheard forms (`created: false`), unless
   * `merge` is false: then it is refused (`conflict`), naming the entry there.
   */
  'glossaries.addEntry': {
    input: z
      .object({ glossaryId: id, entry: newGlossaryEntrySchema, merge: z.boolean().optional() })
      .strict(),
    output: z.object({ entry: glossaryEntrySchema, created: z.boolean() }),
  },
  /** Where a spelling is already (ignoring case): each glossary that has it, with its entry. */
  'glossaries.sameSpelling': {
    input: z.object({ term: z.string().max(glossaryTermMaxLength) }).strict(),
    output: z.array(z.object({ glossary: glossarySchema, entry: glossaryEntrySchema })),
  },
  'glossaries.updateEntry': {
    input: z
      .object({
        id,
        term: z.string().max(glossaryTermMaxLength).optional(),
        kind: glossaryEntryKindSchema.optional(),
        misheard: z.array(z.string().max(glossaryTermMaxLength)).max(20).optional(),
        note: z.string().max(glossaryNoteMaxLength).optional(),
      })
      .strict(),
    output: glossaryEntrySchema,
  },
  'glossaries.removeEntry': { input: z.object({ id }).strict(), output: glossaryEntrySchema },
  /**
   * The OS dialog for a glossary's CSV: a file to import, or where to export (the desktop app
   * only; the web host answers that the page must ask for a path). Null when cancelled.
   */
  'glossaries.chooseFile': {
    input: z.object({ purpose: z.enum(['import', 'export']), glossaryId: id }).strict(),
    output: z.object({ path: z.string().nullable() }),
  },
  /** Reads a CSV file (term, kind, misheard, note) into a glossary: every row, or none. */
  'glossaries.importCsv': {
    input: z.object({ glossaryId: id, path }).strict(),
    output: z.object({ added: z.number().int(), updated: z.number().int() }),
  },
  /** Writes a glossary as CSV, atomically; an existing file only with `replace`. */
  'glossaries.exportCsv': {
    input: z.object({ glossaryId: id, path, replace: z.boolean().optional() }).strict(),
    output: z.object({ path: z.string(), entries: z.number().int() }),
  },
  /**
   * "Apply glossary": every misheard form of these glossaries (all without a choice) in the
   * corrected text of these transcripts, for review. The accepted ones are applied with
   * `corrections.edit` and the `fixes` intent: one ordinary, undoable correction.
   */
  'glossaries.proposeFixes': {
    input: z
      .object({
        transcriptIds: z.array(z.string().min(1).max(100)).min(1).max(1000),
        glossaryIds: z.array(id).max(100).optional(),
      })
      .strict(),
    output: z.array(
      z.object({ transcriptId: z.string(), title: z.string(), fixes: z.array(glossaryFixProposalSchema) }),
    ),
  },
  /** Entries just applied to a transcript: the most recently used, kept first when a limit bites. */
  'glossaries.markUsed': {
    input: z.object({ entryIds: z.array(id).max(20_000) }).strict(),
    output: z.object({}),
  },
  /** What these glossaries add to a transcription with these options, and what they cannot. */
  'glossaries.contribution': {
    input: z
      .object({ glossaryIds: z.array(id).max(100), options: z.record(z.string(), z.unknown()).default({}) })
      .strict(),
    output: glossaryContributionSchema,
  },
  /**
   * Newsroom glossaries (issue #36): a glossary's newsroom status is its `newsroom` field in
   * `glossaries.list`. Sharing and deciding need the newsroom of Settings to answer; a proposal is
   * stored first and sent by the sync; `pull` sends what waits and reads what changed now.
   */
  'glossaries.share': {
    input: z.object({ glossaryId: id, desk: z.string().min(1).max(50).nullable() }).strict(),
    output: glossarySchema,
  },
  'glossaries.pull': { input: z.undefined(), output: glossarySyncReportSchema },
  /** "Add to the newsroom glossary…": added where the user may change it, else proposed. */
  'glossaries.propose': {
    input: z.object({ glossaryId: id, entry: newGlossaryEntrySchema }).strict(),
    output: z.object({ proposed: z.boolean() }),
  },
  'glossaries.proposals': { input: z.undefined(), output: z.array(glossaryProposalSchema) },
  'glossaries.decideProposal': {
    input: z.object({ id: z.string().uuid(), decision: z.enum(['accepted', 'declined']) }).strict(),
    output: glossaryProposalSchema,
  },
};

export const glossaryEvents = {
  'glossaries.changed': z.object({}),
};
