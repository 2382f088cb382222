import { VerbatimError } from '../../../shared/errors';

/**
 * What a failure says to the journalist. A VerbatimError is a failure the contract declares: its
 * message is already written for a person. Anything else (a TypeError, a bridge that broke) is
 * unexpected: it is said in plain words, and its technical details go with it for Copy details
 * and the app's log, never into the sentence itself.
 */
export const unexpectedMessage =
  'Something unexpected went wrong in Verbatim. Try again, and if it happens again, copy the details and send them to whoever supports Verbatim for you.';

/** A failure as the page shows it; `details` is set for unexpected ones only. */
export interface Problem {
  message: string;
  details?: string;
}

/** True for the failures the contract declares (they carry a code and a written message). */
export function isExpected(error: unknown): error is VerbatimError {
  return error instanceof VerbatimError;
}

/** The sentence to show for a failure. */
export function messageOf(error: unknown): string {
  return isExpected(error) ? error.message : unexpectedMessage;
}

/** A sentence that is not an error at all, but shown where errors are (“Select some words first”). */
export function problem(message: string): Problem {
  return { message };
}

/**
 * The failure as the page shows it: the declared message, or the plain sentence with the
 * technical details of what went wrong and where (`context`, e.g. "library.search").
 */
export function problemOf(error: unknown, context: string, now: Date = new Date()): Problem {
  if (isExpected(error)) return { message: error.message };
  return { message: unexpectedMessage, details: technicalDetails(error, context, now) };
}

/** Room for the stack; the log's line takes at most 20,000 characters. */
const maxDetails = 8000;

/**
 * What a developer needs to find the fault: when, where, the error's kind, message and stack,
 * and its causes. No transcript text is added; an error's own message is all it carries.
 */
export function technicalDetails(error: unknown, context: string, now: Date = new Date()): string {
  const lines = [`When: ${now.toISOString()}`, `Where: ${context}`];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
    lines.push(`${depth === 0 ? 'Error' : 'Caused by'}: ${describe(current)}`);
    const stack = current instanceof Error ? stackFrames(current) : '';
    if (stack) lines.push(stack);
    current = current instanceof Error ? current.cause : undefined;
  }
  const text = lines.join('\n');
  return text.length > maxDetails ? `${text.slice(0, maxDetails - 1)}…` : text;
}

function describe(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The stack without its first line, which repeats the name and message. */
function stackFrames(error: Error): string {
  const stack = error.stack ?? '';
  const head = `${error.name}: ${error.message}`;
  return (stack.startsWith(head) ? stack.slice(head.length) : stack).replace(/^\n/, '').trimEnd();
}
