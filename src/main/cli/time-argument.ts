import { UsageError } from './usage-error';

/**
 * A time typed on the command line, as a journalist reads it off the reader or a player:
 * hh:mm:ss, mm:ss or seconds, each with an optional fraction (1:02:03.5, 02:03, 83.25).
 * Returns milliseconds; anything else is a usage error naming the option and the forms.
 */
export function parseTimeArgument(text: string | undefined, option: string): number {
  if (text === undefined || text.trim() === '')
    throw new UsageError(`${option} needs a time, such as 00:12:31`);
  const trimmed = text.trim();
  const match = /^(?:(\d+):)?(?:(\d+):)?(\d+(?:\.\d+)?)$/.exec(trimmed);
  const forms = 'hh:mm:ss, mm:ss or seconds, such as 00:12:31, 12:31 or 751';
  if (!match) throw new UsageError(`${option} "${trimmed}" is not a time; write it as ${forms}`);
  const [, first, second, last] = match;
  const hours = second === undefined ? 0 : Number(first);
  const minutes = second === undefined ? Number(first ?? 0) : Number(second);
  const seconds = Number(last);
  // Within a clock time, minutes and seconds are below 60; a bare number of seconds may be any size.
  if (first !== undefined && (seconds >= 60 || (second !== undefined && minutes >= 60)))
    throw new UsageError(`${option} "${trimmed}" is not a time: minutes and seconds go up to 59 (${forms})`);
  return Math.round(((hours * 60 + minutes) * 60 + seconds) * 1000);
}
