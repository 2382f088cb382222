import { deterministicUuid, seededRandom, type Random } from '../catalog/seeded-random';
import type { ConversationMessage } from './conversation';
import { repairJson, sloppify } from './json-repair';
import { schemaInstance, type InstanceHints } from './json-schema-instance';
import type { ResponseFormat, Tool, ToolCall, ToolChoice } from './request-schema';
import { spokenToolResult } from '../spoken-result';

/**
 * The emulated model: a deterministic answer derived from the request. Text answers quote
 * sentences of the transcript when one was injected (so a client can check that the transcript
 * reached the model), otherwise sentences of a small newsroom corpus picked by a hash of the
 * request. Tools are called when the user asks for something a tool offers; JSON is generated
 * from the response_format schema.
 */

export interface AnswerInput {
  conversation: ConversationMessage[];
  /** The text that replaced `{{ transcript }}`, when one did. */
  transcript: string | undefined;
  /** Everything that should change the answer (model, temperature, conversation...), as one string. */
  seed: string;
  maxTokens: number;
  tools: Tool[] | undefined;
  toolChoice: ToolChoice | undefined;
  responseFormat: ResponseFormat | undefined;
  sloppyJson: boolean;
  repairJson: boolean;
}

export interface Answer {
  content: string | null;
  toolCalls: ToolCall[] | undefined;
  finishReason: 'stop' | 'length' | 'tool_calls';
}

const NEWSROOM_SENTENCES = [
  'The council approved the budget after a two-hour debate.',
  'Two witnesses gave consistent accounts of the evening.',
  'The spokesperson declined to comment on the timeline.',
  'Figures from the statistics office confirm the trend.',
  'The draft report is expected before the end of the month.',
  'Several residents said they had not been consulted.',
  'The minister repeated the figures given at the press conference.',
  'An earlier version of the plan was withdrawn in March.',
  'Local businesses reported fewer visitors over the summer.',
  'The union said talks would resume next week.',
  'Independent experts questioned the method behind the survey.',
  'The company confirmed the outage lasted about three hours.',
];

/** Words too common in tool descriptions to show that the user asked for the tool. */
const STOPWORDS = new Set([
  'about',
  'after',
  'based',
  'could',
  'every',
  'first',
  'function',
  'given',
  'information',
  'input',
  'object',
  'optional',
  'other',
  'output',
  'provided',
  'required',
  'return',
  'returns',
  'should',
  'specified',
  'string',
  'their',
  'there',
  'these',
  'those',
  'using',
  'value',
  'which',
  'while',
  'would',
]);

/** Rough OpenAI rule of thumb: a token is about four characters. */
export function countTokens(text: string): number {
  return Math.ceil([...text].length / 4);
}

export function composeAnswer(input: AnswerInput): Answer {
  const random = seededRandom(input.seed);
  const last = input.conversation.at(-1);
  const tool = last?.role === 'tool' ? undefined : toolToCall(input, last);
  if (tool) {
    const request = last?.content ?? '';
    const args = schemaInstance(tool.function.parameters ?? { type: 'object', properties: {} }, random, {
      sentences: [request],
      names: properNames(request),
    });
    const call: ToolCall = {
      id: `call_${deterministicUuid(`${input.seed}|${tool.function.name}`).replaceAll('-', '').slice(0, 24)}`,
      type: 'function',
      function: { name: tool.function.name, arguments: JSON.stringify(args) },
    };
    return { content: null, toolCalls: [call], finishReason: 'tool_calls' };
  }

  const toolResults = last?.role === 'tool' ? describeToolResults(input.conversation) : undefined;
  let content: string;
  if (input.responseFormat) {
    const hints: InstanceHints = {
      sentences: toolResults ? [toolResults] : sourceSentences(input.transcript),
      names: properNames(input.transcript ?? last?.content ?? ''),
    };
    const value =
      input.responseFormat.type === 'json_schema'
        ? schemaInstance(input.responseFormat.json_schema.schema, random, hints)
        : { answer: toolResults ?? textAnswer(input, random) };
    content = JSON.stringify(value);
    if (input.sloppyJson) content = sloppify(content);
  } else {
    content = toolResults ?? textAnswer(input, random);
  }

  let finishReason: Answer['finishReason'] = 'stop';
  if (countTokens(content) > input.maxTokens) {
    content = [...content].slice(0, input.maxTokens * 4).join('');
    finishReason = 'length';
  }
  // Post-processing runs on what the model returned, truncation included.
  if (input.repairJson) content = repairJson(content);
  return { content, toolCalls: undefined, finishReason };
}

