import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  analysesAsShown,
  effectiveChoice,
  redactedEntitiesLine,
  redactionOf,
  showsRedaction,
  substitute,
  textAsShown,
  transcriptAsShown,
  wordsAsShown,
} from './redaction';

/**
 * Transcripts shaped as the service returns them with redact_pii on. The emulator's own
 * interview, transcribed the same way, is the fixture of the per-surface tests in main
 * (src/main/core/library/redacted-interview.ts); these pin the rules case by case.
 */
const phone = '555-0142';
const email = 'mayor@porthollow.gov';

const word = (text: string, start: number) => ({ text, start, end: start + 200, confidence: 0.9 });
const spoken = ['They', 'can', 'call', phone, 'or', 'write', 'to', `${email}.`, 'Ana', 'said.'];
const starts = spoken.map((_, i) => 1000 + i * 300);

function transcript(options: { sub: 'hash' | 'entity_name'; keepUnredacted: boolean }) {
  const redactedWord = (text: string): string => {
    const sub = options.sub;
    if (text === phone) return substitute(phone, 'phone_number', sub);
    if (text === `${email}.`) return `${substitute(email, 'email_address', sub)}.`;
    if (text === 'Ana') return substitute('Ana', 'person_name', sub);
    return text;
  };
  const words = spoken.map((text, i) => word(redactedWord(text), starts[i] ?? 0));
  const sentence = `They can call ${phone} or write to ${email}. Ana said.`;
  return {
    redact_pii: true,
    redact_pii_policies: ['phone_number', 'email_address', 'person_name'],
    redact_pii_sub: options.sub,
    text: words.map((w) => w.text).join(' '),
    words,
    ...(options.keepUnredacted
      ? { unredacted_words: spoken.map((text, i) => word(text, starts[i] ?? 0)) }
      : {}),
    entities: [
      { entity_type: 'phone_number', text: phone, start: starts[3], end: (starts[3] ?? 0) + 200 },
      { entity_type: 'email_address', text: email, start: starts[7], end: (starts[7] ?? 0) + 200 },
      { entity_type: 'person_name', text: 'Ana', start: starts[8], end: (starts[8] ?? 0) + 200 },
      { entity_type: 'location', text: 'Port Hollow', start: 9000, end: 9500 },
    ],
    auto_highlights_result: {
      status: 'success',
      results: [
        { text: `call ${phone}`, count: 1, rank: 0.9, timestamps: [{ start: starts[2], end: starts[3] }] },
        { text: 'ferry contract', count: 2, rank: 0.5, timestamps: [{ start: 100, end: 400 }] },
        { text: 'banana bread', count: 1, rank: 0.4, timestamps: [{ start: 500, end: 800 }] },
      ],
    },
    summary: `- The office takes calls on ${phone} and mail at ${email.toUpperCase()}.`,
    chapters: [{ headline: sentence, gist: `Write to ${email}`, summary: sentence, start: 0, end: 4000 }],
    sentiment_analysis_results: [{ text: sentence, start: 1000, end: 4000, sentiment: 'NEUTRAL' }],
    content_safety_labels: {
      status: 'success',
      results: [{ text: sentence, labels: [], timestamp: { start: 1000, end: 4000 } }],
    },
    translated_texts: { es: `Pueden llamar al ${phone}.` },
  } as Record<string, unknown>;
}

/** Every text the analyses panels show, as one string. */
function everything(json: Record<string, unknown>, choice: 'redacted' | 'original'): string {
  const a = analysesAsShown(json, choice);
  return JSON.stringify([
    a.entities,
    a.keyPhrases,
    a.summary,
    a.chapters,
    a.sentiment,
    a.safety,
    a.translations,
  ]);
}

