import { createHash } from 'node:crypto';
import type { AgentConfig, JsonSchemaProperty, ToolDefinition } from './session-config';
import { spokenToolResult } from '../spoken-result';

/**
 * What the emulated agent says: a fixed script instead of a language model, so the same
 * conversation always gets the same words.
 *
 * - The system prompt picks the agent's acknowledgement ("Sure.", "Got it.", …), which opens
 *   every reply except the greeting.
 * - A user utterance is echoed: "<ack> You said: <utterance>."
 * - A registered tool is "asked for" when the utterance contains the tool's name with
 *   underscores read as spaces ("get weather" for get_weather); otherwise the tools sharing the
 *   most significant words with the utterance are (a word of the tool's name or description,
 *   4+ letters, not a common word; a trailing "s" is ignored, so "transcripts" matches
 *   "transcript"). A tool with a required number the utterance does not give is never asked
 *   for: a model does not invent a time it was not told. The reply then says "<ack> Let me
 *   check <tool name>." and calls every tool asked for, in the order they were registered.
 * - Tool arguments: every required property gets a value, an optional one only when the
 *   utterance gives it. Strings take the utterance's remaining words (without common words,
 *   words that matched a tool and enum values), or the whole utterance when none remain; in
 *   "what <someone> said about <subject>" a property named `speaker` takes <someone>'s words
 *   and the others <subject>'s (without that phrasing an optional `speaker` is left out); a
 *   string enum takes the first value the utterance mentions, else its first value; numbers
 *   take the first number in the utterance (a required one 0 when there is none, an optional
 *   one is then left out); booleans are true unless the utterance has a negation; arrays hold
 *   those words (or numbers); objects are filled the same way.
 * - After tool results: "<ack> <tool name> says: <result>." for each call, the result read out
 *   as words, never as JSON (see spokenToolResult).
 * - reply.create: "<ack> <instructions>" or, without instructions, an echo of the last user
 *   utterance ("<ack> How can I help?" before any). */

export interface PlannedToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface PlannedReply {
  text: string;
  toolCalls: PlannedToolCall[];
}

const ACKNOWLEDGEMENTS = ['Sure.', 'Got it.', 'Okay.', 'Right.', 'Understood.'];

const COMMON_WORDS = new Set(
  (
    'a about after all also an and any are as at be been before but by can could did do does dont for ' +
    'from get give had has have he her him his how i if im in into is it its just know let like me ' +
    'more my no not of on or our please she should show so some tell than that the their them then ' +
    'there these they this those to up us want was we were what whats when where which who why will ' +
    'with would you your'
  ).split(' '),
);
const NEGATIONS = new Set(['no', 'not', 'dont', 'never', 'without']);

function acknowledgement(config: AgentConfig): string {
  const index = createHash('sha256').update(config.systemPrompt).digest().readUInt32BE(0);
  return ACKNOWLEDGEMENTS[index % ACKNOWLEDGEMENTS.length] ?? 'Okay.';
}

/** Ends the text with punctuation so replies read as sentences. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) || trimmed === '' ? trimmed : `${trimmed}.`;
}

function words(text: string): string[] {
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’]*/gu) ?? [];
}

