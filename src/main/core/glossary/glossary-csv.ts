import { parse } from 'csv-parse/sync';
import { VerbatimError } from '../../../shared/errors';
import {
  glossaryEntryKindSchema,
  newGlossaryEntrySchema,
  type GlossaryEntry,
  type NewGlossaryEntry,
} from '../../../shared/glossary/glossary';
import { csvField } from '../export/text-formats';

/**
 * Glossaries as CSV (issue #21), the file a newsroom keeps in a spreadsheet: one entry a row,
 * columns `term,kind,misheard,note`, misheard forms separated by semicolons. Written as the
 * transcript CSV export is (UTF-8 with a byte order mark, CRLF, cells that a spreadsheet would
 * run as a formula guarded by a leading quote), read with csv-parse: a header row is optional,
 * a kind left empty is "term", and the guard's quote is taken off again.
 */
export const glossaryCsvColumns = ['term', 'kind', 'misheard', 'note'] as const;

export function glossaryToCsv(entries: readonly GlossaryEntry[]): string {
  const rows = [
    [...glossaryCsvColumns],
    ...entries.map((entry) => [entry.term, entry.kind, entry.misheard.join('; '), entry.note]),
  ];
  return `\uFEFF${rows.map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/** A row that could not be read, by its line in the file, with why. */
export interface GlossaryCsvProblem {
  line: number;
  message: string;
}

/** The guard the export puts before a cell a spreadsheet would run ("'=SUM(…)"), taken off. */
function unguard(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

/**
 * The entries of a glossary CSV, or every problem with it (each with its line), so a journalist
 * can fix the file once rather than row by row. A file that is not CSV at all is refused as a whole.
 */
export function glossaryFromCsv(
  text: string,
): { ok: true; entries: NewGlossaryEntry[] } | { ok: false; problems: GlossaryCsvProblem[] } {
  let records: { record: string[]; line: number }[];
  try {
    records = (
      parse(text, {
        bom: true,
        relax_column_count: true,
        skip_empty_lines: true,
        trim: true,
        info: true,
      }) as unknown as { record: string[]; info: { lines: number } }[]
    ).map(({ record, info }) => ({ record, line: info.lines }));
  } catch (error) {
    throw new VerbatimError(
      'invalid_input',
      `This file could not be read as CSV: ${error instanceof Error ? error.message : String(error)}. A glossary file has the columns term, kind, misheard and note.`,
    );
  }
  const first = records[0]?.record.map((cell) => cell.toLowerCase());
  const hasHeader = first?.[0] === 'term';
  const columns = hasHeader ? first : [...glossaryCsvColumns];
  const at = (name: (typeof glossaryCsvColumns)[number]): number => columns.indexOf(name);
  const entries: NewGlossaryEntry[] = [];
  const problems: GlossaryCsvProblem[] = [];
  for (const { record, line } of hasHeader ? records.slice(1) : records) {
    const cell = (name: (typeof glossaryCsvColumns)[number]): string =>
      at(name) < 0 ? '' : unguard(record[at(name)] ?? '');
    const kind = cell('kind').toLowerCase() || 'term';
    if (!glossaryEntryKindSchema.safeParse(kind).success) {
      problems.push({
        line,
        message: `“${cell('kind')}” is not a kind: use person, place, organisation or term.`,
      });
      continue;
    }
    const parsed = newGlossaryEntrySchema.safeParse({
      term: cell('term'),
      kind,
      misheard: cell('misheard')
        .split(';')
        .map((form) => form.trim())
        .filter(Boolean),
      note: cell('note'),
    });
    if (!parsed.success) {
      problems.push({
        line,
        message: parsed.error.issues[0]?.message ?? 'This row is not a glossary entry.',
      });
      continue;
    }
    entries.push(parsed.data);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, entries };
}
