import { parseArgs } from 'node:util';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { VerbatimError } from '../../../shared/errors';
import { outputModalitySchema, type CatalogModel, type ModalityFilter } from '../../../shared/catalog';
import { formatAge, formatPerMillion, formatTokens } from '../../../shared/catalog-format';
import { openDatabase } from '../../core/library/database';
import { systemClock } from '../../core/clock';
import { createCatalogService } from '../../core/catalog/catalog-setup';
import type { CatalogService } from '../../core/catalog/catalog-service';
import { UsageError } from '../usage-error';
import type { CliIo } from '../cli-io';

export const catalogUsage = `  catalog models [--json] [--modality text,image,...] [--eu]
  catalog endpoints <author/slug> [--json] [--eu]
  catalog count [--modality text,image,...|all] [--eu]
  catalog preset <slug> <version> [--json] [--eu]`;

/**
 * `catalog …`: the model catalog from a terminal, through the same cache as the app (the
 * library database in VERBATIM_DATA_DIR), so `catalog models` still answers offline.
 */
export async function runCatalogCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: 'boolean', default: false },
      eu: { type: 'boolean', default: false },
      modality: { type: 'string' },
    },
  });
  const [command, ...rest] = positionals;
  if (!io.env.VERBATIM_CATALOG_KEY && command !== undefined)
    throw new VerbatimError('unauthorized', 'Set VERBATIM_CATALOG_KEY to your model catalog key.');
  const dataDir = io.env.VERBATIM_DATA_DIR ?? join(homedir(), '.verbatim');
  mkdirSync(dataDir, { recursive: true });
  const db = openDatabase(join(dataDir, 'library.sqlite'));
  try {
    const catalog = createCatalogService({
      db,
      catalogKey: () => io.env.VERBATIM_CATALOG_KEY,
      managementKey: () => io.env.VERBATIM_MANAGEMENT_KEY,
      region: () => (values.eu ? 'eu' : 'us'),
      urlOverride: () => io.env.VERBATIM_CATALOG_URL,
      clock: systemClock,
    });
    const print = (value: unknown, human: () => string): void =>
      io.out(values.json ? JSON.stringify(value, null, 2) : human());
    switch (command) {
      case 'models':
        return await listModels(catalog, parseModalities(values.modality, false), io, print);
      case 'endpoints': {
        if (rest.length !== 1)
          throw new UsageError('catalog endpoints needs one model id, such as openai/gpt-5');
        const { model, error } = await catalog.endpoints(rest[0]!, { refresh: true });
        if (error) io.err(`verbatim: showing the copy saved earlier: ${error}\n`);
        print(model, () =>
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
      case 'count': {
        if (rest.length > 0) throw new UsageError('catalog count takes no other words');
        const filter = parseModalities(values.modality, true) ?? ['text'];
        const count = await catalog.count(filter);
        print({ count, outputModalities: filter }, () => String(count));
        return 0;
      }
      case 'preset': {
        if (rest.length !== 2)
          throw new UsageError('catalog preset needs a preset name and a version number');
        const version = Number(rest[1]);
        if (!Number.isInteger(version) || version < 1)
          throw new UsageError('the preset version is a whole number from 1');
        const { preset, error } = await catalog.preset(rest[0]!, version);
        if (error) io.err(`verbatim: showing the copy saved earlier: ${error}\n`);
        print(preset, () =>
          [
            `${rest[0]} version ${preset.version} (updated ${preset.updated_at})`,
            `Config: ${JSON.stringify(preset.config, null, 2)}`,
            `System prompt: ${preset.system_prompt ?? '(none)'}`,
          ].join('\n'),
        );
        return 0;
      }
      default:
        throw new UsageError(command ? `unknown catalog command "${command}"` : 'catalog needs a command');
    }
  } finally {
    db.close();
  }
}

async function listModels(
  catalog: CatalogService,
  modalities: ModalityFilter | undefined,
  io: CliIo,
  print: (value: unknown, human: () => string) => void,
): Promise<number> {
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
  print(models, () => models.map(describeModel).join('\n'));
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
