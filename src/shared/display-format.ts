/**
 * How a recording's facts read wherever Verbatim shows them (library, reader, exports, the
 * command line): one date format, language names instead of codes, topics in words. The app
 * speaks English, so these are English (en-US) whatever the machine's locale; times are the
 * machine's own time zone unless a caller names one (tests and reproducible exports do).
 */

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** "Nov 20, 2026, 9:30 AM": when a recording was made, the same string on every surface. */
export function formatRecordedAt(ms: number, timeZone?: string): string {
  if (!Number.isFinite(ms)) return 'Unknown date';
  const key = timeZone ?? '';
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone });
    dateTimeFormats.set(key, format);
  }
  return format.format(ms);
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * "Nov 20, 2026": a date without its time of day, written as formatRecordedAt writes the date.
 * A citation names the recording's day (a quote's source is cited by the day, not by the minute
 * the library shows), and so do the catalog's dates; the command line's listings use it too.
 */
export function formatDay(ms: number, timeZone?: string): string {
  if (!Number.isFinite(ms)) return 'Unknown date';
  const key = timeZone ?? '';
  let format = dayFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone });
    dayFormats.set(key, format);
  }
  return format.format(ms);
}

/**
 * A calendar date the catalog sends as text ("2024-09-25", or a whole ISO time) in the one date
 * format. A date names a day, not an instant, so it is written in UTC, where the text put it;
 * text that is not a date is shown as it came, never hidden.
 */
export function formatCalendarDate(text: string): string {
  const day = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/.exec(text.trim());
  if (!day) return text;
  const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])];
  const ms = Date.UTC(year, month - 1, date);
  // 2024-02-30 would roll over into March: a day the calendar does not have is shown as it came.
  const real = new Date(ms);
  const same =
    real.getUTCFullYear() === year && real.getUTCMonth() === month - 1 && real.getUTCDate() === date;
  return same ? formatDay(ms, 'UTC') : text;
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language', languageDisplay: 'standard' });

/**
 * "en_us" → "English (United States)", "es" → "Spanish". The service writes regions with an
 * underscore (en_us, en_uk); a code no name is known for is shown as it is, never hidden.
 */
export function languageName(code: string): string {
  const tag = code.trim().replace(/_/g, '-');
  try {
    const name = languageNames.of(tag);
    return name && name.toLowerCase() !== tag.toLowerCase() ? name : code;
  } catch {
    // A code that is not a well-formed language tag (RangeError): show what the service sent.
    return code;
  }
}

/**
 * The service's topic paths are IAB taxonomy names joined by ">", written in CamelCase
 * ("BusinessAndFinance>Industries>LogisticsAndTransportationIndustry"); a reader sees
 * "Business and Finance › Industries › Logistics and Transportation Industry".
 */
export function topicLabel(path: string): string {
  return path
    .split('>')
    .map((part) =>
      part
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
        .replace(/\b(And|Or|Of|The|In|For|To|With)\b(?!$)/g, (word, _match, offset: number) =>
          offset === 0 ? word : word.toLowerCase(),
        )
        .trim(),
    )
    .filter((part) => part.length > 0)
    .join(' › ');
}
