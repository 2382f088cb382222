/**
 * The gateway's `json-repair` post-processing step, and the damage a careless model does that
 * makes the step worth having.
 */

/**
 * Turns almost-JSON into JSON: drops prose around the value, quotes bare keys and words,
 * converts single-quoted strings, removes trailing commas and closes unclosed brackets. Text
 * that is valid already, or beyond repair, is returned unchanged.
 */
export function repairJson(text: string): string {
  if (isValidJson(text)) return text;
  const repaired = rebuild(text);
  return isValidJson(repaired) ? repaired : text;
}

/** What a sloppy model sends: the first key unquoted and a trailing comma before the last bracket. */
export function sloppify(json: string): string {
  let broken = json.replace(/"([A-Za-z_][A-Za-z0-9_]*)":/, '$1:');
  const last = broken.search(/[}\]]\s*$/);
  if (last > 0 && !/[{[]\s*$/.test(broken.slice(0, last)))
    broken = `${broken.slice(0, last)},${broken.slice(last)}`;
  return broken;
}

function isValidJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function rebuild(text: string): string {
  const start = text.search(/[{[]/);
  if (start < 0) return text;
  let out = '';
  const closers: string[] = [];
  let index = start;
  while (index < text.length) {
    const char = text.charAt(index);
    if (char === '"' || char === "'") {
      const { literal, next } = readString(text, index);
      out += literal;
      index = next;
    } else if (char === '{' || char === '[') {
      closers.push(char === '{' ? '}' : ']');
      out += char;
      index += 1;
    } else if (char === '}' || char === ']') {
      out = dropTrailingComma(out) + (closers.pop() ?? '');
      index += 1;
      // The value is complete: whatever follows is prose around it.
      if (closers.length === 0) break;
    } else if (/[A-Za-z_$]/.test(char)) {
      const word = /^[A-Za-z0-9_$-]+/.exec(text.slice(index))?.[0] ?? char;
      index += word.length;
      const isKey = /^\s*:/.test(text.slice(index));
      out += !isKey && ['true', 'false', 'null'].includes(word) ? word : JSON.stringify(word);
    } else {
      out += char;
      index += 1;
    }
  }
  out = dropTrailingComma(out);
  while (closers.length > 0) out += closers.pop();
  return out;
}

function dropTrailingComma(text: string): string {
  return text.replace(/,\s*$/, '');
}

/** Reads a quoted string starting at `start`; returns it as a JSON string literal. */
function readString(text: string, start: number): { literal: string; next: number } {
  const quote = text.charAt(start);
  let content = '';
  let index = start + 1;
  while (index < text.length) {
    const char = text.charAt(index);
    if (char === '\\' && index + 1 < text.length) {
      const escaped = text.charAt(index + 1);
      // \' is not a JSON escape; inside a single-quoted string it means a plain quote.
      content += escaped === "'" ? "'" : `\\${escaped}`;
      index += 2;
      continue;
    }
    if (char === quote) return { literal: `"${content}"`, next: index + 1 };
    if (char === '"') content += '\\"';
    else if (char === '\n') content += '\\n';
    else content += char;
    index += 1;
  }
  return { literal: `"${content}"`, next: index };
}
