/** Any UTF-16 code unit above 0x7f; without the `u` flag an emoji's two surrogates match one by one. */
const nonAscii = /[\u0080-\uffff]/;
const nonAsciiRuns = /[\u0080-\uffff]+/g;
/**
 * Escapes made once per code unit (at most 65,536 short strings): a transcript repeats the same
 * few accents thousands of times.
 */
const escapes = new Map<number, string>();

/**
 * A value as JSON that is pure ASCII: every character above 0x7f written as a \uXXXX escape
 * (a character outside the Basic Multilingual Plane as its two surrogates, which JSON allows).
 * It parses back to exactly the same value.
 *
 * Why: the page decodes a text frame and JSON.parses it as one-byte text only while every
 * character is ASCII. A single non-ASCII character anywhere in a message (the undo label's curly
 * quotes, an accent or a dash in a transcript) makes Chromium decode and parse the whole message
 * as two-byte text. Opening a 3-hour transcript (a ~3 MB `transcripts.get` answer) took 154 ms of
 * page CPU ASCII-only, 170 ms with one "é" and 208 ms with curly quotes in it; escaped, 144–145 ms
 * either way. On the host, a 2.7 MB message costs 2 ms more ASCII-only (the test, no copy), 9 ms
 * more with 4,000 curly quotes and 12 ms more with 24,000 accents, of which the socket's UTF-8
 * encoding, cheaper for one-byte text, wins back about 4 ms.
 */
export function toAsciiJson(value: unknown): string {
  const json = JSON.stringify(value);
  if (!nonAscii.test(json)) return json;
  return json.replace(nonAsciiRuns, escapeRun);
}

function escapeRun(run: string): string {
  let escaped = '';
  for (let index = 0; index < run.length; index++) escaped += escapeOf(run.charCodeAt(index));
  return escaped;
}

function escapeOf(codeUnit: number): string {
  let escape = escapes.get(codeUnit);
  if (escape === undefined) {
    escape = `\\u${codeUnit.toString(16).padStart(4, '0')}`;
    escapes.set(codeUnit, escape);
  }
  return escape;
}
