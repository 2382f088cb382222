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

/** snippet() marks matches with these control characters, which cannot occur in stored text. */
export const matchStart = '\u0001';
export const matchEnd = '\u0002';

export function splitSnippet(snippet: string): { text: string; match: boolean }[] {
  const parts: { text: string; match: boolean }[] = [];
  for (const piece of snippet.split(matchStart)) {
    const end = piece.indexOf(matchEnd);
    if (end < 0) {
      if (piece) parts.push({ text: piece, match: false });
      continue;
    }
    if (end > 0) parts.push({ text: piece.slice(0, end), match: true });
    const after = piece.slice(end + 1);
    if (after) parts.push({ text: after, match: false });
  }
  return parts;
}

/** Control characters are removed from stored text so snippet markers stay unambiguous. */
export function cleanText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}