/** Lower case, without apostrophes or a trailing plural "s": the form words are compared in. */
function normalize(word: string): string {
  const plain = word.toLowerCase().replace(/['’]/g, '');
  return plain.length > 4 && plain.endsWith('s') ? plain.slice(0, -1) : plain;
}

function isSignificant(word: string): boolean {
  const plain = word.toLowerCase().replace(/['’]/g, '');
  return plain.length >= 4 && !COMMON_WORDS.has(plain);
}

function spokenName(tool: ToolDefinition): string {
  return tool.name.replace(/[_-]+/g, ' ').trim();
}

function toolWords(tool: ToolDefinition): Set<string> {
  const nameWords = words(tool.name.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2'));
  return new Set([...nameWords, ...words(tool.description)].filter(isSignificant).map(normalize));
}

/** How strongly the utterance asks for the tool: its spoken name beats any number of shared words. */
function askScore(utterance: string, tool: ToolDefinition): number {
  const phrase = spokenName(tool).toLowerCase();
  if (phrase && ` ${words(utterance).join(' ').toLowerCase()} `.includes(` ${phrase} `)) return Infinity;
  const wanted = toolWords(tool);
  const shared = new Set(words(utterance).filter(isSignificant).map(normalize));
  return [...shared].filter((word) => wanted.has(word)).length;
}

function numbersIn(text: string): number[] {
  return (text.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
}

function isNumeric(schema: JsonSchemaProperty): boolean {
  return schema.type === 'number' || schema.type === 'integer';
}

/** Can the utterance fill every required number of the tool? */
function canCall(tool: ToolDefinition, utterance: string): boolean {
  const properties = tool.parameters.properties;
  const needsNumber = tool.parameters.required.some((name) => {
    const schema = properties[name];
    return schema !== undefined && isNumeric(schema) && !schema.enum;
  });
  return !needsNumber || numbersIn(utterance).length > 0;
}

/** "find what the mayor said about the ferry contract": who spoke ("the mayor") and about what. */
const WHO_SAID =
  /\b(?:what|did|does|has)\s+(.+?)\s+(?:said|say|says|told|tell)\s+(?:about|on|regarding)\s+(.+)$/i;

/** What the string arguments are made of: the words for a speaker, and those for the rest. */
interface StringSources {
  speaker: string[] | undefined;
  content: string[];
}

function valueFor(
  name: string,
  schema: JsonSchemaProperty,
  required: boolean,
  utterance: string,
  strings: StringSources,
): unknown {
  const numbers = numbersIn(utterance);
  if (schema.enum) {
    const mentioned = new Set(words(utterance).map((word) => word.toLowerCase()));
    return schema.enum.find((value) => mentioned.has(String(value).toLowerCase())) ?? schema.enum[0];
  }
  switch (schema.type) {
    case 'number':
      return numbers[0] ?? (required ? 0 : undefined);
    case 'integer':
      return numbers[0] === undefined ? (required ? 0 : undefined) : Math.round(numbers[0]);
    case 'boolean':
      return !words(utterance).some((word) => NEGATIONS.has(normalize(word)));
    case 'array':
      return schema.items?.type === 'number' || schema.items?.type === 'integer' ? numbers : strings.content;
    case 'object':
      return argumentsFor(schema.properties ?? {}, schema.required ?? [], utterance, strings);
    default: {
      if (/speaker/i.test(name)) {
        const speaker = strings.speaker?.join(' ');
        if (speaker) return speaker;
        if (!required) return undefined;
      }
      return strings.content.length > 0 ? strings.content.join(' ') : utterance.trim();
    }
  }
}

function argumentsFor(
  properties: Record<string, JsonSchemaProperty>,
  required: string[],
  utterance: string,
  strings: StringSources,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(properties).flatMap(([name, schema]) => {
      const value = valueFor(name, schema, required.includes(name), utterance, strings);
      return value === undefined ? [] : [[name, value]];
    }),
  );
}

/** Every enum value of the properties, in lower case: words the utterance spends on choosing them. */
function enumWords(properties: Record<string, JsonSchemaProperty>): string[] {
  return Object.values(properties).flatMap((schema) => [
    ...(schema.enum ?? []).map((value) => String(value).toLowerCase()),
    ...enumWords(schema.properties ?? {}),
    ...(schema.items ? enumWords({ items: schema.items }) : []),
  ]);
}

/** `askedFor`: every tool the utterance asks for; the words that picked them are not arguments. */
function toolCall(tool: ToolDefinition, askedFor: ToolDefinition[], utterance: string): PlannedToolCall {
  const properties = tool.parameters.properties;
  const spent = new Set([...askedFor.flatMap((asked) => [...toolWords(asked)]), ...enumWords(properties)]);
  const contentWords = (text: string): string[] =>
    words(text).filter(
      (word) =>
        !COMMON_WORDS.has(word.toLowerCase().replace(/['’]/g, '')) &&
        !spent.has(normalize(word)) &&
        !spent.has(word.toLowerCase()),
    );
  const whoSaid = WHO_SAID.exec(utterance);
  const strings: StringSources = whoSaid
    ? { speaker: contentWords(whoSaid[1] ?? ''), content: contentWords(whoSaid[2] ?? '') }
    : { speaker: undefined, content: contentWords(utterance) };
  return {
    name: tool.name,
    arguments: argumentsFor(properties, tool.parameters.required, utterance, strings),
  };
}

export function greetingReply(config: AgentConfig): PlannedReply {
  return { text: config.greeting, toolCalls: [] };
}

export function replyToUtterance(utterance: string, config: AgentConfig): PlannedReply {
  const ack = acknowledgement(config);
  const scored = config.tools
    .filter((tool) => canCall(tool, utterance))
    .map((tool) => ({ tool, score: askScore(utterance, tool) }));
  const best = Math.max(0, ...scored.map(({ score }) => score));
  const tools = best === 0 ? [] : scored.filter(({ score }) => score === best).map(({ tool }) => tool);
  if (tools.length === 0) return { text: sentence(`${ack} You said: ${utterance}`), toolCalls: [] };
  return {
    text: sentence(`${ack} Let me check ${tools.map(spokenName).join(' and ')}`),
    toolCalls: tools.map((tool) => toolCall(tool, tools, utterance)),
  };
}

export function replyToRequest(
  instructions: string | undefined,
  lastUtterance: string | undefined,
  config: AgentConfig,
): PlannedReply {
  const ack = acknowledgement(config);
  if (instructions?.trim()) return { text: sentence(`${ack} ${instructions}`), toolCalls: [] };
  if (lastUtterance !== undefined)
    return { text: sentence(`${ack} You said: ${lastUtterance}`), toolCalls: [] };
  return { text: `${ack} How can I help?`, toolCalls: [] };
}

export function replyWithToolResults(
  results: { name: string; result: string }[],
  config: AgentConfig,
): PlannedReply {
  const ack = acknowledgement(config);
  const findings = results.map(({ name, result }) =>
    sentence(`${name.replace(/[_-]+/g, ' ')} says: ${spokenToolResult(result)}`),
  );
  return { text: [ack, ...findings].join(' '), toolCalls: [] };
}
