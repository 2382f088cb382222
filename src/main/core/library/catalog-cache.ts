import { z } from 'zod';
import {
  catalogModelSchema,
  modelEndpointsSchema,
  presetVersionSchema,
  zdrEndpointSchema,
  type CatalogModel,
  type CatalogColumns,
  type ModelEndpoints,
  type ModelSpeed,
  type PresetVersion,
  type ZdrEndpoint,
} from '../../../shared/catalog';
import { inWriteTransaction, type Db } from './database';
import { catalogColumnsOf, catalogRowsOf } from '../../../shared/catalog-rows';
import { statement } from './statement-cache';

export interface Cached<T> {
  value: T;
  fetchedAt: number;
}

type SnapshotKind = 'zdr' | 'counts';

/**
 * The offline copy of the catalog in the library database (migration 004), keyed by the
 * catalog's address. Rows hold the service's JSON; reading them back goes through the same
 * schemas as the network, so a damaged row is skipped instead of breaking the view.
 */
export class CatalogCache {
  /** The parsed list per host, kept after the first read: thousands of rows are read once. */
  private readonly modelLists = new Map<string, Cached<CatalogModel[]>>();
  /** The list's lean rows and the models by id, worked out once per list. */
  private readonly rowLists = new Map<string, Cached<CatalogColumns>>();
  private readonly modelsById = new Map<string, Map<string, CatalogModel>>();

  constructor(private readonly db: Db) {}

  /** Replaces the whole model list of a host in one transaction. */
  saveModels(host: string, models: CatalogModel[], fetchedAt: number): void {
    const remove = statement(this.db, 'DELETE FROM catalog_models WHERE host = ?');
    const insert = statement(this.db, 'INSERT OR REPLACE INTO catalog_models VALUES (?, ?, ?, ?)');
    inWriteTransaction(this.db, () => {
      remove.run(host);
      models.forEach((model, position) => insert.run(host, model.id, position, JSON.stringify(model)));
      this.stamp(host, 'models', fetchedAt, null);
    });
    this.modelLists.set(host, { value: models, fetchedAt });
    this.rowLists.delete(host);
    this.modelsById.delete(host);
  }

  /** The cached list as lean rows in name order (see catalogRowsOf), column by column. */
  rows(host: string): Cached<CatalogColumns> | undefined {
    const remembered = this.rowLists.get(host);
    if (remembered) return remembered;
    const list = this.models(host);
    if (!list) return undefined;
    const rows = { value: catalogColumnsOf(catalogRowsOf(list.value)), fetchedAt: list.fetchedAt };
    this.rowLists.set(host, rows);
    return rows;
  }

  /** One cached model in full, for its page; undefined when the list does not hold it. */
  model(host: string, modelId: string): CatalogModel | undefined {
    let byId = this.modelsById.get(host);
    if (!byId) {
      byId = new Map(this.models(host)?.value.map((model) => [model.id, model]));
      this.modelsById.set(host, byId);
    }
    return byId.get(modelId);
  }

  models(host: string): Cached<CatalogModel[]> | undefined {
    const remembered = this.modelLists.get(host);
    if (remembered) return remembered;
    const fetchedAt = this.fetchedAt(host, 'models');
    if (fetchedAt === undefined) return undefined;
    const rows = statement(this.db, 'SELECT json FROM catalog_models WHERE host = ? ORDER BY position').all(
      host,
    ) as { json: string }[];
    const list = { value: rows.flatMap((row) => parsed(catalogModelSchema, row.json) ?? []), fetchedAt };
    this.modelLists.set(host, list);
    return list;
  }

  saveEndpoints(host: string, model: ModelEndpoints, fetchedAt: number): void {
    statement(this.db, 'INSERT OR REPLACE INTO catalog_endpoints VALUES (?, ?, ?, ?)').run(
      host,
      model.id,
      fetchedAt,
      JSON.stringify(model),
    );
  }

