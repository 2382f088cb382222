import { createScrubber, type Scrubber } from './log-redaction';

/**
 * The one log: an injected `Logger` that every part of main writes to (and the renderer, through
 * the contract's `log.write`). Every message and detail goes through the scrubber before any
 * sink sees it, so no key and no transcript text reaches the file, whoever wrote the line.
 */
export const logLevels = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof logLevels)[number];

export interface LogRecord {
  /** Milliseconds since the epoch (the wall clock). */
  time: number;
  level: LogLevel;
  /** Who wrote it: "main", "main.scheduler", "renderer"… */
  scope: string;
  message: string;
  /** An error's stack, or an object as JSON; already scrubbed and bounded. */
  details?: string;
}

/** Where records go. A sink must never throw: the logger guards it anyway. */
export interface LogSink {
  write(record: LogRecord): void;
}

export interface Logger {
  debug(message: string, details?: unknown): void;
  info(message: string, details?: unknown): void;
  warn(message: string, details?: unknown): void;
  error(message: string, details?: unknown): void;
  /** The same log, with records marked as written by `scope` (nested: "main.ipc"). */
  child(scope: string): Logger;
}

export interface LoggerOptions {
  sinks: LogSink[];
  /** The least severe level written; `debug` with --verbose or VERBATIM_LOG_LEVEL=debug. */
  level?: LogLevel;
  scope?: string;
  /** Every key the secrets store holds, read at each write. */
  secrets?: () => Iterable<string | undefined>;
  /** A scrubber of one's own (tests); otherwise one is made from `secrets`. */
  scrubber?: Scrubber;
  now?: () => number;
}

/** The longest message and detail kept (the renderer's `log.write` is held to the same limits). */
export const maxMessageLength = 2000;
export const maxDetailsLength = 20_000;

export function createLogger(options: LoggerOptions): Logger {
  const threshold = logLevels.indexOf(options.level ?? 'info');
  const scrubber = options.scrubber ?? createScrubber({ secrets: options.secrets });
  const now = options.now ?? Date.now;

  const write = (scope: string, level: LogLevel, message: string, details: unknown): void => {
    if (logLevels.indexOf(level) < threshold) return;
    let record: LogRecord;
    try {
      record = { time: now(), level, scope, message: bounded(scrubber.text(message), maxMessageLength) };
      const formatted = details === undefined ? undefined : formatDetails(details, scrubber);
      if (formatted !== undefined) record.details = bounded(scrubber.text(formatted), maxDetailsLength);
    } catch {
      // A detail that cannot even be formatted must not take the caller down with it.
      record = { time: now(), level, scope, message: '(a log line could not be formatted)' };
    }
    for (const sink of options.sinks) {
      try {
        sink.write(record);
      } catch {
        // Logging never takes the process down.
      }
    }
  };

  const make = (scope: string): Logger => ({
    debug: (message, details) => write(scope, 'debug', message, details),
    info: (message, details) => write(scope, 'info', message, details),
    warn: (message, details) => write(scope, 'warn', message, details),
    error: (message, details) => write(scope, 'error', message, details),
    child: (child) => make(scope ? `${scope}.${child}` : child),
  });
  return make(options.scope ?? '');
}

/** A logger that writes nowhere: the default where nobody injected one. */
export const silentLogger: Logger = createLogger({ sinks: [] });

/** Records kept in memory, for tests. */
export class MemorySink implements LogSink {
  readonly records: LogRecord[] = [];
  write(record: LogRecord): void {
    this.records.push(record);
  }
  /** Every record as the file would have it. */
  text(): string {
    return this.records.map(formatRecord).join('');
  }
}

/** Writes each record to a stream (standard error for the CLI's --verbose and `npm start`). */
export function streamSink(stream: { write(text: string): unknown }): LogSink {
  return { write: (record) => void stream.write(formatRecord(record)) };
}

/** Reads a level's name (VERBATIM_LOG_LEVEL); undefined for anything else. */
export function parseLogLevel(text: string | undefined): LogLevel | undefined {
  const level = text?.trim().toLowerCase();
  return logLevels.find((known) => known === level);
}

/**
 * One record as a line of the log file: time, level, scope, message; the details follow on
 * their own lines, indented, so a stack stays readable.
 */
export function formatRecord(record: LogRecord): string {
  const head = `${new Date(record.time).toISOString()} ${record.level.toUpperCase().padEnd(5)} ${
    record.scope ? `[${record.scope}] ` : ''
  }${oneLine(record.message)}\n`;
  if (!record.details) return head;
  return `${head}${record.details
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n')}\n`;
}

function oneLine(text: string): string {
  return text.replace(/\r?\n/g, ' ⏎ ');
}

function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** An error with its stack, code, details and causes; anything else as (scrubbed) JSON. */
function formatDetails(details: unknown, scrubber: Scrubber): string | undefined {
  if (typeof details === 'string') return details;
  if (details instanceof Error) return formatError(details, scrubber, 0);
  return stringify(scrubber.value(details));
}

function formatError(error: Error, scrubber: Scrubber, depth: number): string {
  const lines = [error.stack?.includes(error.message) ? error.stack : `${error.name}: ${error.message}`];
  if (error.stack && !error.stack.includes(error.message)) lines.push(error.stack);
  const extra = error as Error & { code?: unknown; details?: unknown; cause?: unknown; errors?: unknown };
  if (extra.code !== undefined) lines.push(`code: ${stringify(extra.code)}`);
  if (extra.details !== undefined) lines.push(`details: ${stringify(scrubber.value(extra.details))}`);
  if (depth < 3) {
    if (extra.cause !== undefined)
      lines.push(
        `caused by: ${extra.cause instanceof Error ? formatError(extra.cause, scrubber, depth + 1) : stringify(scrubber.value(extra.cause))}`,
      );
    if (Array.isArray(extra.errors)) {
      for (const inner of extra.errors)
        lines.push(
          `and: ${inner instanceof Error ? formatError(inner, scrubber, depth + 1) : stringify(scrubber.value(inner))}`,
        );
    }
  }
  return lines.join('\n');
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return (
      JSON.stringify(value, (_key, field: unknown) =>
        typeof field === 'bigint' ? field.toString() : field,
      ) ?? String(value)
    );
  } catch {
    return String(value);
  }
}
