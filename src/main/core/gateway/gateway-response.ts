import { z } from 'zod';
import { toolCallSchema } from './gateway-request';

/**
 * What the gateway answers (transcription-service.md, "Gateway", response body), and the
 * chunks of a streamed answer. The gateway is OpenAI-compatible, so fields the spec does not
 * list (`id`, `object`, `created`, OpenAI's token names) arrive too: they are tolerated, and
 * the answering model is read from OpenAI's `model` field, which AssemblyAI documents.
 */

export const usageSchema = z.object({
  input_tokens: z.int().min(0),
  output_tokens: z.int().min(0),
  total_tokens: z.int().min(0),
});
export type Usage = z.output<typeof usageSchema>;

export const chatCompletionSchema = z.object({
  request_id: z.string().min(1),
  /** The model that actually answered (a fallback's, when the primary failed). */
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        message: z.object({
          role: z.string(),
          content: z.string().nullable(),
          tool_calls: z.array(toolCallSchema).optional(),
        }),
        finish_reason: z.string().nullable(),
      }),
    )
    .min(1),
  /** A copy of the request without prompt and messages: it names the model too. */
  request: z.object({ model: z.string().optional() }).optional(),
  usage: usageSchema,
  http_status_code: z.int(),
  /** Nanoseconds. */
  response_time: z.number().min(0),
  llm_status_code: z.int(),
});
export type ChatCompletion = z.output<typeof chatCompletionSchema>;

/** `data: {"error": ...}`: a failure after the stream began, as OpenAI-compatible streams send it. */
export const streamErrorSchema = z.object({
  error: z.union([
    z.string(),
    z.object({ message: z.string(), type: z.string().optional(), code: z.unknown().optional() }),
  ]),
});

export const completionChunkSchema = z.object({
  request_id: z.string().optional(),
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        index: z.int().default(0),
        delta: z
          .object({
            role: z.string().optional(),
            content: z.string().nullish(),
            tool_calls: z
              .array(
                z.object({
                  index: z.int(),
                  id: z.string().optional(),
                  function: z
                    .object({ name: z.string().optional(), arguments: z.string().optional() })
                    .optional(),
                }),
              )
              .optional(),
          })
          .default({}),
        finish_reason: z.string().nullish(),
      }),
    )
    .default([]),
  usage: usageSchema.nullish(),
});
export type CompletionChunk = z.output<typeof completionChunkSchema>;
