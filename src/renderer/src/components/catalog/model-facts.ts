import type { CatalogModel } from '../../../../shared/catalog';
import { formatPerMillion, formatPrice, formatTokens, perMillion } from '../../../../shared/catalog-format';
import { formatCalendarDate, formatDay } from '../../../../shared/display-format';

/** The facts of a model as label/value rows: shared by the model page and the comparison. */
export function modelFacts(model: CatalogModel): { label: string; value: string }[] {
  const image = perMillion(model.pricing.image);
  const request = perMillion(model.pricing.request);
  return [
    { label: 'Input', value: model.architecture.input_modalities.join(', ') || 'Unknown' },
    { label: 'Output', value: model.architecture.output_modalities.join(', ') || 'Unknown' },
    { label: 'Tokenizer', value: model.architecture.tokenizer ?? 'Unknown' },
    { label: 'Input price', value: formatPerMillion(model.pricing.prompt) },
    { label: 'Output price', value: formatPerMillion(model.pricing.completion) },
    // Image and request prices are per item, not per token: a million of them reads as dollars per thousand.
    ...(image ? [{ label: 'Per image', value: formatPrice(image / 1_000_000) }] : []),
    ...(request ? [{ label: 'Per request', value: formatPrice(request / 1_000_000) }] : []),
    { label: 'Context', value: `${formatTokens(model.context_length)} tokens` },
    {
      label: 'Longest answer',
      value: `${formatTokens(model.top_provider?.max_completion_tokens)} tokens`,
    },
    {
      label: 'Moderated',
      value: model.top_provider ? (model.top_provider.is_moderated ? 'Yes' : 'No') : 'Unknown',
    },
    // Dates as every surface writes them; the catalog's days are its own (UTC), not this machine's.
    {
      label: 'Knowledge cutoff',
      value: model.knowledge_cutoff ? formatCalendarDate(model.knowledge_cutoff) : 'Not stated',
    },
    {
      label: 'Expires',
      value: model.expiration_date ? formatCalendarDate(model.expiration_date) : 'No date set',
    },
    { label: 'Added', value: formatDay(model.created * 1000, 'UTC') },
  ];
}
