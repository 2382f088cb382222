import type { Random } from '../catalog/seeded-random';

/**
 * A deterministic value that validates against a JSON schema: what a model constrained by
 * `response_format` (or asked for tool arguments) returns. Covers the subset structured outputs
 * use: objects with required keys, arrays with minItems/maxItems, strings (lengths, common
 * formats), numbers and integers with bounds and multipleOf, booleans, enum, const, $ref,
 * anyOf/oneOf/allOf and nullable types. `pattern` is not honoured (no regex inversion).
 */

export interface InstanceHints {
  /** Sentences to fill free-text strings with (the transcript's when there is one). */
  sentences: string[];
  /** Proper names to fill name-like fields (city, person, speaker...). */
  names: string[];
}

type Schema = Record<string, unknown>;

const NAME_LIKE_KEY = /(city|location|place|country|region|name|person|speaker|who|company|organi[sz]ation)/i;
const MAX_DEPTH = 12;

export function schemaInstance(schema: unknown, random: Random, hints: InstanceHints): unknown {
  return generate(schema, { root: schema, random, hints }, '', 0);
}

interface Context {
  root: unknown;
  random: Random;
  hints: InstanceHints;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function generate(node: unknown, context: Context, key: string, depth: number): unknown {
  if (depth > MAX_DEPTH || !isSchema(node)) return text(context, key);
  if ('const' in node) return node.const;
  if (Array.isArray(node.enum) && node.enum.length > 0) return context.random.pick(node.enum as unknown[]);
  if (typeof node.$ref === 'string')
    return generate(resolveRef(context.root, node.$ref), context, key, depth + 1);
  const options: unknown = node.anyOf ?? node.oneOf;
  if (Array.isArray(options) && options.length > 0) {
    const nonNull: unknown = options.find((option) => !(isSchema(option) && option.type === 'null'));
    return generate(nonNull ?? options[0], context, key, depth + 1);
  }
  if (Array.isArray(node.allOf)) {
    const parts = node.allOf.map((part) => generate(part, context, key, depth + 1));
    return parts.every(isSchema) ? Object.assign({}, ...parts) : parts[0];
  }
  switch (schemaType(node)) {
    case 'object':
      return objectInstance(node, context, depth);
    case 'array':
      return arrayInstance(node, context, key, depth);
    case 'integer':
      return numberInstance(node, context.random, true);
    case 'number':
      return numberInstance(node, context.random, false);
    case 'boolean':
      return context.random.chance(0.5);
    case 'null':
      return null;
    default:
      return stringInstance(node, context, key);
  }
}

function schemaType(node: Schema): string {
  if (Array.isArray(node.type)) {
    const types = (node.type as unknown[]).filter((type): type is string => typeof type === 'string');
    return types.find((type) => type !== 'null') ?? 'null';
  }
  if (typeof node.type === 'string') return node.type;
  if (isSchema(node.properties)) return 'object';
  if (node.items !== undefined || Array.isArray(node.prefixItems)) return 'array';
  return 'string';
}

/** `#/$defs/x` or `#/definitions/x` (JSON pointer into the root schema). */
function resolveRef(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return {};
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = isSchema(node) ? node[segment] : undefined;
  }
  return node ?? {};
}

function objectInstance(node: Schema, context: Context, depth: number): Record<string, unknown> {
  const properties = isSchema(node.properties) ? node.properties : {};
  const required = Array.isArray(node.required)
    ? (node.required as unknown[]).filter((name) => typeof name === 'string')
    : [];
  const result: Record<string, unknown> = {};
  // Optional properties are filled too: a fuller answer, and still valid. But not an optional
  // name when the request names nobody: a model does not invent a speaker to narrow a search to.
  for (const [name, property] of Object.entries(properties)) {
    if (!required.includes(name) && isNameLike(name, property) && context.hints.names.length === 0) continue;
    result[name] = generate(property, context, name, depth + 1);
  }
  for (const name of required) if (!(name in result)) result[name] = text(context, name);
  return result;
}

