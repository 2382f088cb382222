/**
 * What never reaches the log, enforced in the logger itself so no caller can forget it:
 *
 * - a key: every value the secrets store holds (passed in as `secrets`), an Authorization (or
 *   X-Api-Key, Cookie) header's value, a `Bearer …` credential, `key`/`token`-like fields of
 *   an object or of JSON inside a text, `token=`/`key=` in an address's query, a user name
 *   and password in an address, and strings shaped like keys (`sk-…`, 32+ hex digits);
 * - a transcript's text: fields that carry words (`text`, `words`, `sentences`, `transcript`,
 *   `summary`, `answer`, …) are replaced by their size (`[120 chars]`, `[3 items]`), in an
 *   object or in JSON inside a text. Log ids and counts, never content.
 *
 * Free prose in a message cannot be told from a transcript's words by any rule; callers log
 * ids and counts, and these rules catch what slips through in structured form.
 */

export const redactedKey = '[redacted]';

/** Names of fields whose value is a credential (matched case-insensitively, ignoring _ and -). */
const credentialField =
  /^(authorization|proxyauthorization|cookie|setcookie|password|passwd|secret|clientsecret|token|accesstoken|refreshtoken|idtoken|key|apikey|xapikey|privatekey)$|(key|token|secret|password)$/i;

/** Names of fields that carry a transcript's (or a conversation's) words. */
const contentFields = new Set(
  [
    'text',
    'texts',
    'words',
    'unredacted_words',
    'sentences',
    'paragraphs',
    'utterances',
    'unredacted_utterances',
    'transcript',
    'transcripts_text',
    'content',
    'contents',
    'summary',
    'chapters',
    'gist',
    'headline',
    'highlights',
    'quote',
    'quotes',
    'snippet',
    'answer',
    'question',
    'prompt',
    'messages',
    'delta',
    'instructions',
    'entities',
    'key_phrases',
    'auto_highlights_result',
    'arguments',
    'result',
    'turns',
  ].map(normaliseField),
);

function normaliseField(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

export function isCredentialField(name: string): boolean {
  return credentialField.test(normaliseField(name));
}

export function isContentField(name: string): boolean {
  return contentFields.has(normaliseField(name));
}

/** What a content field is replaced by: its size, never its words. */
export function sizeOf(value: unknown): string {
  if (typeof value === 'string') return `[${value.length} chars]`;
  if (Array.isArray(value)) return `[${value.length} items]`;
  if (value && typeof value === 'object') return `[${Object.keys(value).length} fields]`;
  return '[redacted]';
}

export interface Scrubber {
  /** A message or a formatted detail with every key and content field taken out. */
  text(text: string): string;
  /** A copy of a value with credential fields masked and content fields reduced to their size. */
  value(value: unknown): unknown;
}

export interface ScrubberOptions {
  /** The keys to hide wherever they appear: read at each write, so keys set later are hidden too. */
  secrets?: () => Iterable<string | undefined>;
}

/** The shortest stored secret that is searched for (a shorter one would mask ordinary words). */
const minSecretLength = 6;

const textRules: [RegExp, string | ((...groups: string[]) => string)][] = [
  // A user name and password written into an address.
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+(?::[^\s/@]*)?@/gi, `$1${redactedKey}@`],
  // Header lines and header-like pairs: Authorization: Bearer x, "x-api-key": "x", cookie=x.
  [
    /\b(authorization|proxy-authorization|x-api-key|api-key|cookie|set-cookie)(["']?\s*[:=]\s*["']?)(?:(?:bearer|basic|token)\s+)?[^\s"',;}]+/gi,
    `$1$2${redactedKey}`,
  ],
  [/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{4,}/gi, `$1 ${redactedKey}`],
  // token=…, key=…, api_key=… in an address's query or a form body.
  [
    /([?&;](?:token|key|api_key|apikey|access_token|auth|password|secret|signature|sig)=)[^&#\s"']+/gi,
    `$1${redactedKey}`,
  ],
  // Strings shaped like keys.
  [/\bsk-[A-Za-z0-9_-]{16,}/g, redactedKey],
  [/\b[0-9a-fA-F]{32,}\b/g, redactedKey],
];

const alreadyRedacted = /^"?\[(redacted|\d+ (chars|items|fields))\]"?$/;

/** Matches `"name": ` in JSON or JSON-like text, to look at the value that follows. */
const jsonField = /"([A-Za-z_][A-Za-z0-9_-]*)"\s*:\s*/g;

export function createScrubber(options: ScrubberOptions = {}): Scrubber {
  const secrets = (): string[] => {
    const values: string[] = [];
    for (const secret of options.secrets?.() ?? []) {
      if (secret && secret.length >= minSecretLength) values.push(secret);
    }
    // The longest first, so a key containing another is hidden whole.
    return values.sort((a, b) => b.length - a.length);
  };

  const text = (input: string): string => {
    let output = scrubJsonFields(input);
    for (const secret of secrets()) output = output.split(secret).join(redactedKey);
    for (const [pattern, replacement] of textRules) {
      output = output.replace(pattern, replacement as string);
    }
    return output;
  };

  const value = (input: unknown): unknown => scrubValue(input, text, new WeakSet());
  return { text, value };
}

function scrubValue(input: unknown, text: (s: string) => string, seen: WeakSet<object>): unknown {
  if (typeof input === 'string') return text(input);
  if (typeof input !== 'object' || input === null) return input;
  if (seen.has(input)) return '[circular]';
  seen.add(input);
  if (Array.isArray(input)) return input.map((item) => scrubValue(item, text, seen));
  if (input instanceof Error) return text(String(input));
  const output: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(input as Record<string, unknown>)) {
    if (field === undefined) continue;
    // Whether a key is set (true, null, '') is worth knowing; its value never is.
    if (isCredentialField(name))
      output[name] = field === null || field === '' || typeof field === 'boolean' ? field : redactedKey;
    else if (isContentField(name) && field !== null) output[name] = sizeOf(field);
    else output[name] = scrubValue(field, text, seen);
  }
  return output;
}

