import type { OptionProblem } from '../../../shared/transcription/request-options';

/**
 * The pure parts of the options form: reading and writing nested options by their dotted
 * path (the same paths `checkTranscriptionOptions` names its problems with), parsing what
 * people type, and matching problems to fields. Kept free of Svelte and the api so they can
 * be unit-tested in Node.
 */

export type Options = Record<string, unknown>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function getAtPath(options: Options, path: string): unknown {
  let current: unknown = options;
  for (const key of path.split('.')) {
    if (!isPlainObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

/**
 * A copy of `options` with `path` set to `value`. `undefined` removes the option, and a
 * nested object left empty is removed too, so the service's defaults apply and the request
 * carries only what the user chose.
 */
export function setAtPath(options: Options, path: string, value: unknown): Options {
  const [head, ...rest] = path.split('.') as [string, ...string[]];
  const copy: Options = { ...options };
  const next =
    rest.length === 0 ? value : setAtPath(isPlainObject(copy[head]) ? copy[head] : {}, rest.join('.'), value);
  if (next === undefined || (isPlainObject(next) && Object.keys(next).length === 0)) delete copy[head];
  else copy[head] = next;
  return copy;
}

/** "fr, de ,es" or one per line → ["fr", "de", "es"]; blanks are dropped. */
export function parseList(text: string, separator: RegExp = /[,\n]/): string[] {
  return text
    .split(separator)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** A list to set as an option: an empty list means "not set". */
export function listOption(text: string, separator?: RegExp): string[] | undefined {
  const list = parseList(text, separator);
  return list.length === 0 ? undefined : list;
}

/** What a number field holds: '' is "not set"; anything else is passed on for the validator. */
export function numberOption(text: string): number | undefined {
  return text.trim() === '' ? undefined : Number(text);
}

/** "hh:mm:ss", "mm:ss" or "ss" (seconds may have decimals) → milliseconds; null if unreadable. */
export function parseTimecode(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (!/^(\d+:){0,2}\d+(\.\d+)?$/.test(trimmed)) return null;
  const parts = trimmed.split(':').map(Number);
  const seconds = parts.reduce((total, part) => total * 60 + part, 0);
  return Math.round(seconds * 1000);
}

export function formatTimecode(ms: number | undefined): string {
  if (ms === undefined) return '';
  const total = Math.floor(ms / 1000);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor(total / 60) % 60)}:${pad(total % 60)}`;
}

/** A problem belongs to a field when it names the field or something inside it. */
export function problemsFor(problems: readonly OptionProblem[], path: string): string[] {
  return problems
    .filter((problem) => problem.path === path || problem.path.startsWith(`${path}.`))
    .map((problem) => problem.message);
}

/** The problems no field of the form claims, so none is ever hidden. */
export function unclaimedProblems(
  problems: readonly OptionProblem[],
  fieldPaths: readonly string[],
): OptionProblem[] {
  return problems.filter(
    (problem) => !fieldPaths.some((path) => problem.path === path || problem.path.startsWith(`${path}.`)),
  );
}

export interface SpellingRow {
  from: string;
  to: string;
}

/** Rows of "from (comma-separated) → to" as the service's custom_spelling; blank rows skipped. */
export function spellingOption(rows: readonly SpellingRow[]): { from: string[]; to: string }[] | undefined {
  const items = rows
    .filter((row) => row.from.trim() !== '' || row.to.trim() !== '')
    .map((row) => ({ from: parseList(row.from, /,/), to: row.to.trim() }));
  return items.length === 0 ? undefined : items;
}

export function spellingRows(value: unknown): SpellingRow[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isPlainObject).map((item) => ({
    from: Array.isArray(item.from) ? item.from.join(', ') : '',
    to: typeof item.to === 'string' ? item.to : '',
  }));
}

/** The file name without its extension, as a job's title. */
export function titleFromFileName(name: string): string {
  const base = name.replace(/\.[^./\\]+$/, '').trim();
  return (base === '' ? name : base).slice(0, 300);
}
