import { UsageError } from './usage-error';

/** The one word (an id) a command takes after its name, or a usage error saying what it needs. */
export function onlyWord(positionals: string[], message: string): string {
  if (positionals.length !== 1 || !positionals[0]) throw new UsageError(message);
  return positionals[0];
}
