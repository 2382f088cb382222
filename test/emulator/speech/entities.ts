import { wordSet } from './word-set';
import type { Entity, Word } from './types';

/**
 * Entity detection from patterns and small lexicons, with the real service's entity_type names.
 * It runs on the words before format_text lower-cases them, because capitals are its main clue.
 * Character offsets refer to the words joined with single spaces, which is how PII redaction finds
 * the exact characters to replace inside each word.
 */

export interface DetectedEntity extends Entity {
  charStart: number;
  charEnd: number;
}

const MONTHS = 'January|February|March|April|May|June|July|August|September|October|November|December';

/** Checked in this order; a later pattern never takes characters an earlier one claimed. */
const PATTERNS: { type: string; pattern: RegExp }[] = [
  { type: 'email_address', pattern: /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu },
  {
    type: 'phone_number',
    pattern: /(?<![\w-])(?:\+?1[-. ]?)?(?:\(\d{3}\) ?|\d{3}[-. ])?\d{3}[-. ]\d{4}(?![\w-])/g,
  },
  {
    type: 'money_amount',
    pattern:
      /\$\d[\d,]*(?:\.\d+)?(?: (?:thousand|million|billion|trillion))?|\b\d[\d,]*(?:\.\d+)? (?:(?:thousand|million|billion) )?(?:dollars|euros|pounds)\b/gi,
  },
  {
    type: 'date',
    pattern: new RegExp(
      `\\b(?:${MONTHS}) \\d{1,2}(?:st|nd|rd|th)?(?:,? \\d{4})?\\b|\\b\\d{1,2}/\\d{1,2}/\\d{2,4}\\b`,
      'gi',
    ),
  },
  { type: 'time', pattern: /\b\d{1,2}:\d{2}(?: ?[ap]\.?m\.?)?(?![\w:])/gi },
];

const TITLES = wordSet(
  'mayor mr mrs ms dr councillor councilor senator president professor judge officer ' +
    'captain governor minister sir detective inspector',
);
const ORGANIZATION_ENDINGS = wordSet(
  'gazette ferries times news post herald tribune inc ltd llc corp corporation company bank ' +
    'university college airlines group agency authority foundation institute ministry ' +
    'department council association partners holdings technologies labs',
);
const LOCATION_STARTS = wordSet('port puerto mount lake fort saint san santa new east west');
const LOCATION_ENDINGS = wordSet(
  'island islands city bay street avenue road county valley beach harbor harbour river park ' +
    'square bridge heights',
);
const PLACES = new Set([
  'london',
  'paris',
  'madrid',
  'barcelona',
  'berlin',
  'rome',
  'dublin',
  'seattle',
  'boston',
  'chicago',
  'toronto',
  'canada',
  'spain',
  'france',
  'germany',
  'italy',
  'mexico',
  'europe',
  'america',
  'england',
  'scotland',
  'ireland',
  'texas',
  'california',
  'florida',
  'oregon',
  'washington',
  'new york',
  'los angeles',
  'san francisco',
]);
const FIRST_NAMES = wordSet(
  'daniel elena maria john james mary michael david sarah anna peter paul laura carlos ' +
    'sofia emma thomas robert linda susan mark lisa kevin jennifer george helen william ' +
    'olivia lucas julia ana jose luis grace henry alice',
);
/** Capitalised only because they start a sentence: dropped from the front of a name candidate. */
const SENTENCE_STARTERS = wordSet(
  "i'm i the a an and but or so if when why what how who where we they he she it it's you " +
    'our my this that there here let good thank thanks hi hello yes no well today great dear ' +
    'welcome meet call ask',
);

function lower(token: string): string {
  return token.toLowerCase().replace(/\.$/, '');
}

/** Classifies a run of capitalised tokens, or gives undefined when nothing marks it as an entity. */
function classify(tokens: readonly string[], afterTitle: boolean): string | undefined {
  const first = lower(tokens[0] ?? '');
  const last = lower(tokens[tokens.length - 1] ?? '');
  if (tokens.length >= 2 && ORGANIZATION_ENDINGS.has(last)) return 'organization';
  if (afterTitle) return 'person_name';
  if (PLACES.has(tokens.map(lower).join(' '))) return 'location';
  if (tokens.length >= 2 && (LOCATION_STARTS.has(first) || LOCATION_ENDINGS.has(last))) return 'location';
  if (FIRST_NAMES.has(first)) return 'person_name';
  return undefined;
}

