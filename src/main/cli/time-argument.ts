import type { TypedTime } from '../../shared/time-range-words';
import { UsageError } from './usage-error';

/**
 * A time typed on the command line, as a journalist reads it off the reader or a player:
 * hh:mm:ss, mm:ss or seconds, each with an optional fraction (1:02:03.5, 02:03, 83.25).
 * Returns milliseconds and how finely the time was written (1000 for whole seconds, 100 for a
 * tenth), since a printed time is cut to its last digit (see time-range-words); anything else is
 * a usage error naming the option and the forms.
 */
export function parseTypedTime(text: string | undefined, option: string): TypedTime {
  if (text === undefined || text.trim() === '')
    throw new UsageError(`${option} needs a time, such as 00:12:31`);
  const trimmed = text.trim();
  const match = /^(?:(\d+):)?(?:(\d+):)?(\d+)(?:\.(\d+))?$/.exec(trimmed);
  const forms = 'hh:mm:ss, mm:ss or seconds, such as 00:12:31, 12:31 or 751';
  if (!match) throw new UsageError(`${option} "${trimmed}" is not a time; write it as ${forms}`);
  const [, first, second, whole, fraction = ''] = match;
  const hours = second === undefined ? 0 : Number(first);
  const minutes = second === undefined ? Number(first ?? 0) : Number(second);
  const seconds = Number(`${whole}.${fraction || '0'}`);
  // Within a clock time, minutes and seconds are below 60; a bare number of seconds may be any size.
  if (first !== undefined && (seconds >= 60 || (second !== undefined && minutes >= 60)))
    throw new UsageError(`${option} "${trimmed}" is not a time: minutes and seconds go up to 59 (${forms})`);
  return {
    ms: Math.round(((hours * 60 + minutes) * 60 + seconds) * 1000),
    precisionMs: Math.max(1, 10 ** (3 - fraction.length)),
  };
}
