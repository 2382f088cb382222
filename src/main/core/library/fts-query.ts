/**
 * Turns whatever a journalist types into a safe FTS5 query. FTS5 has its own syntax (AND, OR,
 * NOT, NEAR, quotes, *, ^, column filters, parentheses) and a stray character is an SQL
 * error; here every word becomes a quoted string, so operators are never interpreted.
 * "Quoted phrases" stay phrases, and the last word matches as a prefix (search as you type).
 */
export function toFtsQuery(input: string): string | undefined {
  const parts: string[] = [];
  const phrasePattern = /"([^"]*)"/g;
  let rest = '';
  let last = 0;
  for (let match = phrasePattern.exec(input); match; match = phrasePattern.exec(input)) {
    rest += `${input.slice(last, match.index)} `;
    last = match.index + match[0].length;
    const words = wordsOf(match[1] ?? '');
    if (words.length > 0) parts.push(quote(words.join(' ')));
  }
  // An unbalanced quote counts as ordinary text.
  rest += input.slice(last).replaceAll('"', ' ');
  const words = wordsOf(rest);
  const typingLastWord = !/\s$/.test(input) && !input.trimEnd().endsWith('"');
  words.forEach((word, index) => {
    const prefix = typingLastWord && index === words.length - 1;
    parts.push(prefix ? `${quote(word)}*` : quote(word));
  });
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/** Letters, digits and combining marks in any script; everything else separates words. */
function wordsOf(text: string): string[] {
  return text.match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
}

function quote(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** The words a query looks for, folded like the index folds them; the last may be a prefix. */
export interface QueryTerms {
  words: Set<string>;
  prefix: string | undefined;
}

export function queryTerms(input: string): QueryTerms {
  const words = wordsOf(input.replaceAll('"', ' ')).map(fold);
  const typingLastWord = !/\s$/.test(input) && !input.trimEnd().endsWith('"');
  const prefix = typingLastWord ? words.pop() : undefined;
  return { words: new Set(words), prefix };
}

/** Case and accents folded, as the index's unicode61 tokenizer with remove_diacritics does. */
export function fold(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * The sentence as plain-text parts with the query's words marked. Computed here rather than
 * by FTS5's snippet(), which would re-run the match for every hit; sentences are short, so
 * the whole sentence is the snippet, trimmed around the first match only when very long.
 */
export function highlight(
  text: string,
  terms: QueryTerms,
  maxLength = 320,
): { text: string; match: boolean }[] {
  const parts: { text: string; match: boolean }[] = [];
  const pattern = /[\p{L}\p{N}\p{M}]+/gu;
  let last = 0;
  let firstMatch = -1;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    const word = fold(m[0]);
    const matches = terms.words.has(word) || (terms.prefix !== undefined && word.startsWith(terms.prefix));
    if (!matches) continue;
    if (firstMatch < 0) firstMatch = m.index;
    if (m.index > last) parts.push({ text: text.slice(last, m.index), match: false });
    parts.push({ text: m[0], match: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), match: false });
  if (text.length <= maxLength) return parts;
  return trimAround(parts, Math.max(0, firstMatch - Math.floor(maxLength / 3)), maxLength);
}

function trimAround(parts: { text: string; match: boolean }[], start: number, length: number) {
  const trimmed: { text: string; match: boolean }[] = [];
  let offset = 0;
  const end = start + length;
  for (const part of parts) {
    const from = Math.max(start, offset);
    const to = Math.min(end, offset + part.text.length);
    if (to > from) trimmed.push({ text: part.text.slice(from - offset, to - offset), match: part.match });
    offset += part.text.length;
  }
  if (start > 0) trimmed.unshift({ text: '…', match: false });
  if (end < offset) trimmed.push({ text: '…', match: false });
  return trimmed;
}

/** Control characters have no place in a transcript; they are dropped on the way in. */
export function cleanText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}
