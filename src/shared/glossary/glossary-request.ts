import {
  defaultSpeechModels,
  limits,
  wordCount,
  type TranscriptionOptions,
} from '../transcription/request-options';
import { formsInsideSpelling, insideSpellingReason, type GlossaryEntry } from './glossary';

/**
 * What the glossaries chosen for a new transcription add to its request (issue #21), under the
 * service's rules (../shared/spec/transcription-service.md, "Limits"):
 * - every entry's spelling becomes a `keyterms_prompt` phrase: at most 6 words each, and at most
 *   200 phrases with `universal-2` or 1000 with `universal-3-5-pro` (the smallest limit of the
 *   models asked for, as the options validator counts). The journalist's own key terms go
 *   first; past the limit the most recently used entries are kept and the rest are named.
 * - an entry's misheard forms become a `custom_spelling` item `{ from: [forms], to: spelling }`:
 *   `to` must be one word and each `from` phrase at most 5 words. A form that is part of the
 *   spelling itself ("Northwind" of "Northwind Ferries", "Hassan" of "Al-Hassan") is never sent:
 *   the service would write the name twice wherever the recording says it right. The real service matches
 *   `from` ignoring case and writes `to` as given (AssemblyAI's documentation of Custom
 *   Spelling; the spec does not show it), so a form claimed by two entries goes to the more
 *   recently used one, and a form that differs from its spelling only in case is still sent.
 * Whatever a rule cannot express is listed with the reason, never dropped silently, and once per
 * spelling (its reasons together) however many glossaries have it.
 */
export interface GlossaryContribution {
  keyterms: string[];
  customSpelling: { from: string[]; to: string }[];
  /** Spellings not sent as key terms because the model's limit was reached (least recently used). */
  leftOut: string[];
  /** What the service's rules cannot express, each with why. */
  notExpressible: { term: string; form?: string; reason: string }[];
}

const key = (text: string): string => text.trim().toLocaleLowerCase();

/** The smallest key-term limit of the speech models the options ask for (or the service's default ones). */
export function keytermLimit(options: Pick<TranscriptionOptions, 'speech_models'>): number {
  const models = options.speech_models ?? defaultSpeechModels;
  return Math.min(...models.map((model) => limits.keytermsPerModel[model]));
}

export function glossaryContribution(
  entries: readonly GlossaryEntry[],
  options: Pick<TranscriptionOptions, 'speech_models' | 'keyterms_prompt' | 'custom_spelling'> = {},
): GlossaryContribution {
  // The most recently used first; among equals, in the order of the spellings, so the result is stable.
  const ordered = [...entries].sort((a, b) => b.usedAt - a.usedAt || a.term.localeCompare(b.term));
  const notExpressible: GlossaryContribution['notExpressible'] = [];

  const ownTerms = new Set((options.keyterms_prompt ?? []).map(key));
  const room = Math.max(0, keytermLimit(options) - ownTerms.size);
  const keyterms: string[] = [];
  const leftOut: string[] = [];
  const seenTerms = new Set(ownTerms);
  for (const entry of ordered) {
    if (seenTerms.has(key(entry.term))) continue;
    seenTerms.add(key(entry.term));
    if (wordCount(entry.term) > limits.wordsPerKeyterm) {
      notExpressible.push({
        term: entry.term,
        reason: `A key term has at most ${limits.wordsPerKeyterm} words; this one has ${wordCount(entry.term)}.`,
      });
      continue;
    }
    if (keyterms.length < room) keyterms.push(entry.term);
    else leftOut.push(entry.term);
  }

  // Forms the journalist already spelled in the form's own custom spelling keep their spelling.
  const claimed = new Map<string, string>();
  for (const item of options.custom_spelling ?? [])
    for (const form of item.from) claimed.set(key(form), item.to);
  const spellings = new Map<string, { from: string[]; to: string }>();
  for (const { term, forms: all } of bySpelling(ordered)) {
    if (all.length === 0) continue;
    const inside = formsInsideSpelling(term, all);
    const forms = all.filter((form) => !inside.includes(form));
    const multiWord = /\s/.test(term.trim());
    const reasons = [
      ...(inside.length > 0 ? [insideSpellingReason(term, inside)] : []),
      ...(multiWord && forms.length > 0
        ? [
            `Custom spelling can only write a single word, and “${term}” is ${wordCount(term)} words: its misheard forms (${forms.join(', ')}) are not replaced.`,
          ]
        : []),
    ];
    if (reasons.length > 0) {
      if (keyterms.includes(term)) reasons.push('Its spelling is still sent as a key term.');
      notExpressible.push({ term, reason: reasons.join(' ') });
    }
    if (multiWord) continue;
    for (const form of forms) {
      if (wordCount(form) > limits.customSpellingFromWords) {
        notExpressible.push({
          term,
          form,
          reason: `A misheard form has at most ${limits.customSpellingFromWords} words; this one has ${wordCount(form)}.`,
        });
        continue;
      }
      const owner = claimed.get(key(form));
      if (owner !== undefined && owner !== term) {
        notExpressible.push({
          term,
          form,
          reason: `“${form}” is already a misheard form of “${owner}”, which wins.`,
        });
        continue;
      }
      if (owner !== undefined) continue;
      claimed.set(key(form), term);
      const item = spellings.get(term) ?? { from: [], to: term };
      item.from.push(form);
      spellings.set(term, item);
    }
  }
  return {
    keyterms,
    customSpelling: [...spellings.values()],
    leftOut,
    notExpressible: onceEach(notExpressible),
  };
}

/**
 * Entries of one spelling (the same name in several glossaries, ignoring case) as one, with all
 * their misheard forms once each, without the spelling itself: what is said about a name is said
 * once per transcription.
 */
function bySpelling(ordered: readonly GlossaryEntry[]): { term: string; forms: string[] }[] {
  const groups = new Map<string, { term: string; forms: string[] }>();
  for (const entry of ordered) {
    const group = groups.get(key(entry.term)) ?? { term: entry.term, forms: [] };
    groups.set(key(entry.term), group);
    for (const misheard of entry.misheard) {
      const form = misheard.trim();
      if (form === '' || form === entry.term.trim() || group.forms.some((known) => key(known) === key(form)))
        continue;
      group.forms.push(form);
    }
  }
  return [...groups.values()];
}

/** What cannot be sent, one item per spelling (its reasons together) and one per form. */
function onceEach(problems: GlossaryContribution['notExpressible']): GlossaryContribution['notExpressible'] {
  const merged = new Map<string, GlossaryContribution['notExpressible'][number]>();
  for (const problem of problems) {
    const at = `${key(problem.term)}\u0000${problem.form === undefined ? '' : key(problem.form)}`;
    const known = merged.get(at);
    if (!known) merged.set(at, { ...problem });
    else if (!known.reason.includes(problem.reason)) known.reason = `${known.reason} ${problem.reason}`;
  }
  return [...merged.values()];
}

/** The options with the glossaries' contribution after the journalist's own key terms and spellings. */
export function withGlossaries<T extends TranscriptionOptions>(
  options: T,
  contribution: GlossaryContribution,
): T {
  const keyterms = [...(options.keyterms_prompt ?? []), ...contribution.keyterms];
  const spelling = [...(options.custom_spelling ?? []), ...contribution.customSpelling];
  return {
    ...options,
    ...(keyterms.length > 0 ? { keyterms_prompt: keyterms } : {}),
    ...(spelling.length > 0 ? { custom_spelling: spelling } : {}),
  };
}