interface Candidate {
  charStart: number;
  tokens: string[];
  afterTitle: boolean;
}

/** Capitalised words separated by single spaces; a full stop ends a run unless it ends a title ("Dr."). */
const CAPITALISED_TOKEN = "(?:(?:Mr|Mrs|Ms|Dr|St)\\.|\\p{Lu}[\\p{L}\\p{M}'’-]*)";
const CAPITALISED_RUN = new RegExp(`${CAPITALISED_TOKEN}(?: ${CAPITALISED_TOKEN})*`, 'gu');

/** Runs of capitalised words, without the sentence starters and titles in front of them. */
function capitalisedRuns(text: string, claimed: Uint8Array): Candidate[] {
  const candidates: Candidate[] = [];
  for (const match of text.matchAll(CAPITALISED_RUN)) {
    let charStart = match.index;
    const tokens = match[0].split(' ');
    let afterTitle = false;
    while (tokens.length > 0) {
      const head = lower(tokens[0] ?? '');
      if (TITLES.has(head)) afterTitle = true;
      else if (!SENTENCE_STARTERS.has(head)) break;
      charStart += (tokens.shift() ?? '').length + 1;
    }
    if (tokens.length === 0 || claimed[charStart] === 1) continue;
    candidates.push({ charStart, tokens, afterTitle });
  }
  return candidates;
}

export function detectEntities(words: readonly Word[]): DetectedEntity[] {
  const text = words.map((word) => word.text).join(' ');
  const wordAt = new Int32Array(text.length);
  let offset = 0;
  words.forEach((word, index) => {
    wordAt.fill(index, offset, offset + word.text.length + 1);
    offset += word.text.length + 1;
  });
  const claimed = new Uint8Array(text.length + 1);
  const found: { type: string; charStart: number; charEnd: number }[] = [];
  const claim = (type: string, charStart: number, charEnd: number): void => {
    if (claimed.subarray(charStart, charEnd).includes(1)) return;
    claimed.fill(1, charStart, charEnd);
    found.push({ type, charStart, charEnd });
  };

  for (const { type, pattern } of PATTERNS) {
    for (const match of text.matchAll(pattern)) claim(type, match.index, match.index + match[0].length);
  }

  // Names: first those with clear evidence; then lone words known from an earlier full form
  // ("Alvarez" after "Elena Alvarez", "Northwind" after "Northwind Ferries").
  const candidates = capitalisedRuns(text, claimed);
  const aliases = new Map<string, string>();
  const unresolved: Candidate[] = [];
  for (const candidate of candidates) {
    const type = classify(candidate.tokens, candidate.afterTitle);
    if (type === undefined) {
      unresolved.push(candidate);
      continue;
    }
    const charEnd = candidate.charStart + candidate.tokens.join(' ').length;
    claim(type, candidate.charStart, charEnd);
    if (candidate.tokens.length >= 2 && type !== 'location') {
      aliases.set(lower(candidate.tokens[0] ?? ''), type);
      if (type === 'person_name')
        aliases.set(lower(candidate.tokens[candidate.tokens.length - 1] ?? ''), type);
    }
  }
  for (const candidate of unresolved) {
    const type = candidate.tokens.length === 1 ? aliases.get(lower(candidate.tokens[0] ?? '')) : undefined;
    if (type !== undefined)
      claim(type, candidate.charStart, candidate.charStart + (candidate.tokens[0] ?? '').length);
  }

  return found
    .sort((a, b) => a.charStart - b.charStart)
    .map(({ type, charStart, charEnd }) => {
      const first = words[wordAt[charStart] ?? 0] as Word;
      const last = words[wordAt[charEnd - 1] ?? 0] as Word;
      return {
        entity_type: type,
        text: text.slice(charStart, charEnd),
        start: first.start,
        end: last.end,
        charStart,
        charEnd,
      };
    });
}