function arrayInstance(node: Schema, context: Context, key: string, depth: number): unknown[] {
  const minItems = typeof node.minItems === 'number' ? node.minItems : 1;
  const maxItems = typeof node.maxItems === 'number' ? node.maxItems : minItems + 2;
  const count = Math.min(
    maxItems,
    context.random.int(minItems, Math.max(minItems, Math.min(maxItems, minItems + 2))),
  );
  const prefix: unknown[] = Array.isArray(node.prefixItems) ? node.prefixItems : [];
  const items: unknown[] = [];
  for (let index = 0; index < count; index += 1) {
    const itemSchema: unknown = index < prefix.length ? prefix[index] : node.items;
    let item = generate(itemSchema ?? {}, context, key, depth + 1);
    if (node.uniqueItems === true && items.some((other) => JSON.stringify(other) === JSON.stringify(item))) {
      item =
        typeof item === 'string' ? `${item} (${index + 1})` : typeof item === 'number' ? item + index : item;
    }
    items.push(item);
  }
  return items;
}

function numberInstance(node: Schema, random: Random, integer: boolean): number {
  const bound = (inclusive: unknown, exclusive: unknown): { value?: number; exclusive: boolean } =>
    typeof inclusive === 'number'
      ? { value: inclusive, exclusive: false }
      : typeof exclusive === 'number'
        ? { value: exclusive, exclusive: true }
        : { exclusive: false };
  const lower = bound(node.minimum, node.exclusiveMinimum);
  const upper = bound(node.maximum, node.exclusiveMaximum);
  const low = lower.value ?? (upper.value !== undefined ? upper.value - 100 : 0);
  const high = upper.value ?? low + 100;
  const multipleOf = typeof node.multipleOf === 'number' && node.multipleOf > 0 ? node.multipleOf : undefined;
  if (multipleOf !== undefined) {
    let value = Math.ceil(low / multipleOf) * multipleOf;
    if (lower.exclusive && value <= low) value += multipleOf;
    return value;
  }
  if (integer) {
    const first = lower.exclusive ? Math.floor(low) + 1 : Math.ceil(low);
    const last = upper.exclusive ? Math.ceil(high) - 1 : Math.floor(high);
    return random.int(first, Math.max(first, last));
  }
  const value = low + (high - low) * (0.25 + 0.5 * random.next());
  const rounded = Math.round(value * 100) / 100;
  return rounded > low && rounded < high ? rounded : value;
}

function stringInstance(node: Schema, context: Context, key: string): string {
  let value: string;
  switch (node.format) {
    case 'date-time':
      value = '2025-09-01T09:30:00Z';
      break;
    case 'date':
      value = '2025-09-01';
      break;
    case 'time':
      value = '09:30:00';
      break;
    case 'email':
      value = 'newsdesk@example.com';
      break;
    case 'uri':
    case 'url':
      value = 'https://example.com/story';
      break;
    case 'uuid':
      value = '5b0b5c8e-6a8e-4b8e-9c1e-2f3a4b5c6d7e';
      break;
    default:
      value = text(context, key);
  }
  const minLength = typeof node.minLength === 'number' ? node.minLength : 0;
  const maxLength = typeof node.maxLength === 'number' ? node.maxLength : Infinity;
  while ([...value].length < minLength) value = `${value} ${value}`.trim() || 'x'.repeat(minLength);
  return [...value].slice(0, maxLength).join('');
}

/** A free-text property meant for a name (city, speaker…), not a choice among values. */
function isNameLike(key: string, property: unknown): boolean {
  return NAME_LIKE_KEY.test(key) && isSchema(property) && schemaType(property) === 'string' && !property.enum;
}

function text(context: Context, key: string): string {
  const { random, hints } = context;
  if (NAME_LIKE_KEY.test(key) && hints.names.length > 0) return random.pick(hints.names);
  if (hints.sentences.length > 0) return random.pick(hints.sentences);
  return 'Not stated in the source.';
}
