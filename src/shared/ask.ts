import { z } from 'zod';

/**
 * Ask: questions about one transcript, answered by a language model through the gateway. The
 * conversation is a list of entries (questions, tool calls, answers) kept per transcript in the
 * library; structured answers have one schema per format, checked on arrival.
 */

/** `json` is an answer shaped by a schema the caller supplies (the CLI's --json-schema). */
export const askFormatSchema = z.enum(['text', 'quotes', 'claims', 'headlines', 'questions', 'json']);
export type AskFormat = z.infer<typeof askFormatSchema>;

export const keyQuotesSchema = z.object({
  quotes: z
    .array(
      z.object({
        quote: z.string().min(1).describe('The words exactly as spoken'),
        speaker: z.string().describe('Who said it'),
        start_ms: z.int().min(0).describe('When it was said, in milliseconds from the start'),
      }),
    )
    .min(1),
});

export const claimsSchema = z.object({
  claims: z
    .array(
      z.object({
        claim: z.string().min(1).describe('A factual claim worth checking'),
        speaker: z.string().describe('Who made it'),
        start_ms: z.int().min(0).describe('When it was made, in milliseconds from the start'),
      }),
    )
    .min(1),
});

export const headlinesSchema = z.object({
  options: z.array(z.object({ headline: z.string().min(1), standfirst: z.string().min(1) })).min(1),
});

export const followUpQuestionsSchema = z.object({
  questions: z
    .array(z.object({ question: z.string().min(1), why: z.string().describe('What it would establish') }))
    .min(1),
});

/** The schema each structured format asks the model for (and checks its answer against). */
export const structuredSchemas = {
  quotes: keyQuotesSchema,
  claims: claimsSchema,
  headlines: headlinesSchema,
  questions: followUpQuestionsSchema,
} as const;

export type StructuredFormat = keyof typeof structuredSchemas;
export type StructuredValue<F extends StructuredFormat> = z.infer<(typeof structuredSchemas)[F]>;

export const askTemplateSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,40}$/, 'An id is 1 to 40 lower-case letters, digits or dashes.'),
  label: z.string().trim().min(1, 'Give the ask a name.').max(60),
  prompt: z.string().trim().min(1, 'Write what to ask.').max(4000),
  format: askFormatSchema.exclude(['json']),
});
export type AskTemplate = z.infer<typeof askTemplateSchema>;

export const defaultAskTemplates: AskTemplate[] = [
  {
    id: 'editor-summary',
    label: 'Summary for the editor',
    prompt:
      'Write a summary of this recording for my editor: who spoke, the news in it, and anything contested or new. Five sentences at most, plain language.',
    format: 'text',
  },
  {
    id: 'key-quotes',
    label: 'Key quotes',
    prompt:
      'Pick the five strongest quotes, word for word as spoken, with who said each one and when (start_ms).',
    format: 'quotes',
  },
  {
    id: 'fact-check',
    label: 'Claims to fact-check',
    prompt:
      'List the factual claims made in this recording that a fact-checker should verify: figures, dates, names, promises. Give who made each claim and when (start_ms).',
    format: 'claims',
  },
  {
    id: 'headlines',
    label: 'Headline and standfirst',
    prompt: 'Suggest three headline and standfirst pairs for a news story based on this recording.',
    format: 'headlines',
  },
  {
    id: 'follow-up',
    label: 'Follow-up questions',
    prompt:
      'Suggest questions for a follow-up interview: what was left unanswered, vague or contradicted. Say what each would establish.',
    format: 'questions',
  },
];

export const askUsageSchema = z.object({
  inputTokens: z.int(),
  outputTokens: z.int(),
  totalTokens: z.int(),
});
export type AskUsage = z.infer<typeof askUsageSchema>;

const entryBase = { id: z.string(), at: z.number() };

export const askEntrySchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('question'),
    ...entryBase,
    /** What was sent to the model. */
    text: z.string(),
    /** The ready-made ask it came from, shown by name. */
    label: z.string().optional(),
    format: askFormatSchema,
  }),
  z.object({
    kind: z.literal('tool'),
    ...entryBase,
    callId: z.string(),
    name: z.string(),
    /** The arguments as the model wrote them (JSON). */
    arguments: z.string(),
    /** What the tool returned (JSON). */
    result: z.string(),
  }),
  z.object({
    kind: z.literal('answer'),
    ...entryBase,
    status: z.enum(['complete', 'stopped', 'failed']),
    /** The answer's text, or the JSON of a structured one. */
    text: z.string(),
    format: askFormatSchema,
    /** The validated value of a structured answer. */
    structured: z.unknown().optional(),
    /** Why a structured answer could not be read, or why the answer failed. */
    problem: z.string().optional(),
    requestedModel: z.string(),
    /** The model that answered: a fallback's when the requested model failed. */
    model: z.string(),
    usage: askUsageSchema.nullable(),
    responseTimeMs: z.number().nullable(),
    requestId: z.string().nullable(),
  }),
]);
export type AskEntry = z.infer<typeof askEntrySchema>;
export type AnswerEntry = Extract<AskEntry, { kind: 'answer' }>;
