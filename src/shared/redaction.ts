import { readAnalyses, type Analyses, type RedactedKind } from './analyses';

/**
 * What a journalist may see of a redacted transcript, everywhere the app shows or exports text.
 *
 * The service redacts only the transcript's own words (text, words, utterances, and so the
 * sentences and paragraphs cut from them). Its documentation warns that the other analyses may
 * still carry the details: entities, summaries, key phrases, chapters, sentiment and content
 * safety are all made from the unredacted words. So every text those analyses hold goes through
 * `textAsShown` before it is shown, exported or sent anywhere, unless the journalist chose the
 * original words.
 *
 * Which details to hide is learned from what the service itself says:
 * - where it returned the unredacted words as well, each word that differs from its redacted twin
 *   (matched by start time) is a detail, and the redacted word shows how it is written;
 * - every entity of a redacted type (`redact_pii_policies`, or every type when no policy list
 *   was given) is a detail even without the unredacted words, written with the substitution the
 *   redacted words show (else `redact_pii_sub`): `hash` turns each letter and digit into "#" ("555-0142" → "###-####"), and
 *   `entity_name` puts "[PHONE_NUMBER]" in place of each word of the entity, as the service
 *   does in the words themselves ("My name is ####. ####.").
 */

export type TextChoice = 'redacted' | 'original';

type Json = Record<string, unknown>;

/** The details of one transcript in clear (folded to lower case) and how the redacted words show them. */
export interface Redaction {
  forms: ReadonlyMap<string, string>;
  /** Finds any of them as a whole (not inside a longer word); null when there is nothing to hide. */
  pattern: RegExp | null;
}

