import type { CatalogRow, ModelSpeed, ZdrEndpoint } from '../../../shared/catalog';

/**
 * Searching, filtering and sorting the catalog, as pure functions over a precomputed index:
 * every keystroke filters thousands of models, so the lower-cased text and the numbers are
 * worked out once per catalog, not once per keystroke.
 */

export interface IndexedModel {
  model: CatalogRow;
  zdr: boolean;
  throughput: number | null;
  latency: number | null;
  parameters: ReadonlySet<string>;
}

export const sortKeys = ['name', 'price', 'context', 'newest', 'throughput', 'latency'] as const;
export type SortKey = (typeof sortKeys)[number];

export const sortLabels: Record<SortKey, string> = {
  name: 'Name',
  price: 'Price (lowest first)',
  context: 'Context length (largest first)',
  newest: 'Newest first',
  throughput: 'Throughput (fastest first)',
  latency: 'Latency (lowest first)',
};

export interface CatalogQuery {
  text: string;
  /** A model matches when it accepts every input listed… */
  inputModalities: string[];
  /** …and produces any output listed. */
  outputModalities: string[];
  contextMin: number | null;
  contextMax: number | null;
  /** Dollars per million prompt tokens. */
  priceMin: number | null;
  priceMax: number | null;
  /** Supported parameters the model must have, such as tools or response_format. */
  parameters: string[];
  moderation: 'any' | 'moderated' | 'unmoderated';
  zdrOnly: boolean;
  sort: SortKey;
}

export const emptyQuery: CatalogQuery = {
  text: '',
  inputModalities: [],
  outputModalities: [],
  contextMin: null,
  contextMax: null,
  priceMin: null,
  priceMax: null,
  parameters: [],
  moderation: 'any',
  zdrOnly: false,
  sort: 'name',
};

export function indexModels(
  models: readonly CatalogRow[],
  zdr: readonly ZdrEndpoint[] | null,
  speeds: Readonly<Record<string, ModelSpeed>>,
): IndexedModel[] {
  const zdrModels = new Set(zdr?.map((endpoint) => endpoint.model_id));
  return models.map((model) => ({
    model,
    zdr: zdrModels.has(model.id),
    throughput: speeds[model.id]?.throughputP50 ?? null,
    latency: speeds[model.id]?.latencyP50 ?? null,
    parameters: new Set(model.parameters),
  }));
}

/**
 * Name, id and description, lower-cased, for the search box. Made on the first search rather
 * than when the catalog arrives: 5,000 descriptions cost milliseconds the view's first paint
 * should not wait for, and most visits never type a word.
 */
const haystacks = new WeakMap<CatalogRow, string>();
function haystackOf(model: CatalogRow): string {
  let haystack = haystacks.get(model);
  if (haystack === undefined) {
    haystack = `${model.name}\n${model.id}\n${model.description}`.toLowerCase();
    haystacks.set(model, haystack);
  }
  return haystack;
}

/**
 * The models matching the query, in the query's order. The query's fields are copied to
 * locals first: it may be a reactive proxy, and reading one per model per keystroke adds up.
 */
export function filterModels(index: readonly IndexedModel[], query: CatalogQuery): IndexedModel[] {
  const words = query.text.toLowerCase().split(/\s+/).filter(Boolean);
  const inputs = [...query.inputModalities];
  const outputs = [...query.outputModalities];
  const parameters = [...query.parameters];
  const { contextMin, contextMax, priceMin, priceMax, moderation, zdrOnly } = query;
  const wantModerated = moderation === 'moderated';
  return sortedBy(index, query.sort).filter(
    (entry) =>
      (words.length === 0 || words.every((word) => haystackOf(entry.model).includes(word))) &&
      inputs.every((m) => entry.model.inputModalities.includes(m)) &&
      (outputs.length === 0 || outputs.some((m) => entry.model.outputModalities.includes(m))) &&
      within(entry.model.contextLength, contextMin, contextMax) &&
      within(entry.model.promptPrice, priceMin, priceMax) &&
      parameters.every((parameter) => entry.parameters.has(parameter)) &&
      (moderation === 'any' || entry.model.moderated === wantModerated) &&
      (!zdrOnly || entry.zdr),
  );
}

/** Each order is sorted once per catalog: filtering a sorted list keeps it sorted. */
const sortedOrders = new WeakMap<readonly IndexedModel[], Map<SortKey, IndexedModel[]>>();

function sortedBy(index: readonly IndexedModel[], sort: SortKey): IndexedModel[] {
  let orders = sortedOrders.get(index);
  if (!orders) sortedOrders.set(index, (orders = new Map<SortKey, IndexedModel[]>()));
  let sorted = orders.get(sort);
  if (!sorted) orders.set(sort, (sorted = [...index].sort(comparators[sort])));
  return sorted;
}

/** A bound left empty does not filter; a model with an unknown value fails any bound. */
function within(value: number | null, min: number | null, max: number | null): boolean {
  if (min === null && max === null) return true;
  if (value === null) return false;
  return (min === null || value >= min) && (max === null || value <= max);
}

type Comparator = (a: IndexedModel, b: IndexedModel) => number;

// localeCompare without options: V8 has a fast path for it that an Intl.Collator lacks.
const byName: Comparator = (a, b) => a.model.name.localeCompare(b.model.name);

/** Ascending or descending on a number, unknown values last, ties by name. */
function byNumber(value: (entry: IndexedModel) => number | null, descending: boolean): Comparator {
  return (a, b) => {
    const x = value(a);
    const y = value(b);
    if (x === y) return byName(a, b);
    if (x === null) return 1;
    if (y === null) return -1;
    return descending ? y - x : x - y;
  };
}

const comparators: Record<SortKey, Comparator> = {
  name: byName,
  price: byNumber((entry) => entry.model.promptPrice, false),
  context: byNumber((entry) => entry.model.contextLength, true),
  newest: byNumber((entry) => entry.model.created, true),
  throughput: byNumber((entry) => entry.throughput, true),
  latency: byNumber((entry) => entry.latency, false),
};

export interface Facets {
  inputModalities: string[];
  outputModalities: string[];
  parameters: string[];
}

/** The choices the filters offer: what the catalog actually contains. */
export function facetsOf(models: readonly CatalogRow[]): Facets {
  const inputs = new Set<string>();
  const outputs = new Set<string>();
  const parameters = new Set<string>();
  for (const model of models) {
    for (const m of model.inputModalities) inputs.add(m);
    for (const m of model.outputModalities) outputs.add(m);
    for (const p of model.parameters) parameters.add(p);
  }
  const sorted = (set: Set<string>): string[] => [...set].sort();
  return {
    inputModalities: sorted(inputs),
    outputModalities: sorted(outputs),
    parameters: sorted(parameters),
  };
}

/** How many models the sort can order by speed, so the view can say where it is unknown. */
export function measuredCount(index: readonly IndexedModel[], sort: SortKey): number | undefined {
  if (sort !== 'throughput' && sort !== 'latency') return undefined;
  return index.filter((entry) => entry[sort] !== null).length;
}

export const MAX_COMPARED = 4;

/** Adds or removes a model from the comparison; the oldest choice makes room for a fifth. */
export function toggleCompared(compared: readonly string[], id: string): string[] {
  if (compared.includes(id)) return compared.filter((other) => other !== id);
  return [...compared, id].slice(-MAX_COMPARED);
}
