/**
 * The analyses in a service transcript, read defensively: the JSON comes from outside, so
 * every field is checked and anything malformed is left out rather than trusted.
 */

export interface Occurrences {
  text: string;
  /** Entity type, or the number of times a key phrase was said. */
  detail: string;
  starts: number[];
}
export interface SentimentSpan {
  start: number;
  end: number;
  sentiment: 'POSITIVE' | 'NEUTRAL' | 'NEGATIVE';
  text: string;
}
export interface SafetyFlag {
  text: string;
  start: number;
  labels: { label: string; confidence: number; severity: number }[];
}
export interface Topic {
  label: string;
  relevance: number;
}
export interface Chapter {
  headline: string;
  gist: string;
  summary: string;
  start: number;
  end: number;
}
/** Redacted entities of one kind, counted rather than listed (redaction.ts decides which). */
export interface RedactedKind {
  /** The kind as a journalist says it: "phone number", "e-mail", "person". */
  kind: string;
  /** How many different details of that kind were redacted. */
  count: number;
}
export interface Analyses {
  keyPhrases: Occurrences[];
  entities: Occurrences[];
  /** The redacted entities, by kind; only the redacted view has any. */
  redactedEntities: RedactedKind[];
  sentiment: SentimentSpan[];
  safety: SafetyFlag[];
  topics: Topic[];
  chapters: Chapter[];
  summary: string | null;
  translations: { language: string; text: string }[];
  hasUnredacted: boolean;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);
const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function readAnalyses(transcript: Record<string, unknown> | null): Analyses {
  const t: Json = transcript ?? {};
  return {
    keyPhrases: keyPhrases(t.auto_highlights_result),
    entities: entities(t.entities),
    redactedEntities: [],
    sentiment: list(t.sentiment_analysis_results).flatMap((item) => {
      const start = num(item.start);
      const end = num(item.end);
      const sentiment = item.sentiment;
      if (start === null || end === null) return [];
      if (sentiment !== 'POSITIVE' && sentiment !== 'NEUTRAL' && sentiment !== 'NEGATIVE') return [];
      return [{ start, end, sentiment, text: str(item.text) ?? '' }];
    }),
    safety: isObject(t.content_safety_labels)
      ? list(t.content_safety_labels.results).map((item) => ({
          text: str(item.text) ?? '',
          start: num(isObject(item.timestamp) ? item.timestamp.start : null) ?? 0,
          labels: list(item.labels).map((label) => ({
            label: str(label.label) ?? '',
            confidence: num(label.confidence) ?? 0,
            severity: num(label.severity) ?? 0,
          })),
        }))
      : [],
    topics:
      isObject(t.iab_categories_result) && isObject(t.iab_categories_result.summary)
        ? Object.entries(t.iab_categories_result.summary)
            .flatMap(([label, relevance]) => {
              const value = num(relevance);
              return value === null ? [] : [{ label, relevance: value }];
            })
            .sort((a, b) => b.relevance - a.relevance)
        : [],
    chapters: list(t.chapters).flatMap((item) => {
      const start = num(item.start);
      const end = num(item.end);
      if (start === null || end === null) return [];
      return [
        {
          headline: str(item.headline) ?? '',
          gist: str(item.gist) ?? '',
          summary: str(item.summary) ?? '',
          start,
          end,
        },
      ];
    }),
    summary: str(t.summary)?.trim() || null,
    translations: isObject(t.translated_texts)
      ? Object.entries(t.translated_texts).flatMap(([language, text]) =>
          typeof text === 'string' ? [{ language, text }] : [],
        )
      : [],
    hasUnredacted: Array.isArray(t.unredacted_words) && t.unredacted_words.length > 0,
  };
}

function keyPhrases(result: unknown): Occurrences[] {
  if (!isObject(result)) return [];
  return list(result.results)
    .map((item) => ({
      text: str(item.text) ?? '',
      detail: `${num(item.count) ?? 0}×`,
      rank: num(item.rank) ?? 0,
      starts: list(item.timestamps)
        .map((stamp) => num(stamp.start))
        .filter((start): start is number => start !== null)
        .sort((a, b) => a - b),
    }))
    .filter((item) => item.text)
    .sort((a, b) => b.rank - a.rank)
    .map(({ text, detail, starts }) => ({ text, detail, starts }));
}

/** Entities grouped by type and text, each with every moment it is mentioned. */
function entities(value: unknown): Occurrences[] {
  const groups = new Map<string, Occurrences>();
  for (const item of list(value)) {
    const text = str(item.text);
    const type = str(item.entity_type);
    const start = num(item.start);
    if (!text || !type || start === null) continue;
    const key = `${type}\u0000${text.toLocaleLowerCase()}`;
    const group = groups.get(key) ?? { text, detail: type.replace(/_/g, ' '), starts: [] };
    group.starts.push(start);
    groups.set(key, group);
  }
  return [...groups.values()].sort(
    (a, b) => b.starts.length - a.starts.length || a.text.localeCompare(b.text),
  );
}
