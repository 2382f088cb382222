import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { VerbatimError } from '../../../shared/errors';
import type { AnswerEntry, AskEntry } from '../../../shared/ask';
import { defaultSettings } from '../../../shared/settings';
import type { Core } from '../../core/app-core';
import { createAskService, type AskService } from '../../core/ask/ask-service';
import { defineCommand } from '../command';
import { networkBoundsOf, requireTranscriptionKey } from '../environment';
import { UsageError } from '../usage-error';
import { transcriptOfArgument } from '../transcript-argument';
import type { IDisposable } from '../../base/lifecycle';

/**
 * `ask <id> "<question>" [--model M] [--json-schema FILE] [--stream] [--json]`: a question about
 * a transcript of the library, answered through the language-model gateway
 * (VERBATIM_GATEWAY_URL, else AssemblyAI's in the transcript's region). The question and its
 * answer join the transcript's Ask conversation, as in the app.
 */

/** Where ask writes: streamed text goes out as it arrives, without a newline added. */
interface AskOutput {
  out: (text: string) => void;
  write: (text: string) => void;
}

export const askCommand = defineCommand({
  name: 'ask',
  usage: ['<id> "<question>" [--model M] [--json-schema FILE] [--stream] [--json]'],
  summary:
    "Asks the language-model gateway about a transcript; the exchange joins the transcript's Ask panel.",
  options: {
    model: { type: 'string', valueName: 'M', description: "the model to ask (else Verbatim's default)" },
    'json-schema': {
      type: 'string',
      valueName: 'FILE',
      description: 'a JSON Schema file: the answer comes back as JSON of that shape',
    },
    stream: { type: 'boolean', description: 'writes the answer as it arrives' },
    json: {
      type: 'boolean',
      description: 'prints the whole exchange (question, tool calls, answer) as JSON',
    },
  },
  takesWords: true,
  async run({ values, positionals }, { io, openLibrary }) {
    const { core } = openLibrary({ showProgress: !values.json });
    return await askAbout(positionals, values, core, io.env, { out: io.out, write: io.write ?? io.out });
  },
});

async function askAbout(
  positionals: string[],
  values: { model: string | undefined; 'json-schema': string | undefined; stream: boolean; json: boolean },
  core: Core,
  env: NodeJS.ProcessEnv,
  io: AskOutput,
): Promise<number> {
  const [id, ...words] = positionals;
  const question = words.join(' ').trim();
  if (!id || !question) throw new UsageError('ask needs a transcript id and a question');
  requireTranscriptionKey(env);
  await transcriptOfArgument(core.library, id);
  const jsonSchema = values['json-schema'] ? await readSchema(values['json-schema']) : undefined;

  const ask = createAskService({
    core,
    apiKey: () => env.VERBATIM_API_KEY,
    gatewayUrl: () => env.VERBATIM_GATEWAY_URL,
    settings: () => Promise.resolve(defaultSettings),
    networkBounds: networkBoundsOf(env),
  });
  const streaming = values.stream && !values.json;
  const stream = streaming ? streamAsItComes(ask, io) : undefined;
  let entries: AskEntry[];
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
    stream?.following.dispose();
  }
  const answer = entries.at(-1);
  if (answer?.kind !== 'answer') throw new VerbatimError('internal', 'The question got no answer.');
  const failed = answer.status === 'failed' || answer.problem !== undefined;
  if (values.json) io.out(JSON.stringify({ entries }, null, 2));
  else if (stream) stream.endLine();
  else printExchange(entries, answer, failed, io);
  // Only an answer that came is signed with the model that gave it.
  if (!values.json && !failed) io.out(signature(answer));
  if (failed) throw new VerbatimError('service', answer.problem ?? 'The model could not answer.');
  return answer.status === 'complete' ? 0 : 1;
}

/** Streamed text and tool calls go out as they happen, each tool call on a line of its own. */
function streamAsItComes(ask: AskService, io: AskOutput): { following: IDisposable; endLine: () => void } {
  let midLine = false;
  const following = ask.events.subscribe((event) => {
    if (event.type === 'delta' && event.text) {
      io.write(event.text);
      midLine = !event.text.endsWith('\n');
    } else if (event.type === 'entry' && event.entry.kind === 'tool') {
      if (midLine) io.write('\n');
      midLine = false;
      io.out(describeToolCall(event.entry.name, event.entry.arguments));
    }
  });
  return {
    following,
    endLine: () => {
      if (midLine) io.write('\n');
    },
  };
}

/** Without --stream: the tool calls the model made, then the answer (when one came). */
function printExchange(entries: AskEntry[], answer: AnswerEntry, failed: boolean, io: AskOutput): void {
  for (const entry of entries)
    if (entry.kind === 'tool') io.out(describeToolCall(entry.name, entry.arguments));
  if (!failed)
    io.out(answer.structured === undefined ? answer.text : JSON.stringify(answer.structured, null, 2));
}

/** "— answered by gpt-5, 812 tokens, 1400 ms". */
function signature(answer: AnswerEntry): string {
  const usage = answer.usage ? `, ${answer.usage.totalTokens} tokens` : '';
  const time = answer.responseTimeMs === null ? '' : `, ${answer.responseTimeMs} ms`;
  return `— answered by ${answer.model}${usage}${time}`;
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
