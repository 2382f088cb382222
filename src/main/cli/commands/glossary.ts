import { resolve } from 'node:path';
import type { GlossaryContribution } from '../../../shared/glossary/glossary-request';
import {
  defaultGlossaryName,
  formsInsideSpelling,
  glossaryEntryKindSchema,
  insideSpellingReason,
  type Glossary,
  type GlossaryEntry,
  type GlossaryEntryKind,
} from '../../../shared/glossary/glossary';
import { textWithFixes } from '../../../shared/corrections/edit-plan';
import { VerbatimError } from '../../../shared/errors';
import type { GlossaryFixProposal } from '../../../shared/glossary/glossary-fixes';
import type { Segment } from '../../../shared/library';
import { writeExportFile } from '../../core/export/export-file';
import { applyAllFixes } from '../../core/glossary/glossary-fix-proposals';
import { readGlossaryFile } from '../../core/glossary/glossary-file';
import type { Glossaries } from '../../core/glossary/glossaries';
import { printResult } from '../cli-io';
import { defineCommand, type CommandContext } from '../command';
import type { OptionValues } from '../cli-options';
import { onlyWord } from '../command-words';
import { cliCommand, correctableTranscript, editReport } from '../correction-lines';
import { timestamp } from '../job-lines';
import { UsageError } from '../usage-error';
import {
  decideAction,
  proposalsAction,
  proposeAction,
  pullAction,
  sendAfterChange,
  sendLine,
  shareAction,
  type NewsroomGlossaryValues,
} from './glossary-newsroom';

/**
 * `glossary add|list|remove|import|export|apply` (issues #21, #31): the newsroom's spellings from
 * a terminal, and applied to a transcript already made.
 * Without --glossary a command works on "General", the glossary every library starts with; add
 * and import make the glossary they name when there is none yet, as a newsroom starting a beat
 * would expect, while list, remove and export refuse a name that does not exist.
 */
const glossaryOptions = {
  glossary: {
    type: 'string',
    valueName: 'NAME',
    description: `the glossary to work on (default "${defaultGlossaryName}"); add creates it, and import when the file is imported`,
  },
  misheard: {
    type: 'string',
    valueName: 'FORM',
    multiple: true,
    description: 'add: a way the service mishears the term, rewritten to it on every new transcription',
  },
  kind: {
    type: 'string',
    valueName: 'KIND',
    description: 'add: person, place, organisation or term (the default)',
  },
  note: { type: 'string', valueName: 'TEXT', description: 'add: a note for the newsroom' },
  merge: {
    type: 'boolean',
    description:
      'add: when the glossary has the spelling already (in any capitals), adds the misheard forms, kind and note to that entry',
  },
  force: { type: 'boolean', description: 'export: replaces a file already there' },
  'dry-run': { type: 'boolean', description: 'apply: lists the fixes without making them' },
  desk: { type: 'string', valueName: 'NAME', description: 'share: the desk to share the glossary with' },
  'whole-newsroom': {
    type: 'boolean',
    description: 'share: shares the glossary with everyone in the newsroom',
  },
  json: { type: 'boolean', description: 'prints the answer as JSON' },
} as const;

type Values = OptionValues<typeof glossaryOptions>;
type Context = Pick<CommandContext, 'io' | 'openLibrary'>;
type Action = (words: string[], values: Values, context: Context) => Promise<number>;

function glossariesOf(context: Context): Glossaries {
  return context.openLibrary({ showProgress: false }).core.glossaries;
}

function entryLine(entry: GlossaryEntry): string {
  const misheard = entry.misheard.length > 0 ? `  misheard: ${entry.misheard.join(', ')}` : '';
  const note = entry.note ? `  (${entry.note})` : '';
  return `  ${entry.term}  [${entry.kind}]${misheard}${note}`;
}

function glossaryHeading(glossary: Glossary): string {
  const uses = [
    glossary.usedByDefault ? 'used by default' : undefined,
    glossary.presets.length > 0
      ? `with the preset${glossary.presets.length === 1 ? '' : 's'} ${glossary.presets.join(', ')}`
      : undefined,
  ].filter(Boolean);
  const count = `${glossary.entries} entr${glossary.entries === 1 ? 'y' : 'ies'}`;
  return `${glossary.name} (${[count, ...uses].join(', ')})`;
}