  endpoints(host: string, modelId: string): Cached<ModelEndpoints> | undefined {
    const row = statement(
      this.db,
      'SELECT fetched_at, json FROM catalog_endpoints WHERE host = ? AND model_id = ?',
    ).get(host, modelId) as { fetched_at: number; json: string } | undefined;
    const value = row && parsed(modelEndpointsSchema, row.json);
    return row && value ? { value, fetchedAt: row.fetched_at } : undefined;
  }

  /** The best p50 throughput and latency of every model whose endpoints were seen. */
  speeds(host: string): Record<string, ModelSpeed> {
    const rows = statement(this.db, 'SELECT model_id, json FROM catalog_endpoints WHERE host = ?').all(
      host,
    ) as {
      model_id: string;
      json: string;
    }[];
    const speeds: Record<string, ModelSpeed> = {};
    for (const row of rows) {
      const model = parsed(modelEndpointsSchema, row.json);
      if (!model) continue;
      const throughputs = model.endpoints.flatMap((e) =>
        e.throughput_last_30m ? [e.throughput_last_30m.p50] : [],
      );
      const latencies = model.endpoints.flatMap((e) => (e.latency_last_30m ? [e.latency_last_30m.p50] : []));
      speeds[row.model_id] = {
        throughputP50: throughputs.length ? Math.max(...throughputs) : null,
        latencyP50: latencies.length ? Math.min(...latencies) : null,
      };
    }
    return speeds;
  }

  savePreset(host: string, slug: string, preset: PresetVersion, fetchedAt: number): void {
    statement(this.db, 'INSERT OR REPLACE INTO catalog_presets VALUES (?, ?, ?, ?, ?)').run(
      host,
      slug,
      preset.version,
      fetchedAt,
      JSON.stringify(preset),
    );
  }

  preset(host: string, slug: string, version: number): Cached<PresetVersion> | undefined {
    const row = statement(
      this.db,
      'SELECT fetched_at, json FROM catalog_presets WHERE host = ? AND slug = ? AND version = ?',
    ).get(host, slug, version) as { fetched_at: number; json: string } | undefined;
    const value = row && parsed(presetVersionSchema, row.json);
    return row && value ? { value, fetchedAt: row.fetched_at } : undefined;
  }

  saveZdr(host: string, endpoints: ZdrEndpoint[], fetchedAt: number): void {
    this.stamp(host, 'zdr', fetchedAt, JSON.stringify(endpoints));
  }

  zdr(host: string): Cached<ZdrEndpoint[]> | undefined {
    return this.snapshot(host, 'zdr', zdrEndpointSchema.array());
  }

  saveCounts(host: string, counts: Record<string, number>, fetchedAt: number): void {
    this.stamp(host, 'counts', fetchedAt, JSON.stringify(counts));
  }

  counts(host: string): Cached<Record<string, number>> | undefined {
    return this.snapshot(host, 'counts', countsSchema);
  }

  private stamp(host: string, kind: SnapshotKind | 'models', fetchedAt: number, json: string | null): void {
    statement(this.db, 'INSERT OR REPLACE INTO catalog_snapshots VALUES (?, ?, ?, ?)').run(
      host,
      kind,
      fetchedAt,
      json,
    );
  }

  private fetchedAt(host: string, kind: 'models'): number | undefined {
    const row = statement(
      this.db,
      'SELECT fetched_at FROM catalog_snapshots WHERE host = ? AND kind = ?',
    ).get(host, kind) as { fetched_at: number } | undefined;
    return row?.fetched_at;
  }

  private snapshot<T>(host: string, kind: SnapshotKind, schema: z.ZodType<T>): Cached<T> | undefined {
    const row = statement(
      this.db,
      'SELECT fetched_at, json FROM catalog_snapshots WHERE host = ? AND kind = ?',
    ).get(host, kind) as { fetched_at: number; json: string | null } | undefined;
    const value = row?.json ? parsed(schema, row.json) : undefined;
    return row && value !== undefined ? { value, fetchedAt: row.fetched_at } : undefined;
  }
}

const countsSchema = z.record(z.string(), z.number().int().nonnegative());

function parsed<T>(schema: z.ZodType<T>, json: string): T | undefined {
  try {
    const result = schema.safeParse(JSON.parse(json));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}
