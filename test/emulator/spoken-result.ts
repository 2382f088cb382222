/**
 * A tool's result as the emulated agents (the voice agent, the gateway's model) say it: in
 * words, never as JSON, as a language model would. Plain text is said as it is. JSON is read
 * out:
 * - an object with an `error` text: that text;
 * - an object: its fields separated by commas, bar those meant for machines (ids: `id` and
 *   `…_id`; times in milliseconds: `…_ms`), a number or true/false after its field's name
 *   ("quotes in story 3");
 * - a list: how many and the first three ("2 quotes: …; …"), an empty one "no <name>";
 * - null and empty objects: nothing.
 * Text that looks like JSON and is not is said to be unreadable.
 */
export function spokenToolResult(result: string): string {
  const text = result.trim();
  if (!/^[[{"]/.test(text)) return text;
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return 'an answer I could not read';
  }
  return spoken(value, undefined) || 'nothing';
}

/** How many items of a list are read out before "and N more". */
const ITEMS_READ = 3;

function spoken(value: unknown, key: string | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') {
    const said = typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value);
    return key ? `${spokenKey(key)} ${said}` : said;
  }
  if (Array.isArray(value)) return spokenList(value, key ? spokenKey(key) : 'items');
  const fields = value as Record<string, unknown>;
  if (typeof fields.error === 'string') return fields.error.trim();
  return Object.entries(fields)
    .filter(([name]) => !isForMachines(name))
    .map(([name, field]) => withoutEndPunctuation(spoken(field, name)))
    .filter(Boolean)
    .join(', ');
}

function spokenList(items: unknown[], name: string): string {
  if (items.length === 0) return `no ${name}`;
  const read = items
    .slice(0, ITEMS_READ)
    .map((item) => withoutEndPunctuation(spoken(item, undefined)))
    .filter(Boolean);
  const more = items.length > ITEMS_READ ? `; and ${items.length - ITEMS_READ} more` : '';
  const counted = `${items.length} ${items.length === 1 ? name.replace(/s$/, '') : name}`;
  return read.length > 0 ? `${counted}: ${read.join('; ')}${more}` : counted;
}

/** A part said within a longer sentence: its own full stop would end the sentence there. */
function withoutEndPunctuation(text: string): string {
  return text.replace(/[.;,:]+$/, '');
}

function spokenKey(key: string): string {
  return key.replace(/[_-]+/g, ' ').trim();
}

function isForMachines(key: string): boolean {
  return key === 'id' || key.endsWith('_id') || key.endsWith('_ms');
}
