import { wordSet } from './word-set';
import { roundTo, seededNumber } from './seeded-random';
import type { Sentence, Timestamp } from './types';
import { bareWord, PROFANITY } from './word-transforms';

/**
 * Content moderation from keyword lists, with the real service's label names. Each flagged sentence is
 * one result (sentences_idx_start and sentences_idx_end are inclusive, as in the real service);
 * labels below content_safety_confidence (percent, default 50) are left out.
 */

interface LabelRule {
  keywords: ReadonlySet<string>;
  /** How severe a single mention is (0..1); more mentions in one sentence raise it. */
  severity: number;
}

const LABELS: Record<string, LabelRule> = {
  profanity: { keywords: PROFANITY, severity: 0.35 },
  company_financials: {
    keywords: wordSet('contract million billion budget revenue profit price deal tender earnings'),
    severity: 0.2,
  },
  negative_news: {
    keywords: wordSet('angry disgrace rushed frustration critics scandal crisis protest resign'),
    severity: 0.3,
  },
  crime_violence: {
    keywords: wordSet('crime fraud assault arrest arrested stolen violence murder attack police'),
    severity: 0.6,
  },
  accidents: {
    keywords: wordSet('accident crash collision injured sank capsized'),
    severity: 0.55,
  },
  disasters: {
    keywords: wordSet('flood storm wildfire wildfires earthquake hurricane'),
    severity: 0.5,
  },
  health_issues: {
    keywords: wordSet('illness disease hospital virus cancer injury'),
    severity: 0.45,
  },
  drugs: { keywords: new Set(['cocaine', 'heroin', 'drugs', 'overdose']), severity: 0.7 },
  alcohol: { keywords: new Set(['beer', 'wine', 'alcohol', 'drunk', 'vodka']), severity: 0.3 },
  gambling: { keywords: new Set(['casino', 'gambling', 'betting', 'lottery']), severity: 0.35 },
  weapons: { keywords: wordSet('gun guns rifle weapon weapons knife'), severity: 0.65 },
};

interface SafetyLabel {
  label: string;
  confidence: number;
  severity: number;
}

export interface ContentSafetyResult {
  text: string;
  labels: SafetyLabel[];
  sentences_idx_start: number;
  sentences_idx_end: number;
  timestamp: Timestamp;
}

export interface ContentSafetyLabels {
  status: 'success';
  results: ContentSafetyResult[];
  summary: Record<string, number>;
  severity_score_summary: Record<string, { low: number; medium: number; high: number }>;
}

function labelsOf(sentence: Sentence, minimumConfidence: number): SafetyLabel[] {
  const bare = sentence.words.map((word) => bareWord(word.text));
  return Object.entries(LABELS).flatMap(([label, rule]) => {
    const hits = bare.filter((token) => rule.keywords.has(token)).length;
    if (hits === 0) return [];
    const jitter = seededNumber(`safety:${label}:${sentence.start}`, 0, 0.08);
    const confidence = roundTo(Math.min(0.99, 0.6 + 0.15 * (hits - 1) + jitter), 4);
    const severity = roundTo(Math.min(0.99, rule.severity + 0.15 * (hits - 1) + jitter / 2), 4);
    return confidence >= minimumConfidence ? [{ label, confidence, severity }] : [];
  });
}

function severityBucket(severity: number): 'low' | 'medium' | 'high' {
  return severity < 0.4 ? 'low' : severity < 0.7 ? 'medium' : 'high';
}

export function contentSafety(
  sentences: readonly Sentence[],
  confidencePercent: number,
): ContentSafetyLabels {
  const results: ContentSafetyResult[] = [];
  sentences.forEach((sentence, index) => {
    const labels = labelsOf(sentence, confidencePercent / 100);
    if (labels.length === 0) return;
    results.push({
      text: sentence.text,
      labels,
      sentences_idx_start: index,
      sentences_idx_end: index,
      timestamp: { start: sentence.start, end: sentence.end },
    });
  });
  const summary: Record<string, number> = {};
  const buckets: Record<string, { low: number; medium: number; high: number }> = {};
  for (const { labels } of results) {
    for (const { label, confidence, severity } of labels) {
      summary[label] = Math.max(summary[label] ?? 0, confidence);
      buckets[label] ??= { low: 0, medium: 0, high: 0 };
      buckets[label][severityBucket(severity)]++;
    }
  }
  const severityScoreSummary = Object.fromEntries(
    Object.entries(buckets).map(([label, counts]) => {
      const total = counts.low + counts.medium + counts.high;
      return [
        label,
        {
          low: roundTo(counts.low / total, 4),
          medium: roundTo(counts.medium / total, 4),
          high: roundTo(counts.high / total, 4),
        },
      ];
    }),
  );
  return { status: 'success', results, summary, severity_score_summary: severityScoreSummary };
}