/**
 * Finds `"field": value` in JSON-like text (a service's error body, a serialised request) and
 * masks credential fields and reduces content fields to their size. Strings, arrays and objects
 * are skipped as wholes, brackets inside strings included.
 */
function scrubJsonFields(input: string): string {
  if (!input.includes('"')) return input;
  let output = '';
  let from = 0;
  jsonField.lastIndex = 0;
  for (let match = jsonField.exec(input); match; match = jsonField.exec(input)) {
    const name = match[1]!;
    const credential = isCredentialField(name);
    if (!credential && !isContentField(name)) continue;
    const start = match.index + match[0].length;
    const end = endOfJsonValue(input, start);
    if (end <= start) continue;
    const raw = input.slice(start, end);
    // Already reduced (an object's fields are scrubbed before it is written as JSON).
    if (alreadyRedacted.test(raw)) continue;
    const replacement = credential
      ? raw.startsWith('"')
        ? `"${redactedKey}"`
        : redactedKey
      : `"${sizeOf(parseLoosely(raw))}"`;
    output += input.slice(from, start) + replacement;
    from = end;
    jsonField.lastIndex = end;
  }
  return output + input.slice(from);
}

/** The end of a JSON value starting at `start`: a string, an array or object (balanced), or a bare word. */
function endOfJsonValue(text: string, start: number): number {
  const first = text[start];
  if (first === '"') {
    for (let i = start + 1; i < text.length; i++) {
      if (text[i] === '\\') i++;
      else if (text[i] === '"') return i + 1;
    }
    // An unterminated string (a truncated body): everything to the end is the value.
    return text.length;
  }
  if (first === '[' || first === '{') {
    let depth = 0;
    for (let i = start; i < text.length; i++) {
      const char = text[i];
      if (char === '"') {
        for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      } else if (char === '[' || char === '{') depth++;
      else if (char === ']' || char === '}') {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return text.length;
  }
  const bare = /^[^,}\]\s]+/.exec(text.slice(start));
  return start + (bare?.[0].length ?? 0);
}

function parseLoosely(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    // Truncated: a string's length without its quotes, else the text's.
    return raw.startsWith('"') ? raw.slice(1).replace(/"$/, '') : raw;
  }
}
