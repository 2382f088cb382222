import { roundTo } from './seeded-random';
import type { Paragraph, Timestamp } from './types';
import { bareWord } from './word-transforms';

/**
 * Topic detection: keywords vote for IAB-style labels (levels joined by ">", spelled as the real
 * service spells them); one result per paragraph that mentions any, relevance being each label's share
 * of the paragraph's votes. The summary gives each label's relevance over the whole file (top = 1).
 */

const TOPIC_KEYWORDS: Record<string, string> = {
  'BusinessAndFinance>Industries>LogisticsAndTransportationIndustry':
    'ferry ferries boat boats sailing crossing pier harbour harbor port transport transbordador viaje',
  'NewsAndPolitics>Politics': 'mayor council city residents election vote government policy ayuntamiento',
  'BusinessAndFinance>Business>GovernmentBusiness': 'contract tender deal agreement awarded contrato',
  'BusinessAndFinance>Economy': 'million billion price budget cost tax money economy',
  'NewsAndPolitics>LocalNews': 'gazette newspaper press journalist listeners statement news',
  'Travel>TravelLocations>Islands': 'island islands coast beach',
  'NewsAndPolitics>Weather': 'weather storm rain wind forecast',
  Education: 'school schools teacher students education',
  MedicalHealth: 'health hospital doctor patients medicine',
  'Technology&Computing': 'technology computer software internet app',
  Sports: 'football soccer match team league tournament',
};

const LABEL_OF_KEYWORD = new Map(
  Object.entries(TOPIC_KEYWORDS).flatMap(([label, keywords]) =>
    keywords.split(' ').map((keyword) => [keyword, label] as const),
  ),
);

export interface TopicResult {
  text: string;
  labels: { relevance: number; label: string }[];
  timestamp: Timestamp;
}

export interface IabCategoriesResult {
  status: 'success';
  results: TopicResult[];
  summary: Record<string, number>;
}

export function topicDetection(paragraphs: readonly Paragraph[]): IabCategoriesResult {
  const results: TopicResult[] = [];
  const totals = new Map<string, number>();
  for (const paragraph of paragraphs) {
    const votes = new Map<string, number>();
    for (const word of paragraph.words) {
      const label = LABEL_OF_KEYWORD.get(bareWord(word.text));
      if (label !== undefined) votes.set(label, (votes.get(label) ?? 0) + 1);
    }
    if (votes.size === 0) continue;
    const voteCount = [...votes.values()].reduce((sum, count) => sum + count, 0);
    const labels = [...votes.entries()]
      .map(([label, count]) => ({ relevance: roundTo(count / voteCount, 4), label }))
      .sort((a, b) => b.relevance - a.relevance || a.label.localeCompare(b.label));
    for (const { label, relevance } of labels) totals.set(label, (totals.get(label) ?? 0) + relevance);
    results.push({ text: paragraph.text, labels, timestamp: { start: paragraph.start, end: paragraph.end } });
  }
  const top = Math.max(0, ...totals.values());
  const summary = Object.fromEntries(
    [...totals.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([label, total]) => [label, roundTo(total / top, 4)]),
  );
  return { status: 'success', results, summary };
}
