import type { CatalogModel, CatalogRow } from './catalog';
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
