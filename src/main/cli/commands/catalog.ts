import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { VerbatimError } from '../../../shared/errors';
import { outputModalitySchema, type CatalogModel, type ModalityFilter } from '../../../shared/catalog';
import { formatAge, formatPerMillion, formatTokens } from '../../../shared/catalog-format';
import { LibraryDatabase } from '../../core/library/library-database';
import { systemClock } from '../../base/clock';
import { createCatalogService } from '../../core/catalog/catalog-setup';
import type { CatalogService } from '../../core/catalog/catalog-service';
import { printResult, type CliIo } from '../cli-io';
import type { OptionValues } from '../cli-options';
import { defineCommand } from '../command';
import { dataFolderOf, networkBoundsOf } from '../environment';
import { waitingForUpgrade } from '../../core/library/library-upgrade';
import { UsageError } from '../usage-error';

const catalogOptions = {
  json: { type: 'boolean', description: 'prints the answer as JSON' },
  eu: { type: 'boolean', description: "asks the catalog's EU host, which lists fewer models" },
  modality: {
    type: 'string',
    valueName: 'LIST',
    description: 'only models that write one of these: text, image, audio, embeddings (count also takes all)',
  },
} as const;

/** What one of catalog's own commands (models, endpoints, count, preset) is given. */
interface CatalogRequest {
  catalog: CatalogService;
  /** The words after the catalog command's name. */
  words: string[];
  values: OptionValues<typeof catalogOptions>;
  io: CliIo;
}

/**
 * `catalog …`: the model catalog from a terminal, through the same cache as the app (the
 * library database in VERBATIM_DATA_DIR), so `catalog models` still answers offline.
 */
export const catalogCommand = defineCommand({
  name: 'catalog',
  usage: [
    'models [--json] [--modality text,image,...] [--eu]',
    'endpoints <author/slug> [--json] [--eu]',
    'count [--modality text,image,...|all] [--json] [--eu]',
    'preset <slug> <version> [--json] [--eu]',
  ],
  summary:
    "The model catalog through the app's cache, so it answers offline: models, endpoints, counts, presets.",
  options: catalogOptions,
  takesWords: true,
  async run({ values, positionals }, { io }) {
    const [name, ...words] = positionals;
    if (!io.env.VERBATIM_CATALOG_KEY && name !== undefined)
      throw new VerbatimError('unauthorized', 'Set VERBATIM_CATALOG_KEY to your model catalog key.');
    const dataDir = dataFolderOf(io.env);
    mkdirSync(dataDir, { recursive: true });
    const database = LibraryDatabase.open(join(dataDir, 'library.sqlite'), {
      onWaitingForUpgrade: () => io.err(`verbatim: ${waitingForUpgrade}\n`),
    });
    try {
      const catalog = createCatalogService({
        cache: database.catalogCache,
        catalogKey: () => io.env.VERBATIM_CATALOG_KEY,
        managementKey: () => io.env.VERBATIM_MANAGEMENT_KEY,
        region: () => (values.eu ? 'eu' : 'us'),
        urlOverride: () => io.env.VERBATIM_CATALOG_URL,
        clock: systemClock,
        networkBounds: networkBoundsOf(io.env),
      });
      const action = name === undefined ? undefined : catalogActions.get(name);
      if (!action)
        throw new UsageError(name ? `unknown catalog command "${name}"` : 'catalog needs a command');
      return await action({ catalog, words, values, io });
    } finally {
      database.close();
    }
  },
});

const catalogActions = new Map<string, (request: CatalogRequest) => Promise<number>>([
  ['models', listModels],
  ['endpoints', showEndpoints],
  ['count', countModels],
  ['preset', showPreset],
]);

async function listModels({ catalog, values, io }: CatalogRequest): Promise<number> {
  const modalities = parseModalities(values.modality, false);
  const overview = await catalog.refresh();
  if (overview.refreshError) {
    if (overview.fetchedAt === null) throw new VerbatimError('network', overview.refreshError);
    io.err(
      `verbatim: showing the catalog saved ${formatAge(overview.now - overview.fetchedAt)}: ${overview.refreshError}\n`,
    );
  }
  const wanted = modalities === 'all' ? undefined : modalities;
  const models = catalog
    .models()
    .filter(
      (model) => !wanted || model.architecture.output_modalities.some((m) => wanted.some((w) => w === m)),
    );
  printResult(io, values.json, models, () => models.map(describeModel).join('\n'));
  return 0;
}

async function showEndpoints({ catalog, words, values, io }: CatalogRequest): Promise<number> {
  if (words.length !== 1) throw new UsageError('catalog endpoints needs one model id, such as openai/gpt-5');
  const { model, error } = await catalog.endpoints(words[0]!, { refresh: true });
  if (error) io.err(`verbatim: showing the copy saved earlier: ${error}\n`);
  printResult(io, values.json, model, () =>
    [
      `${model.name} (${model.id})`,
      ...model.endpoints.map(
        (e) =>
          `${e.provider_name}  ${e.quantization ?? 'unknown'}  context ${formatTokens(e.context_length)}  ` +
          `in ${formatPerMillion(e.pricing.prompt)}  out ${formatPerMillion(e.pricing.completion)}  ` +
          `uptime 1d ${e.uptime_last_1d ?? '?'}%  latency p50 ${e.latency_last_30m?.p50 ?? '?'} ms  ` +
          `throughput p50 ${e.throughput_last_30m?.p50 ?? '?'} tok/s`,
      ),
    ].join('\n'),
  );
  return 0;
}

async function countModels({ catalog, words, values, io }: CatalogRequest): Promise<number> {
  if (words.length > 0) throw new UsageError('catalog count takes no other words');
  const filter = parseModalities(values.modality, true) ?? ['text'];
  const count = await catalog.count(filter);
  printResult(io, values.json, { count, outputModalities: filter }, () => String(count));
  return 0;
}

async function showPreset({ catalog, words, values, io }: CatalogRequest): Promise<number> {
  if (words.length !== 2) throw new UsageError('catalog preset needs a preset name and a version number');
  const version = Number(words[1]);
  if (!Number.isInteger(version) || version < 1)
    throw new UsageError('the preset version is a whole number from 1');
  const { preset, error } = await catalog.preset(words[0]!, version);
  if (error) io.err(`verbatim: showing the copy saved earlier: ${error}\n`);
  printResult(io, values.json, preset, () =>
    [
      `${words[0]} version ${preset.version} (updated ${preset.updated_at})`,
      `Config: ${JSON.stringify(preset.config, null, 2)}`,
      `System prompt: ${preset.system_prompt ?? '(none)'}`,
    ].join('\n'),
  );
  return 0;
}

function describeModel(model: CatalogModel): string {
  return `${model.id}  ${model.name}  context ${formatTokens(model.context_length)}  in ${formatPerMillion(model.pricing.prompt)}  out ${formatPerMillion(model.pricing.completion)}`;
}

function parseModalities(value: string | undefined, allowAll: boolean): ModalityFilter | undefined {
  if (value === undefined) return undefined;
  if (value === 'all' && allowAll) return 'all';
  const parts = value.split(',').map((part) => part.trim());
  const parsed = parts.map((part) => outputModalitySchema.safeParse(part));
  if (parts.length === 0 || parsed.some((result) => !result.success))
    throw new UsageError(
      `--modality takes a comma-separated list of text, image, audio, embeddings${allowAll ? ', or all' : ''}`,
    );
  return parsed.flatMap((result) => (result.success ? [result.data] : []));
}