/**
 * A tool is called when tool_choice forces it, or (tool_choice auto) when the user's last
 * message names it or uses a distinctive word of its name or description.
 */
function toolToCall(input: AnswerInput, last: ConversationMessage | undefined): Tool | undefined {
  const tools = input.tools ?? [];
  const choice = input.toolChoice;
  if (tools.length === 0 || choice === 'none') return undefined;
  if (typeof choice === 'object') return tools.find((tool) => tool.function.name === choice.function.name);
  if (last?.role !== 'user') return undefined;
  const text = last.content.toLowerCase();
  const words = new Set(text.match(/[a-z0-9]+/g) ?? []);
  return tools.find((tool) => {
    const name = tool.function.name;
    if (text.includes(name.toLowerCase()) || text.includes(spacedName(name))) return true;
    return significantWords(`${spacedName(name)} ${tool.function.description ?? ''}`).some((word) =>
      words.has(word),
    );
  });
}

/** `get_weather` / `getWeather` → `get weather`. */
function spacedName(name: string): string {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
}

function significantWords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z]+/g) ?? []).filter(
    (word) => word.length >= 5 && !STOPWORDS.has(word),
  );
}

/**
 * The results of the tool calls that end the conversation, named after the tools that produced
 * them and read out in words, as a model would (never their JSON).
 */
function describeToolResults(conversation: ConversationMessage[]): string {
  const firstResult = conversation.findLastIndex((message) => message.role !== 'tool') + 1;
  const results = conversation.slice(firstResult);
  const calls = conversation
    .slice(0, firstResult)
    .findLast((message) => message.toolCalls?.length)?.toolCalls;
  return results
    .map((result) => {
      const name = calls?.find((call) => call.id === result.toolCallId)?.function.name ?? 'the tool';
      return `According to ${name}: ${spokenToolResult(result.content)}`;
    })
    .join(' ');
}

function textAnswer(input: AnswerInput, random: Random): string {
  if (input.transcript !== undefined) {
    const quotes = pickInOrder(splitSentences(input.transcript), random, 3);
    if (quotes.length > 0)
      return `From the transcript: ${quotes.map((sentence) => `"${sentence}"`).join(' ')}`;
  }
  const question = input.conversation.findLast((message) => message.role === 'user')?.content ?? '';
  const topic = question.split(/\s+/).filter(Boolean).slice(0, 8).join(' ');
  const body = pickInOrder(NEWSROOM_SENTENCES, random, random.int(2, 3)).join(' ');
  return topic ? `On "${topic}": ${body}` : body;
}

function sourceSentences(transcript: string | undefined): string[] {
  const sentences = transcript === undefined ? [] : splitSentences(transcript);
  return sentences.length > 0 ? sentences : NEWSROOM_SENTENCES;
}

function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

/** `count` distinct items in their original order. */
function pickInOrder(items: readonly string[], random: Random, count: number): string[] {
  const indices = random
    .shuffle(items.map((_, index) => index))
    .slice(0, count)
    .sort((a, b) => a - b);
  return indices.map((index) => items[index] ?? '');
}

/** Capitalised words that do not start a sentence: likely names of people and places. */
function properNames(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(/\b[A-Z][a-zA-Z'-]+/g)) {
    const before = text.slice(0, match.index).trimEnd();
    if (before === '' || /[.!?:"]$/.test(before)) continue;
    names.add(match[0].replace(/'s$/, ''));
  }
  return [...names];
}
