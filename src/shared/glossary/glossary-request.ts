import {
  defaultSpeechModels,
  limits,
  wordCount,
  type TranscriptionOptions,
} from '../transcription/request-options';
import type { GlossaryEntry } from './glossary';

/**
 * What the glossaries chosen for a new transcription add to its request (issue #21), under the
 * service's rules (../shared/spec/transcription-service.md, "Limits"):
 * - every entry's spelling becomes a `keyterms_prompt` phrase: at most 6 words each, and at most
 *   200 phrases with `universal-2` or 1000 with `universal-3-5-pro` (the smallest limit of the
 *   models asked for, as the options validator counts). The journalist's own key terms go
 *   first; past the limit the most recently used entries are kept and the rest are named.
 * - an entry's misheard forms become a `custom_spelling` item `{ from: [forms], to: spelling }`:
 *   `to` must be one word and each `from` phrase at most 5 words. The real service matches
 *   `from` ignoring case and writes `to` as given (AssemblyAI's documentation of Custom
 *   Spelling; the spec does not show it), so a form claimed by two entries goes to the more
 *   recently used one, and a form that differs from its spelling only in case is still sent.
 * Whatever a rule cannot express is listed with the reason, never dropped silently.
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
  for (const entry of ordered) {
    const forms = entry.misheard.filter((form) => form.trim() !== '' && form.trim() !== entry.term.trim());
    if (forms.length === 0) continue;
    if (/\s/.test(entry.term.trim())) {
      notExpressible.push({
        term: entry.term,
        reason: `Custom spelling can only write a single word, and “${entry.term}” is ${wordCount(entry.term)} words: its misheard forms (${forms.join(', ')}) are not replaced.${keyterms.includes(entry.term) ? ' Its spelling is still sent as a key term.' : ''}`,
      });
      continue;
    }
    for (const form of forms) {
      if (wordCount(form) > limits.customSpellingFromWords) {
        notExpressible.push({
          term: entry.term,
          form,
          reason: `A misheard form has at most ${limits.customSpellingFromWords} words; this one has ${wordCount(form)}.`,
        });
        continue;
      }
      const owner = claimed.get(key(form));
      if (owner !== undefined && owner !== entry.term) {
        notExpressible.push({
          term: entry.term,
          form,
          reason: `“${form}” is already a misheard form of “${owner}”, which wins.`,
        });
        continue;
      }
      if (owner !== undefined) continue;
      claimed.set(key(form), entry.term);
      const item = spellings.get(entry.term) ?? { from: [], to: entry.term };
      item.from.push(form.trim());
      spellings.set(entry.term, item);
    }
  }
  return { keyterms, customSpelling: [...spellings.values()], leftOut, notExpressible };
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