describe('what a journalist may see of a redacted transcript', () => {
  it('hides each detail the way the redacted words show it, in every analysis', () => {
    const json = transcript({ sub: 'entity_name', keepUnredacted: true });
    const shown = everything(json, 'redacted');
    expect(shown).not.toContain(phone);
    expect(shown.toLowerCase()).not.toContain(email);
    expect(shown).not.toMatch(/\bAna\b/);
    expect(shown).toContain('[PHONE_NUMBER]');
    expect(shown).toContain('[EMAIL_ADDRESS]');

    const a = analysesAsShown(json, 'redacted');
    // A redacted entity is counted by its kind, never listed as its marks; a type the policies
    // leave alone stays readable.
    expect(a.entities.map((e) => [e.text, e.detail])).toEqual([['Port Hollow', 'location']]);
    expect(redactedEntitiesLine(a.redactedEntities)).toBe('3 redacted: phone number, e-mail, person');
    expect(a.keyPhrases.map((k) => k.text)).toEqual([
      'call [PHONE_NUMBER]',
      'ferry contract',
      'banana bread',
    ]);
    expect(a.summary).toBe('- The office takes calls on [PHONE_NUMBER] and mail at [EMAIL_ADDRESS].');
    expect(a.sentiment[0]?.text).toBe(
      'They can call [PHONE_NUMBER] or write to [EMAIL_ADDRESS]. [PERSON_NAME] said.',
    );
    expect(a.chapters[0]?.gist).toBe('Write to [EMAIL_ADDRESS]');
    // The words the reader's toggle needs are left in place.
    expect(a.hasUnredacted).toBe(true);
  });

  it('shows the original text of every analysis when the journalist chooses it', () => {
    const json = transcript({ sub: 'entity_name', keepUnredacted: true });
    const shown = everything(json, 'original');
    expect(shown).toContain(phone);
    expect(shown).toContain(email);
    expect(transcriptAsShown(json, 'original')).toBe(json);
  });

  it('hashes details with the hash substitution, from the entities alone when the service kept no unredacted words', () => {
    const json = transcript({ sub: 'hash', keepUnredacted: false });
    const redaction = redactionOf(json);
    expect(textAsShown(`Call ${phone} now`, redaction, 'redacted')).toBe('Call ###-#### now');
    expect(textAsShown(`Mail ${email}.`, redaction, 'redacted')).toBe('Mail #####@##########.###.');
    const a = analysesAsShown(json, 'redacted');
    expect(a.entities.map((e) => e.text)).toEqual(['Port Hollow']);
    expect(a.redactedEntities).toEqual([
      { kind: 'phone number', count: 1 },
      { kind: 'e-mail', count: 1 },
      { kind: 'person', count: 1 },
    ]);
    // Without the unredacted words there is no original to show: the choice falls back to redacted.
    expect(effectiveChoice(json, 'original')).toBe('redacted');
    expect(everything(json, 'original')).not.toContain(phone);
  });

  it('follows the substitution the words show when redact_pii_sub says otherwise', () => {
    const json = { ...transcript({ sub: 'entity_name', keepUnredacted: false }), redact_pii_sub: 'hash' };
    expect(textAsShown(phone, redactionOf(json), 'redacted')).toBe('[PHONE_NUMBER]');
  });

  it('hides a detail only as a whole word, in any letter case', () => {
    const redaction = redactionOf(transcript({ sub: 'entity_name', keepUnredacted: true }));
    expect(textAsShown('Banana and ANA and ana’s', redaction, 'redacted')).toBe(
      'Banana and [PERSON_NAME] and [PERSON_NAME]’s',
    );
    expect(textAsShown(`x${phone}`, redaction, 'redacted')).toBe(`x${phone}`);
  });

  it('merges key phrases that read the same once redacted, and counts each redacted entity once', () => {
    const json = transcript({ sub: 'entity_name', keepUnredacted: true });
    const results = (json.auto_highlights_result as { results: unknown[] }).results;
    results.push({ text: 'call 555-0199', count: 2, rank: 0.95, timestamps: [{ start: 7000, end: 7200 }] });
    json.entities = [
      ...(json.entities as unknown[]),
      { entity_type: 'phone_number', text: '555-0199', start: 7000, end: 7200 },
    ];
    const a = analysesAsShown(json, 'redacted');
    expect(a.keyPhrases.filter((k) => k.text === 'call [PHONE_NUMBER]')).toEqual([
      { text: 'call [PHONE_NUMBER]', detail: '3×', starts: [starts[2], 7000] },
    ]);
    // Two numbers that read alike once redacted are still two details.
    expect(redactedEntitiesLine(a.redactedEntities)).toBe('4 redacted: phone number ×2, e-mail, person');
    expect(JSON.stringify(a)).not.toContain('555-0199');
  });

  it('leaves a transcript without redaction untouched', () => {
    const plain = {
      text: `Call ${phone}`,
      entities: [{ entity_type: 'phone_number', text: phone, start: 0, end: 1 }],
    };
    expect(transcriptAsShown(plain, 'redacted')).toBe(plain);
    expect(redactionOf(plain).pattern).toBeNull();
  });

  it('gives the words of a quote as redacted unless the original is chosen and kept', () => {
    const json = transcript({ sub: 'entity_name', keepUnredacted: true });
    const words = json.words as { start: number; text: string }[];
    expect(wordsAsShown(words.slice(2, 4), json, 'redacted')).toEqual(['call', '[PHONE_NUMBER]']);
    expect(wordsAsShown(words.slice(2, 4), json, 'original')).toEqual(['call', phone]);
    const notKept = transcript({ sub: 'entity_name', keepUnredacted: false });
    expect(wordsAsShown(words.slice(2, 4), notKept, 'original')).toEqual(['call', '[PHONE_NUMBER]']);
  });
});

