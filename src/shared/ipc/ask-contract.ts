import { z } from 'zod';
import { askEntrySchema, askFormatSchema, askTemplateSchema } from '../ask';

/**
 * Ask's part of the IPC contract. An answer streams as `ask.delta` events keyed by the request
 * id the renderer chose, each saved entry (question, tool call, answer) as `ask.entry`, and
 * `ask.done` when it is over; `ask.send` resolves with the new entries at the end.
 */

const transcriptRef = z.object({ transcriptId: z.string().min(1).max(100) }).strict();
const requestId = z.string().min(8).max(100);

export const askSendSchema = z
  .object({
    requestId,
    transcriptId: z.string().min(1).max(100),
    question: z.string().trim().min(1, 'Write a question first.').max(8000, 'That question is too long.'),
    // `json` needs a schema of the caller's own, which only the CLI supplies.
    format: askFormatSchema.exclude(['json']).default('text'),
    label: z.string().max(60).optional(),
    model: z.string().trim().min(1).max(200).optional(),
    temperature: z
      .number()
      .min(0, 'Temperature goes from 0 to 2.')
      .max(2, 'Temperature goes from 0 to 2.')
      .optional(),
    maxTokens: z.int().min(1, 'The length must be at least 1 token.').max(32_000).optional(),
    stream: z.boolean().default(true),
  })
  .strict();

export const askContract = {
  'ask.send': { input: askSendSchema, output: z.object({ entries: z.array(askEntrySchema) }) },
  'ask.stop': { input: z.object({ requestId }).strict(), output: z.object({ stopped: z.boolean() }) },
  'ask.conversation': { input: transcriptRef, output: z.object({ entries: z.array(askEntrySchema) }) },
  'ask.clear': { input: transcriptRef, output: z.object({ removed: z.int() }) },
  'ask.templates': { input: z.undefined(), output: z.object({ templates: z.array(askTemplateSchema) }) },
  'ask.saveTemplates': {
    input: z.object({ templates: z.array(askTemplateSchema).max(30) }).strict(),
    output: z.object({ templates: z.array(askTemplateSchema) }),
  },
} as const;

export const askEvents = {
  'ask.delta': z.object({ requestId: z.string(), transcriptId: z.string(), text: z.string() }),
  'ask.entry': z.object({ requestId: z.string(), transcriptId: z.string(), entry: askEntrySchema }),
  'ask.done': z.object({ requestId: z.string(), transcriptId: z.string() }),
} as const;
