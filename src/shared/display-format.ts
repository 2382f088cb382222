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

const citationDateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * "14 March 2025": the recording's day as a citation names it. A quote's source is cited by
 * the day, as newspapers write it, not by the minute the library shows.
 */
export function formatCitationDate(ms: number, timeZone?: string): string {
  if (!Number.isFinite(ms)) return 'Unknown date';
  const key = timeZone ?? '';
  let format = citationDateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone });
    citationDateFormats.set(key, format);
  }
  return format.format(ms);
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
