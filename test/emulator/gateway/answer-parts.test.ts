import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { seededRandom } from '../catalog/seeded-random';
import { composeAnswer, type AnswerInput } from './answer';
import { substituteTranscript, toConversation } from './conversation';
import { repairJson, sloppify } from './json-repair';
import { schemaInstance } from './json-schema-instance';

const TRANSCRIPT =
  'Good morning, everyone. The harbour will close on Friday at noon. ' +
  'Ferries to Ostend resume on Monday! Costs rose by $5 million, said Ana Ruiz.';

function baseInput(overrides: Partial<AnswerInput> = {}): AnswerInput {
  return {
    conversation: [{ role: 'user', content: 'What happened at the harbour?' }],
    transcript: undefined,
    seed: 'seed',
    maxTokens: 1000,
    tools: undefined,
    toolChoice: undefined,
    responseFormat: undefined,
    sloppyJson: false,
    repairJson: false,
    ...overrides,
  };
}

describe('{{ transcript }} substitution', () => {
  it('replaces only the first tag, in prompt or message order, literally', () => {
    const conversation = toConversation({
      messages: [
        { role: 'system', content: 'You summarise for editors.' },
        { role: 'user', content: 'Transcript: {{transcript}}. Again: {{ transcript }}' },
        { role: 'user', content: [{ type: 'text', text: 'And {{ transcript }}' }] },
      ],
    });
    const result = substituteTranscript(conversation, 'It costs $& and $1.');
    expect(result.substituted).toBe(true);
    expect(result.conversation.map((message) => message.content)).toEqual([
      'You summarise for editors.',
      'Transcript: It costs $& and $1.. Again: {{ transcript }}',
      'And {{ transcript }}',
    ]);
    expect(toConversation({ prompt: 'Summarise {{ transcript }}' })).toEqual([
      { role: 'user', content: 'Summarise {{ transcript }}' },
    ]);
  });

  it('leaves a conversation without a tag as it is', () => {
    const conversation = toConversation({ prompt: 'No tag here' });
    expect(substituteTranscript(conversation, TRANSCRIPT)).toEqual({ conversation, substituted: false });
  });

  it('makes the answer quote real sentences of the injected transcript', () => {
    const { conversation } = substituteTranscript(
      toConversation({ prompt: 'Summarise: {{ transcript }}' }),
      TRANSCRIPT,
    );
    const answer = composeAnswer(baseInput({ conversation, transcript: TRANSCRIPT }));
    const quotes = [...(answer.content ?? '').matchAll(/"([^"]+)"/g)].map((match) => match[1]);
    expect(quotes.length).toBeGreaterThanOrEqual(2);
    for (const quote of quotes) expect(TRANSCRIPT).toContain(quote);
  });
});

describe('deterministic answers', () => {
  it('gives the same answer to the same request', () => {
    expect(composeAnswer(baseInput())).toEqual(composeAnswer(baseInput()));
  });

  it('stops at max_tokens with finish_reason length', () => {
    const answer = composeAnswer(baseInput({ maxTokens: 3 }));
    expect(answer.finishReason).toBe('length');
    expect([...(answer.content ?? '')].length).toBeLessThanOrEqual(12);
  });
});

describe('schema instances', () => {
  const schema = z.object({
    headline: z.string().min(10).max(80),
    speakers: z.array(z.object({ name: z.string(), quotes: z.array(z.string()).min(2) })).min(3),
    mood: z.enum(['calm', 'tense', 'hostile']),
    confidence: z.number().min(0).max(1),
    exclusive: z.number().gt(5).lt(6),
    step: z.number().multipleOf(0.25).min(1.1),
    year: z.int().min(1990).max(2030),
    published: z.boolean(),
    editor: z.string().nullable(),
    byline: z.union([z.string(), z.number()]).optional(),
    filedAt: z.iso.datetime(),
    tags: z.array(z.literal('politics')).max(2),
  });

  it.each(['one', 'two', 'three', 'four'])('validates against the schema (seed %s)', (seed) => {
    const value = schemaInstance(z.toJSONSchema(schema), seededRandom(seed), {
      sentences: ['A sentence of the transcript.'],
      names: ['Ana Ruiz'],
    });
    expect(schema.safeParse(value).success).toBe(true);
  });

  it('follows $ref definitions', () => {
    const jsonSchema = {
      type: 'object',
      properties: { lead: { $ref: '#/$defs/person' } },
      required: ['lead'],
      $defs: {
        person: { type: 'object', properties: { age: { type: 'integer', minimum: 18 } }, required: ['age'] },
      },
    };
    const value = schemaInstance(jsonSchema, seededRandom('ref'), { sentences: [], names: [] }) as {
      lead: { age: number };
    };
    expect(value.lead.age).toBeGreaterThanOrEqual(18);
  });
});

describe('json-repair', () => {
  const valid = JSON.stringify({
    title: 'Harbour closes',
    tags: ['port', 'ferries'],
    count: 2,
    nested: { ok: true },
  });

  it('is what a sloppy model breaks: unquoted key and trailing comma', () => {
    const broken = sloppify(valid);
    expect(broken).toMatch(/^\{title:/);
    expect(broken).toMatch(/,\}$/);
    expect(() => JSON.parse(broken) as unknown).toThrow();
    expect(repairJson(broken)).toBe(valid);
  });

  it.each([
    [`{'title': 'It\\'s "late"', count: 2,}`, { title: `It's "late"`, count: 2 }],
    ['Here you go: ```json\n{"a": [1, 2,], "b": {"c": null,},}\n```', { a: [1, 2], b: { c: null } }],
    ['{"items": [{"x": 1}, {"x": 2', { items: [{ x: 1 }, { x: 2 }] }],
    ['{status: done, ok: true}', { status: 'done', ok: true }],
  ])('repairs %s', (text, expected) => {
    expect(JSON.parse(repairJson(text))).toEqual(expected);
  });

  it('leaves valid JSON and hopeless text unchanged', () => {
    expect(repairJson(valid)).toBe(valid);
    expect(repairJson('no json at all')).toBe('no json at all');
  });
});