/** What a word list of the service or the library needs here. */
export interface TimedText {
  start: number;
  text: string;
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;
const timedTexts = (value: unknown): TimedText[] =>
  Array.isArray(value)
    ? value.filter(
        (item): item is TimedText =>
          isObject(item) && typeof item.start === 'number' && typeof item.text === 'string',
      )
    : [];

const letterOrDigit = /[\p{L}\p{N}]/gu;

/** The marks the service writes in place of a detail: "#" for each letter and digit, or "[PHONE_NUMBER]". */
const redactionMark = /#|\[[A-Z_]+\]/;

/**
 * Whether a text of a redacted transcript shows a redacted detail: a word the service redacted
 * (its audio speaks the detail), or an analysis' text once `textAsShown` hid a detail in it.
 */
export function showsRedaction(text: string): boolean {
  return redactionMark.test(text);
}

/** The unredacted word text by start time, where the service returned it alongside the redacted words. */
function unredactedByStart(transcript: Record<string, unknown> | null): Map<number, string> | null {
  const words = timedTexts(transcript?.unredacted_words);
  return words.length > 0 ? new Map(words.map((word) => [word.start, word.text])) : null;
}

/**
 * Whether hiding details in this transcript's analyses reads its words: only a redacted one's
 * (or one with the unredacted words kept beside) does. Lets a view skip gathering 30,000 words
 * on every correction of a transcript that was never redacted.
 */
export function redactionReadsWords(transcript: Record<string, unknown> | null): boolean {
  return transcript?.redact_pii === true || timedTexts(transcript?.unredacted_words).length > 0;
}

/**
 * The journalist's choice as it can be honoured: the original words exist only where the service
 * kept them (redact_pii_return_unredacted); otherwise everything stays redacted.
 */
export function effectiveChoice(transcript: Record<string, unknown> | null, choice: TextChoice): TextChoice {
  const kept = transcript?.unredacted_words;
  return choice === 'original' && Array.isArray(kept) && kept.length > 0 ? 'original' : 'redacted';
}

/** An entity's text as the service's substitution writes it in the redacted words. */
export function substitute(text: string, entityType: string, sub: 'hash' | 'entity_name'): string {
  if (sub === 'hash') return text.replace(letterOrDigit, '#');
  const marker = `[${entityType.toUpperCase()}]`;
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map(() => marker)
    .join(' ');
}

/** The part of a word that redaction changed, without the punctuation both forms share. */
function changedPart(original: string, redacted: string): { original: string; redacted: string } {
  let head = 0;
  while (head < original.length && head < redacted.length && original[head] === redacted[head]) head++;
  let tail = 0;
  while (
    tail < original.length - head &&
    tail < redacted.length - head &&
    original[original.length - 1 - tail] === redacted[redacted.length - 1 - tail]
  )
    tail++;
  return {
    original: original.slice(head, original.length - tail),
    redacted: redacted.slice(head, redacted.length - tail),
  };
}

/**
 * How the transcript's words were redacted. The words say it best; `redact_pii_sub` is read when
 * no redacted word shows it, and the service's default is `hash`.
 */
function substitutionOf(t: Json, words: readonly TimedText[]): 'hash' | 'entity_name' {
  if (words.some((word) => /\[[A-Z_]+\]/.test(word.text))) return 'entity_name';
  if (words.some((word) => word.text.includes('#') && word.text.search(letterOrDigit) < 0)) return 'hash';
  return t.redact_pii_sub === 'entity_name' ? 'entity_name' : 'hash';
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The details to hide in one transcript. `words` are its redacted words where the JSON no longer
 * carries them (the reader gets them with the sentences); by default the JSON's own `words`.
 */
export function redactionOf(
  transcript: Record<string, unknown> | null,
  words: readonly TimedText[] = timedTexts(transcript?.words),
): Redaction {
  const t: Json = transcript ?? {};
  const forms = new Map<string, string>();
  const add = (original: string, redacted: string): void => {
    // Only a detail with a letter or digit can be told apart from the text around it.
    if (original === redacted || original.search(letterOrDigit) < 0) return;
    forms.set(original.toLocaleLowerCase(), redacted);
  };

  const originals = unredactedByStart(transcript);
  if (originals) {
    for (const word of words) {
      const original = originals.get(word.start);
      if (original === undefined || original === word.text) continue;
      const part = changedPart(original, word.text);
      add(part.original, part.redacted);
    }
  }

  if (t.redact_pii === true) {
    const policies = Array.isArray(t.redact_pii_policies) ? new Set(t.redact_pii_policies) : null;
    const sub = substitutionOf(t, words);
    for (const entity of Array.isArray(t.entities) ? t.entities.filter(isObject) : []) {
      const { text, entity_type: type } = entity;
      if (typeof text !== 'string' || typeof type !== 'string') continue;
      if (policies && !policies.has(type)) continue;
      // The words' own form wins: it is what the transcript shows.
      if (!forms.has(text.toLocaleLowerCase())) add(text, substitute(text, type, sub));
    }
  }

  // Longest first, so "Elena Alvarez" is hidden whole before "Elena" could be.
  const details = [...forms.keys()].sort((a, b) => b.length - a.length);
  const pattern =
    details.length > 0
      ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${details.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'giu')
      : null;
  return { forms, pattern };
}

/** A text from the service's analyses as the journalist may see it. */
export function textAsShown(text: string, redaction: Redaction, choice: TextChoice): string {
  if (choice === 'original' || !redaction.pattern) return text;
  return text.replace(
    redaction.pattern,
    (match) => redaction.forms.get(match.toLocaleLowerCase()) ?? match.replace(letterOrDigit, '#'),
  );
}

/**
 * A transcript's words as the journalist may see them: the redacted words, or the unredacted
 * ones where the journalist chose the original and the service kept them.
 */
export function wordsAsShown(
  words: readonly TimedText[],
  transcript: Record<string, unknown> | null,
  choice: TextChoice,
): string[] {
  const originals = choice === 'original' ? unredactedByStart(transcript) : null;
  return words.map((word) => originals?.get(word.start) ?? word.text);
}

/** Copies an object with some of its string fields passed through `shown`. */
function mapStrings(value: Json, keys: readonly string[], shown: (text: string) => string): Json {
  const copy: Json = { ...value };
  for (const key of keys) if (typeof copy[key] === 'string') copy[key] = shown(copy[key]);
  return copy;
}

const mapList = (value: unknown, map: (item: Json) => Json): unknown =>
  Array.isArray(value) ? (value as unknown[]).map((item) => (isObject(item) ? map(item) : item)) : value;
const items = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]) : []);

/**
 * Key phrases that read the same once redacted ("call 555-0142", "call 555-0199") become one,
 * with every moment each was said: the reader lists each phrase once.
 */
function mergeKeyPhrases(results: unknown): unknown {
  if (!Array.isArray(results)) return results;
  const merged = new Map<string, Json>();
  const others: unknown[] = [];
  for (const item of items(results)) {
    if (!isObject(item) || typeof item.text !== 'string') {
      others.push(item);
      continue;
    }
    const key = item.text.toLocaleLowerCase();
    const seen = merged.get(key);
    if (!seen) {
      merged.set(key, item);
      continue;
    }
    const count = (n: unknown): number => (typeof n === 'number' ? n : 0);
    merged.set(key, {
      ...seen,
      count: count(seen.count) + count(item.count),
      rank: Math.max(count(seen.rank), count(item.rank)),
      timestamps: [...items(seen.timestamps), ...items(item.timestamps)],
    });
  }
  return [...merged.values(), ...others];
}

/**
 * The service's transcript JSON with the text of every analysis as the journalist may see it.
 * Everything else (unredacted words included, which the reader's toggle needs) is left as is.
 */