/** What the glossary says of an entry's forms that are part of its spelling (never sent). */
function insideNotes(entry: GlossaryEntry): string[] {
  const inside = formsInsideSpelling(entry.term, entry.misheard);
  return inside.length > 0 ? [insideSpellingReason(entry.term, inside)] : [];
}

/** What a transcription's glossaries sent, and each thing they could not, a line each. */
/** `sent`: whether the service has the job yet, or it is stored for the sending process to send. */
export function contributionNotes(contribution: GlossaryContribution, reachedService: boolean): string[] {
  const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
  const sent = contribution.keyterms.length + contribution.customSpelling.length;
  if (sent === 0 && contribution.notExpressible.length === 0) return [];
  return [
    `Glossary: ${plural(contribution.keyterms.length, 'key term', 'key terms')} and ${plural(contribution.customSpelling.length, 'spelling', 'spellings')} ${reachedService ? 'sent' : 'to be sent'} with the recording.`,
    ...(contribution.leftOut.length > 0
      ? [
          `Glossary: the model takes no more key terms; ${contribution.leftOut.length} left out (the least recently used): ${namedFew(contribution.leftOut)}.`,
        ]
      : []),
    ...contribution.notExpressible
      .slice(0, notesNamedInFull)
      .map((problem) => `Glossary: “${problem.form ?? problem.term}” not sent as written: ${problem.reason}`),
    ...(contribution.notExpressible.length > notesNamedInFull
      ? [
          `Glossary: ${contribution.notExpressible.length - notesNamedInFull} more entries not sent as written: ${namedFew(
            contribution.notExpressible
              .slice(notesNamedInFull)
              .map((problem) => problem.form ?? problem.term),
          )}.`,
        ]
      : []),
  ];
}

/**
 * A glossary of thousands of entries made a single line of 196 KB: each note names a few
 * and counts the rest, a line a person reads.
 */
const notesNamedInFull = 10;
const namesShown = 5;

/** "A, B, C, D, E and 18,895 more", or every name when there are few. */
function namedFew(names: readonly string[]): string {
  const shown = names.slice(0, namesShown).join(', ');
  return names.length > namesShown
    ? `${shown} and ${(names.length - namesShown).toLocaleString('en-GB')} more`
    : shown;
}

/** --kind checked: undefined when not given. */
function kindOf(values: Values): GlossaryEntryKind | undefined {
  if (values.kind === undefined) return undefined;
  const kind = glossaryEntryKindSchema.safeParse(values.kind);
  if (!kind.success)
    throw new UsageError(`"${values.kind}" is not a kind: give person, place, organisation or term`);
  return kind.data;
}

/** The newsroom's commands, with --kind checked as add checks it. */
function newsroomAction(
  run: (words: string[], values: NewsroomGlossaryValues, context: Context) => Promise<number>,
): Action {
  return (words, values, context) => run(words, { ...values, kind: kindOf(values) }, context);
}

/** After a change to a newsroom glossary's copy: one sync, and a line saying whether it was sent. */
async function newsroomLines(
  glossary: Glossary,
  glossaries: Glossaries,
  context: Context,
): Promise<string[]> {
  if (!glossary.newsroom) return [];
  return sendLine(await sendAfterChange(context, glossaries));
}

