import { resolve } from 'node:path';
import type { GlossaryContribution } from '../../../shared/glossary/glossary-request';
import {
  defaultGlossaryName,
  glossaryEntryKindSchema,
  type Glossary,
  type GlossaryEntry,
} from '../../../shared/glossary/glossary';
import { writeExportFile } from '../../core/export/export-file';
import { readGlossaryFile } from '../../core/glossary/glossary-file';
import type { Glossaries } from '../../core/glossary/glossaries';
import { printResult } from '../cli-io';
import { defineCommand, type CommandContext } from '../command';
import type { OptionValues } from '../cli-options';
import { onlyWord } from '../command-words';
import { UsageError } from '../usage-error';

/**
 * `glossary add|list|remove|import|export` (issue #21): the newsroom's spellings from a terminal.
 * Without --glossary a command works on "General", the glossary every library starts with; add
 * and import make the glossary they name when there is none yet, as a newsroom starting a beat
 * would expect, while list, remove and export refuse a name that does not exist.
 */
const glossaryOptions = {
  glossary: {
    type: 'string',
    valueName: 'NAME',
    description: `the glossary to work on (default "${defaultGlossaryName}"); add and import create it`,
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
  force: { type: 'boolean', description: 'export: replaces a file already there' },
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

/** What a transcription's glossaries sent, and each thing they could not, a line each. */
export function contributionNotes(contribution: GlossaryContribution): string[] {
  const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
  const sent = contribution.keyterms.length + contribution.customSpelling.length;
  if (sent === 0 && contribution.notExpressible.length === 0) return [];
  return [
    `Glossary: ${plural(contribution.keyterms.length, 'key term', 'key terms')} and ${plural(contribution.customSpelling.length, 'spelling', 'spellings')} sent with the recording.`,
    ...(contribution.leftOut.length > 0
      ? [
          `Glossary: the model takes no more key terms; left out (least recently used): ${contribution.leftOut.join(', ')}.`,
        ]
      : []),
    ...contribution.notExpressible.map(
      (problem) => `Glossary: “${problem.form ?? problem.term}” not sent as written: ${problem.reason}`,
    ),
  ];
}

const actions: Record<string, Action> = {
  async add(words, values, context) {
    const term = onlyWord(
      words,
      'glossary add needs one term, in quotes when it has spaces: glossary add "Sinéad Ó Briain"',
    );
    const kind = values.kind === undefined ? 'term' : glossaryEntryKindSchema.safeParse(values.kind);
    if (typeof kind !== 'string' && !kind.success)
      throw new UsageError(`"${values.kind}" is not a kind: give person, place, organisation or term`);
    const glossaries = glossariesOf(context);
    const glossary = await glossaries.named(values.glossary ?? defaultGlossaryName, { create: true });
    const { entry, created } = await glossaries.add(glossary.id, {
      term,
      kind: typeof kind === 'string' ? kind : kind.data,
      misheard: values.misheard,
      ...(values.note === undefined ? {} : { note: values.note }),
    });
    printResult(
      context.io,
      values.json,
      { glossary: glossary.name, entry, created },
      () => `${created ? 'Added' : 'Updated'} in ${glossary.name}:\n${entryLine(entry)}`,
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
    printResult(
      context.io,
      values.json,
      { glossary: glossary.name, entry: removed },
      () => `Removed “${removed.term}” from ${glossary.name}.`,
    );
    return 0;
  },

  async import(words, values, context) {
    const file = onlyWord(words, 'glossary import needs one CSV file');
    const text = await readGlossaryFile(resolve(file));
    const glossaries = glossariesOf(context);
    const glossary = await glossaries.named(values.glossary ?? defaultGlossaryName, { create: true });
    const result = await glossaries.importCsv(glossary.id, text);
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

const glossaryActions: ReadonlyMap<string, Action> = new Map(Object.entries(actions));

export const glossaryCommand = defineCommand({
  name: 'glossary',
  usage: [
    'add <term> [--misheard FORM]... [--kind person|place|organisation|term] [--note TEXT]\n[--glossary NAME] [--json]',
    'list [--glossary NAME] [--json]',
    'remove <term> [--glossary NAME] [--json]',
    'import FILE.csv [--glossary NAME] [--json]',
    'export FILE.csv [--glossary NAME] [--force] [--json]',
  ],
  summary:
    'The newsroom glossary: names and terms spelled right on every new transcription, with the ways the service mishears them.',
  options: glossaryOptions,
  takesWords: true,
  async run({ values, positionals }, context) {
    const [action, ...words] = positionals;
    const run = action === undefined ? undefined : glossaryActions.get(action);
    if (!run)
      throw new UsageError(
        action
          ? `unknown glossary command "${action}"`
          : 'glossary needs a command: add, list, remove, import or export',
      );
    return run(words, values, context);
  },
});