/** The kinds the property test draws from; the policies pick any subset of them. */
const entityTypes = ['person_name', 'phone_number', 'email_address', 'location', 'organization'] as const;
/** Words that entities and the transcript share, so details hide inside other entities' texts too. */
const detailWords = [
  'Ana',
  'Reyes',
  '555-0142',
  '555-0199',
  'ana@port.gov',
  'Port',
  'Hollow',
  'Gull',
  'Harbour',
];

const entityArbitrary = fc.record({
  entity_type: fc.constantFrom(...entityTypes),
  text: fc
    .array(fc.constantFrom(...detailWords), { minLength: 1, maxLength: 3 })
    .map((words) => words.join(' ')),
  start: fc.nat({ max: 60_000 }),
});

const redactedTranscriptArbitrary = fc
  .record({
    entities: fc.array(entityArbitrary, { maxLength: 12 }),
    policies: fc.option(fc.subarray([...entityTypes], { minLength: 1 }), { nil: undefined }),
    sub: fc.constantFrom('hash' as const, 'entity_name' as const),
    keepUnredacted: fc.boolean(),
  })
  .map(({ entities, policies, sub, keepUnredacted }): Record<string, unknown> => {
    const redacts = (type: (typeof entityTypes)[number]): boolean => !policies || policies.includes(type);
    // The transcript's words say each redacted entity as the service writes it.
    const said = entities.filter((e) => redacts(e.entity_type));
    const words = said.map((e, i) => word(substitute(e.text, e.entity_type, sub), i * 1000));
    return {
      redact_pii: true,
      redact_pii_sub: sub,
      ...(policies ? { redact_pii_policies: policies } : {}),
      words,
      ...(keepUnredacted && said.length > 0
        ? { unredacted_words: said.map((e, i) => word(e.text, i * 1000)) }
        : {}),
      entities: entities.map((e) => ({ ...e, end: e.start + 500 })),
    };
  });

describe('the redacted view’s entities, over generated entity lists mixing redacted and plain texts', () => {
  it('lists only entities that show no redaction, and counts every redacted one once, by kind', () => {
    fc.assert(
      fc.property(redactedTranscriptArbitrary, (json) => {
        const entities = json.entities as { entity_type: string; text: string }[];
        const redaction = redactionOf(json);
        const shownText = (text: string): string => textAsShown(text, redaction, 'redacted');
        const a = analysesAsShown(json, 'redacted');

        // Nothing listed shows a mark, so nothing listed can be offered to the glossary as hashes.
        for (const listed of a.entities) expect(showsRedaction(listed.text)).toBe(false);
        // Every entity whose text shows no redaction is listed as it reads.
        const plain = entities.filter((e) => !showsRedaction(shownText(e.text)));
        const listedKeys = new Set(a.entities.map((e) => `${e.detail}|${e.text.toLocaleLowerCase()}`));
        for (const e of plain)
          expect(listedKeys.has(`${e.entity_type.replace(/_/g, ' ')}|${e.text.toLocaleLowerCase()}`)).toBe(
            true,
          );
        // Every other one is counted: once per different detail of its kind.
        const hidden = entities.filter((e) => showsRedaction(shownText(e.text)));
        const distinct = new Set(hidden.map((e) => `${e.entity_type}|${e.text.toLocaleLowerCase()}`));
        expect(a.redactedEntities.reduce((sum, kind) => sum + kind.count, 0)).toBe(distinct.size);
        // An entity of a redacted type always shows its marks, so it is never listed.
        const policies = json.redact_pii_policies as string[] | undefined;
        for (const e of entities)
          if (!policies || policies.includes(e.entity_type)) expect(hidden).toContain(e);

        const line = redactedEntitiesLine(a.redactedEntities);
        if (distinct.size === 0) expect(line).toBeNull();
        else expect(line).toMatch(new RegExp(`^${distinct.size} redacted: `));
        expect(line ?? '').not.toMatch(/#|\[/);

        // The original view, where the service kept the words, lists every entity as said.
        if (effectiveChoice(json, 'original') === 'original') {
          const original = analysesAsShown(json, 'original');
          expect(original.redactedEntities).toEqual([]);
          expect(original.entities.reduce((sum, e) => sum + e.starts.length, 0)).toBe(entities.length);
        }
      }),
      { numRuns: 300 },
    );
  });
});
