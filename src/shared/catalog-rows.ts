import type { CatalogColumns, CatalogModel, CatalogRow } from './catalog';
import { perMillion } from './catalog-format';

/** The lean row the list shows and filters for one model of the catalog. */
export function catalogRowOf(model: CatalogModel): CatalogRow {
  return {
    id: model.id,
    name: model.name,
    description: model.description,
    created: model.created,
    contextLength: model.context_length ?? model.top_provider?.context_length ?? null,
    inputModalities: model.architecture.input_modalities,
    outputModalities: model.architecture.output_modalities,
    promptPrice: perMillion(model.pricing.prompt),
    completionPrice: perMillion(model.pricing.completion),
    parameters: model.supported_parameters,
    moderated: model.top_provider?.is_moderated ?? null,
  };
}

/**
 * Rows for the whole list, in name order: the view's default sort then finds them already
 * ordered, which a freshly loaded page would otherwise pay for before its first paint.
 */
export function catalogRowsOf(models: readonly CatalogModel[]): CatalogRow[] {
  return models.map(catalogRowOf).sort((a, b) => a.name.localeCompare(b.name));
}

const columnNames = [
  'id',
  'name',
  'description',
  'created',
  'contextLength',
  'inputModalities',
  'outputModalities',
  'promptPrice',
  'completionPrice',
  'parameters',
  'moderated',
] as const satisfies readonly (keyof CatalogRow)[];

/** Rows to the columns the overview carries. */
export function catalogColumnsOf(rows: readonly CatalogRow[]): CatalogColumns {
  const columns = Object.fromEntries(columnNames.map((name) => [name, rows.map((row) => row[name])]));
  return columns as CatalogColumns;
}

/** The overview's columns back to one row per model. */
export function catalogRowsFrom(columns: CatalogColumns): CatalogRow[] {
  return columns.id.map((id, i) => ({
    id,
    name: cell(columns.name, i),
    description: cell(columns.description, i),
    created: cell(columns.created, i),
    contextLength: cell(columns.contextLength, i),
    inputModalities: cell(columns.inputModalities, i),
    outputModalities: cell(columns.outputModalities, i),
    promptPrice: cell(columns.promptPrice, i),
    completionPrice: cell(columns.completionPrice, i),
    parameters: cell(columns.parameters, i),
    moderated: cell(columns.moderated, i),
  }));
}

/** A cell of a column the schema has checked to be as long as the ids. */
function cell<T>(column: readonly T[], i: number): T {
  return column[i] as T;
}