export function transcriptAsShown(
  transcript: Record<string, unknown> | null,
  choice: TextChoice,
  words?: readonly TimedText[],
): Record<string, unknown> | null {
  if (!transcript || effectiveChoice(transcript, choice) === 'original') return transcript;
  // Nothing to hide (not redacted, no original words kept): no need to read every word.
  if (!redactionReadsWords(transcript)) return transcript;
  const redaction = redactionOf(transcript, words);
  if (!redaction.pattern) return transcript;
  const shown = (text: string): string => textAsShown(text, redaction, 'redacted');
  const t: Json = { ...transcript };
  t.entities = mapList(t.entities, (e) => mapStrings(e, ['text'], shown));
  if (isObject(t.auto_highlights_result)) {
    const results = mapList(t.auto_highlights_result.results, (r) => mapStrings(r, ['text'], shown));
    t.auto_highlights_result = { ...t.auto_highlights_result, results: mergeKeyPhrases(results) };
  }
  if (typeof t.summary === 'string') t.summary = shown(t.summary);
  t.chapters = mapList(t.chapters, (c) => mapStrings(c, ['headline', 'gist', 'summary'], shown));
  t.sentiment_analysis_results = mapList(t.sentiment_analysis_results, (s) => mapStrings(s, ['text'], shown));
  if (isObject(t.content_safety_labels)) {
    t.content_safety_labels = {
      ...t.content_safety_labels,
      results: mapList(t.content_safety_labels.results, (r) => mapStrings(r, ['text'], shown)),
    };
  }
  // The service translates the redacted text; hiding again is harmless and covers a service that does not.
  if (isObject(t.translated_texts)) {
    t.translated_texts = Object.fromEntries(
      Object.entries(t.translated_texts).map(([language, text]) => [
        language,
        typeof text === 'string' ? shown(text) : text,
      ]),
    );
  }
  return t;
}

/** The kinds of detail a journalist most often protects, as they say them; others read as the service names them. */
const kindNames: Readonly<Record<string, string>> = {
  person_name: 'person',
  email_address: 'e-mail',
  phone_number: 'phone number',
};

const kindName = (entityType: string): string => kindNames[entityType] ?? entityType.replace(/_/g, ' ');

/**
 * The entities the redacted view may list, and the redacted ones counted by kind. A redacted
 * entity is never listed, even with its marks ("###-####" tells a reader nothing and offers a
 * glossary a string of hashes): it is counted once per detail (two phone numbers hashed alike are
 * two), by kind in the order they are first mentioned.
 */
function splitRedactedEntities(
  raw: unknown,
  shown: unknown,
): { entities: unknown[]; redactedEntities: RedactedKind[] } {
  const rawItems = items(raw);
  const entities: unknown[] = [];
  const details = new Map<string, Set<string>>();
  items(shown).forEach((entity, index) => {
    const type = isObject(entity) && typeof entity.entity_type === 'string' ? entity.entity_type : null;
    if (
      !isObject(entity) ||
      type === null ||
      typeof entity.text !== 'string' ||
      !showsRedaction(entity.text)
    ) {
      entities.push(entity);
      return;
    }
    // transcriptAsShown maps the entities one to one, so the original is at the same place.
    const original = rawItems[index];
    const detail = isObject(original) && typeof original.text === 'string' ? original.text : entity.text;
    const kind = kindName(type);
    details.set(kind, (details.get(kind) ?? new Set()).add(detail.toLocaleLowerCase()));
  });
  return {
    entities,
    redactedEntities: [...details].map(([kind, texts]) => ({ kind, count: texts.size })),
  };
}

/** "3 redacted: phone number ×2, e-mail": what the redacted view says instead of listing them; null when none. */
export function redactedEntitiesLine(kinds: readonly RedactedKind[]): string | null {
  if (kinds.length === 0) return null;
  const total = kinds.reduce((sum, kind) => sum + kind.count, 0);
  const parts = kinds.map((kind) => (kind.count > 1 ? `${kind.kind} ×${kind.count}` : kind.kind));
  return `${total} redacted: ${parts.join(', ')}`;
}

/** The analyses panels' content as the journalist may see it. */
export function analysesAsShown(
  transcript: Record<string, unknown> | null,
  choice: TextChoice,
  words?: readonly TimedText[],
): Analyses {
  const shown = transcriptAsShown(transcript, choice, words);
  if (!shown || transcript?.redact_pii !== true || effectiveChoice(transcript, choice) === 'original')
    return readAnalyses(shown);
  const { entities, redactedEntities } = splitRedactedEntities(transcript.entities, shown.entities);
  return { ...readAnalyses({ ...shown, entities }), redactedEntities };
}
