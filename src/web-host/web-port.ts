import { VerbatimError } from '../shared/errors';

/**
 * The port the web host listens on, from `VERBATIM_WEB_PORT` or the demo's `--port`: a whole
 * number from 0 to 65535, 0 (or nothing) letting the system pick a free one. `source` names
 * where the text came from, so the message says what to change.
 */
export function parseWebPort(text: string | undefined, source: string): number {
  if (text === undefined || text.trim() === '') return 0;
  const port = Number(text);
  if (!/^\d+$/.test(text.trim()) || port > 65_535) {
    throw new VerbatimError(
      'invalid_input',
      `${source} must be a port number from 0 to 65535 (0 picks a free one), not "${text}".`,
    );
  }
  return port;
}
