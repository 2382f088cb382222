import { secretNames, type Secrets } from '../secrets/secret-store';
import { RotatingFileSink, logFilePath } from './file-sink';
import { createLogger, parseLogLevel, streamSink, type LogSink, type Logger } from './logger';

export interface OpenLogOptions {
  /** The log goes to `<dataDir>/logs/verbatim.log`. */
  dataDir: string;
  /** A level's name (VERBATIM_LOG_LEVEL, `debug` for --verbose); `info` when absent or unknown. */
  level?: string | undefined;
  /** The keys to keep out of the log: read at each write, so it may be set once they are loaded. */
  secrets?: () => Secrets | undefined;
  /** Also write each line here (standard error in development, the CLI's --verbose). */
  echo?: { write(text: string): unknown };
  scope?: string;
}

/** Every key and password a secrets store holds, for the logger's scrubber. */
export function heldSecrets(secrets: Secrets | undefined): string[] {
  if (!secrets) return [];
  return secretNames.flatMap((name) => secrets.peek(name) ?? []);
}

/** The process's one log: a rotating file in the data folder (1 MB, three old files kept). */
export function openLog(options: OpenLogOptions): { logger: Logger; path: string } {
  const path = logFilePath(options.dataDir);
  const sinks: LogSink[] = [new RotatingFileSink({ path })];
  if (options.echo) sinks.push(streamSink(options.echo));
  const logger = createLogger({
    sinks,
    level: parseLogLevel(options.level) ?? 'info',
    scope: options.scope,
    secrets: () => heldSecrets(options.secrets?.()),
  });
  return { logger, path };
}