const actions: Record<string, Action> = {
  async add(words, values, context) {
    const term = onlyWord(
      words,
      'glossary add needs one term, in quotes when it has spaces: glossary add "Sinéad Ó Briain"',
    );
    const kind = kindOf(values) ?? 'term';
    const glossaries = glossariesOf(context);
    const glossary = await glossaries.named(values.glossary ?? defaultGlossaryName, { create: true });
    const { entry, created } = await glossaries
      .add(
        glossary.id,
        {
          term,
          ...(values.kind === undefined ? {} : { kind }),
          misheard: values.misheard,
          ...(values.note === undefined ? {} : { note: values.note }),
        },
        { merge: values.merge },
      )
      .catch((error: unknown) => {
        // The spelling is there already: say so, and how to add to it, rather than merge unasked.
        if (error instanceof VerbatimError && error.code === 'conflict')
          throw new VerbatimError(
            'conflict',
            `${error.message} Nothing was added: to add the misheard forms, kind and note to it, run the command again with --merge.`,
          );
        throw error;
      });
    const alsoIn = (await glossaries.sameSpelling(term))
      .filter((found) => found.glossary.id !== glossary.id)
      .map((found) => found.glossary.name);
    const notes = [
      ...(alsoIn.length > 0 ? [`“${entry.term}” is also in ${alsoIn.join(', ')}.`] : []),
      ...insideNotes(entry),
      ...(await newsroomLines(glossary, glossaries, context)),
    ];
    printResult(context.io, values.json, { glossary: glossary.name, entry, created, alsoIn, notes }, () =>
      [`${created ? 'Added' : 'Updated'} in ${glossary.name}:`, entryLine(entry), ...notes].join('\n'),
    );
    return 0;
  },

  async list(words, values, context) {
    if (words.length > 0)
      throw new UsageError('glossary list takes no more words (name a glossary with --glossary)');
    const glossaries = glossariesOf(context);
    const chosen =
      values.glossary === undefined ? await glossaries.list() : [await glossaries.named(values.glossary)];
    const listed = await Promise.all(
      chosen.map(async (glossary) => ({
        ...glossary,
        items: await glossaries.entries({ glossaryId: glossary.id }),
      })),
    );
    printResult(
      context.io,
      values.json,
      listed.map(({ items, ...glossary }) => ({ ...glossary, entries: items })),
      () =>
        listed
          .map((glossary) =>
            [
              glossaryHeading(glossary),
              ...(glossary.items.length === 0
                ? [
                    '  (empty: npm run cli -- glossary add "<term>"' +
                      (glossary.name === defaultGlossaryName ? ')' : ` --glossary "${glossary.name}")`),
                  ]
                : glossary.items.map(entryLine)),
            ].join('\n'),
          )
          .join('\n\n'),
    );
    return 0;
  },

  async remove(words, values, context) {
    const term = onlyWord(words, 'glossary remove needs the term to remove, in quotes when it has spaces');
    const glossaries = glossariesOf(context);
    const glossary = await glossaries.named(values.glossary ?? defaultGlossaryName);
    const removed = await glossaries.removeTerm(glossary.id, term);
    const notes = await newsroomLines(glossary, glossaries, context);
    printResult(context.io, values.json, { glossary: glossary.name, entry: removed, notes }, () =>
      [`Removed “${removed.term}” from ${glossary.name}.`, ...notes].join('\n'),
    );
    return 0;
  },

  async import(words, values, context) {
    const file = onlyWord(words, 'glossary import needs one CSV file');
    const text = await readGlossaryFile(resolve(file));
    // The glossary is made only if the file is imported: nothing imported leaves nothing behind.
    const { glossary, ...result } = await glossariesOf(context).importCsvNamed(
      values.glossary ?? defaultGlossaryName,
      text,
    );
    printResult(
      context.io,
      values.json,
      { glossary: glossary.name, ...result },
      () => `Imported into ${glossary.name}: ${result.added} added, ${result.updated} updated.`,
    );
    return 0;
  },

  async export(words, values, context) {
    const path = resolve(onlyWord(words, 'glossary export needs the CSV file to write'));
    const glossaries = glossariesOf(context);
    const glossary = await glossaries.named(values.glossary ?? defaultGlossaryName);
    const csv = await glossaries.exportCsv(glossary.id);
    // A script never silently replaces a file: --force says it may (as `export` does).
    await writeExportFile(path, new TextEncoder().encode(csv), { replace: values.force });
    printResult(
      context.io,
      values.json,
      { glossary: glossary.name, path, entries: glossary.entries },
      () =>
        `Wrote ${glossary.entries} entr${glossary.entries === 1 ? 'y' : 'ies'} of ${glossary.name} to ${path}`,
    );
    return 0;
  },
};

/** One proposed fix as `glossary apply` shows it: where, when, and its sentence before and after. */
function fixReport(fix: GlossaryFixProposal, sentence: Segment | undefined) {
  const before =
    sentence?.words.map((word) => word.text).join(' ') ?? `${fix.before}${fix.match}${fix.after}`;
  return {
    /** As `show --json` numbers sentences, from 0; `sentence` counts from 1, as a person does. */
    position: fix.position,
    sentence: fix.position + 1,
    startMs: fix.startMs,
    time: timestamp(fix.startMs),
    match: fix.match,
    replacement: fix.replacement,
    entryId: fix.entryId,
    before,
    after: textWithFixes(before, [fix]).text,
  };
}

