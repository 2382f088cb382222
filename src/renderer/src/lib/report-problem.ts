import { api } from './api';
import { problemOf, type Problem } from './error-message';

/**
 * A failure a store or a component caught: the Problem to show where it happened. An
 * unexpected one (not a VerbatimError) also goes to the app's log through `log.write`, so it is
 * never swallowed; `context` says where (an IPC method, or what the page was doing).
 */
export function caught(error: unknown, context: string): Problem {
  const problem = problemOf(error, context);
  if (problem.details !== undefined) {
    console.error(`Verbatim: unexpected error in ${context}`, error);
    writeToLog(`Unexpected error in the window: ${context}`, problem.details);
  }
  return problem;
}

/** Writes to main's log; a log that cannot be reached must not raise a second failure. */
function writeToLog(message: string, details: string): void {
  void (async () => {
    try {
      await api.log.write({ level: 'error', message, details });
    } catch (error) {
      console.error('Verbatim: the log could not be written', error);
    }
  })();
}
