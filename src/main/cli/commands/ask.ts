import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { VerbatimError } from '../../../shared/errors';
import { defaultSettings } from '../../../shared/settings';
import type { Core } from '../../core/app-core';
import { createAskService } from '../../core/ask/ask-service';
import { UsageError } from '../usage-error';

/**
 * `ask <id> "<question>" [--model M] [--json-schema FILE] [--stream] [--json]`: a question about
 * a transcript of the library, answered through the language-model gateway
 * (VERBATIM_GATEWAY_URL, else AssemblyAI's in the transcript's region). The question and its
 * answer join the transcript's Ask conversation, as in the app.
 */

export const askUsage = `  ask <id> "<question>" [--model M] [--json-schema FILE] [--stream] [--json]`;

export interface AskCliIo {
  out: (text: string) => void;
  /** Streamed text, written as it arrives (no newline added). */
  write: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

export async function runAskCommand(args: string[], core: Core, io: AskCliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      model: { type: 'string' },
      'json-schema': { type: 'string' },
      stream: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const [id, ...words] = positionals;
  const question = words.join(' ').trim();
  if (!id || !question) throw new UsageError('ask needs a transcript id and a question');
  if (!io.env.VERBATIM_API_KEY)
    throw new VerbatimError('unauthorized', 'Set VERBATIM_API_KEY to your transcription service key.');
  const jsonSchema = values['json-schema'] ? await readSchema(values['json-schema']) : undefined;

  const ask = createAskService({
    core,
    apiKey: () => io.env.VERBATIM_API_KEY,
    gatewayUrl: () => io.env.VERBATIM_GATEWAY_URL,
    settings: () => Promise.resolve(defaultSettings),
  });
  const streaming = values.stream && !values.json;
  // Streamed text and tool calls go out as they happen, each tool call on a line of its own.
  let midLine = false;
  const stop = streaming
    ? ask.events.subscribe((event) => {
        if (event.type === 'delta' && event.text) {
          io.write(event.text);
          midLine = !event.text.endsWith('\n');
        } else if (event.type === 'entry' && event.entry.kind === 'tool') {
          if (midLine) io.write('\n');
          midLine = false;
          io.out(describeToolCall(event.entry.name, event.entry.arguments));
        }
      })
    : () => undefined;
  let entries;
  try {
    entries = await ask.send({
      requestId: randomUUID(),
      transcriptId: id,
      question,
      format: jsonSchema ? 'json' : 'text',
      ...(jsonSchema ? { jsonSchema } : {}),
      ...(values.model ? { model: values.model } : {}),
      stream: values.stream,
    });
  } finally {
    stop();
  }
  const answer = entries.at(-1);
  if (answer?.kind !== 'answer') throw new VerbatimError('internal', 'The question got no answer.');
  const failed = answer.status === 'failed' || answer.problem !== undefined;
  if (values.json) io.out(JSON.stringify({ entries }, null, 2));
  else {
    if (!streaming)
      for (const entry of entries)
        if (entry.kind === 'tool') io.out(describeToolCall(entry.name, entry.arguments));
    if (streaming) {
      if (midLine) io.write('\n');
    } else if (!failed)
      io.out(answer.structured === undefined ? answer.text : JSON.stringify(answer.structured, null, 2));
    // Only an answer that came is signed with the model that gave it.
    if (!failed) {
      const usage = answer.usage ? `, ${answer.usage.totalTokens} tokens` : '';
      const time = answer.responseTimeMs === null ? '' : `, ${answer.responseTimeMs} ms`;
      io.out(`— answered by ${answer.model}${usage}${time}`);
    }
  }
  if (failed) throw new VerbatimError('service', answer.problem ?? 'The model could not answer.');
  return answer.status === 'complete' ? 0 : 1;
}

async function readSchema(path: string): Promise<Record<string, unknown>> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    throw new UsageError(`--json-schema must name a file holding a JSON Schema object (${path})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError('--json-schema must hold a JSON Schema object');
  return value as Record<string, unknown>;
}

/** A tool the model used, on its own line: "[tool search_library {"query":"ferry"}]". */
function describeToolCall(name: string, args: string): string {
  return `[tool ${name} ${args}]`;
}