/**
 * `glossary apply <id>`: what the reader's "Apply glossary…" proposes, every fix of it made as
 * one correction that `undo` takes back (or, with --dry-run, only listed).
 */
async function applyGlossary(words: string[], values: Values, context: Context): Promise<number> {
  const id = onlyWord(words, 'glossary apply needs one transcript id');
  const { core } = context.openLibrary({ showProgress: false });
  const job = await correctableTranscript(core.library, id);
  const glossaryIds =
    values.glossary === undefined ? undefined : [(await core.glossaries.named(values.glossary)).id];
  const applied = await applyAllFixes(core.library, core.glossaries, id, {
    glossaryIds,
    dryRun: values['dry-run'],
  });
  const { result } = applied;
  const fixes = applied.fixes.map((fix) => fixReport(fix, applied.sentences[fix.position]));
  const from = values.glossary === undefined ? 'the glossaries' : `the glossary ${values.glossary}`;
  printResult(
    context.io,
    values.json,
    {
      id,
      title: job.title,
      dryRun: values['dry-run'],
      fixes,
      edit: result ? editReport(id, result, result.state.undo) : null,
    },
    () => {
      if (fixes.length === 0) return `Nothing in "${job.title}" to fix from ${from}.`;
      const count = `${fixes.length} spelling${fixes.length === 1 ? '' : 's'}`;
      return [
        result
          ? `Fixed ${count} from ${from} in "${job.title}", as one correction:`
          : `${count} to fix from ${from} in "${job.title}" (nothing is changed yet):`,
        ...fixes.flatMap((fix) => [
          `  [${fix.time}] sentence ${fix.sentence}: ${fix.match} → ${fix.replacement}`,
          `    - ${fix.before}`,
          `    + ${fix.after}`,
        ]),
        result
          ? `To take it back: ${cliCommand(`undo ${id}`)}`
          : `To make them: ${cliCommand(`glossary apply ${id}${values.glossary === undefined ? '' : ` --glossary "${values.glossary}"`}`)}`,
      ].join('\n');
    },
  );
  return 0;
}

const glossaryActions: ReadonlyMap<string, Action> = new Map([
  ...Object.entries(actions),
  ['apply', applyGlossary],
  ['share', newsroomAction(shareAction)],
  ['pull', newsroomAction(pullAction)],
  ['propose', newsroomAction(proposeAction)],
  ['proposals', newsroomAction(proposalsAction)],
  ['accept', newsroomAction(decideAction('accepted'))],
  ['decline', newsroomAction(decideAction('declined'))],
]);

export const glossaryCommand = defineCommand({
  name: 'glossary',
  usage: [
    'add <term> [--misheard FORM]... [--kind person|place|organisation|term] [--note TEXT]\n[--glossary NAME] [--merge] [--json]',
    'list [--glossary NAME] [--json]',
    'remove <term> [--glossary NAME] [--json]',
    'import FILE.csv [--glossary NAME] [--json]',
    'export FILE.csv [--glossary NAME] [--force] [--json]',
    'apply <id> [--glossary NAME] [--dry-run] [--json]',
    'share <name> (--desk NAME | --whole-newsroom) [--json]',
    'pull [--json]',
    'propose <glossary> <term> [--misheard FORM]... [--kind KIND] [--note TEXT] [--json]',
    'proposals [--json]',
    'accept <proposal-id> [--json]',
    'decline <proposal-id> [--json]',
  ],
  summary:
    'The newsroom glossary: names and terms spelled right on every new transcription, with the ways the service mishears them; share one with a desk or the whole newsroom, pull what changed, propose entries and decide proposals (as the user of VERBATIM_NEWSROOM_URL).',
  options: glossaryOptions,
  takesWords: true,
  async run({ values, positionals }, context) {
    const [action, ...words] = positionals;
    const run = action === undefined ? undefined : glossaryActions.get(action);
    if (!run)
      throw new UsageError(
        action
          ? `unknown glossary command "${action}"`
          : 'glossary needs a command: add, list, remove, import, export, apply, share, pull, propose, proposals, accept or decline',
      );
    return run(words, values, context);
  },
});
