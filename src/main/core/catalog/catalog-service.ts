import { VerbatimError } from '../../../shared/errors';
import {
  outputModalities,
  type CachedEndpoints,
  type CachedPreset,
  type CatalogModel,
  type CatalogOverview,
  type CatalogRegion,
  type ModalityFilter,
} from '../../../shared/catalog';
import { catalogColumnsOf } from '../../../shared/catalog-rows';
import type { CatalogCache } from '../library/catalog-cache';
import type { CatalogClient } from './catalog-client';

/** After a day the catalog is refreshed in the background: prices and new models change daily. */
export const CATALOG_STALE_AFTER_MS = 24 * 60 * 60 * 1000;

export interface CatalogConnection {
  client: CatalogClient;
  region: CatalogRegion;
}

export interface CatalogServiceOptions {
  cache: CatalogCache;
  /** Read at each use, so a key or address changed in Settings applies at once. */
  connection: () => CatalogConnection;
  clock: { now(): number };
  staleAfterMs?: number;
  /** Told when a refresh (asked for or in the background) has finished, successful or not. */
  onRefreshed?: (overview: CatalogOverview) => void;
  log?: (message: string) => void;
}

interface RefreshOutcome {
  refreshError: string | null;
  countsError: string | null;
  zdrError: string | null;
}

/**
 * The catalog as the app uses it: read from the offline cache first, refreshed on demand and in
 * the background once stale. A failed refresh keeps the cache and reports why, so the catalog
 * stays browsable with no network.
 */
export class CatalogService {
  private readonly staleAfterMs: number;
  private running: Promise<CatalogOverview> | undefined;
  /** What the last refresh of each host said; kept in memory, the cache keeps the data. */
  private readonly outcomes = new Map<string, RefreshOutcome>();

  constructor(private readonly options: CatalogServiceOptions) {
    this.staleAfterMs = options.staleAfterMs ?? CATALOG_STALE_AFTER_MS;
  }

  /** The cached catalog at once; starts a background refresh when it is missing or stale. */
  overview(): CatalogOverview {
    const overview = this.read();
    if ((overview.stale || overview.fetchedAt === null) && !this.running) {
      // Service failures land in refreshError; only a local fault (the database) rejects.
      this.refresh().catch((error: unknown) =>
        this.options.log?.(`catalog refresh failed: ${messageOf(error)}`),
      );
      return { ...overview, refreshing: true };
    }
    return overview;
  }

  /** Fetches the model list, the counts and the ZDR endpoints; one refresh runs at a time. */
  refresh(): Promise<CatalogOverview> {
    if (!this.running) {
      this.running = this.fetchAll().finally(() => {
        this.running = undefined;
      });
      // Told after `running` is cleared, so the overview a listener reads is not "refreshing".
      this.running.then(
        (overview) => this.options.onRefreshed?.(overview),
        () => undefined,
      );
    }
    return this.running;
  }

  /** The cached model list in full, in the service's order (the CLI prints it). */
  models(): CatalogModel[] {
    return this.options.cache.models(this.options.connection().client.baseUrl)?.value ?? [];
  }

  /** One model in full from the cache, for its page: it works offline like the list. */
  model(modelId: string): CatalogModel {
    const model = this.options.cache.model(this.options.connection().client.baseUrl, modelId);
    if (!model) {
      throw new VerbatimError(
        'not_found',
        `The model "${modelId}" is not in the saved catalog. Refresh the catalog and try again.`,
      );
    }
    return model;
  }

  /** A model's endpoints: from the cache while fresh, else fetched (the cache answers when offline). */
  async endpoints(modelId: string, options: { refresh?: boolean } = {}): Promise<CachedEndpoints> {
    const { client } = this.options.connection();
    const host = client.baseUrl;
    const now = this.options.clock.now();
    const cached = this.options.cache.endpoints(host, modelId);
    if (cached && !options.refresh && now - cached.fetchedAt < this.staleAfterMs) {
      return { model: cached.value, fetchedAt: cached.fetchedAt, now, error: null };
    }
    try {
      const model = await client.modelEndpoints(modelId);
      this.options.cache.saveEndpoints(host, model, now);
      return { model, fetchedAt: now, now, error: null };
    } catch (error) {
      if (!cached) throw error;
      return { model: cached.value, fetchedAt: cached.fetchedAt, now, error: messageOf(error) };
    }
  }

  /** Models with any of the output modalities, asked of the service (management key). */
  count(filter: ModalityFilter): Promise<number> {
    return this.options.connection().client.countModels(filter);
  }

  /** A preset version: fetched when online, the cached copy when the service cannot be reached. */
  async preset(slug: string, version: number): Promise<CachedPreset> {
    const { client } = this.options.connection();
    const host = client.baseUrl;
    const now = this.options.clock.now();
    try {
      const preset = await client.presetVersion(slug, version);
      this.options.cache.savePreset(host, slug, preset, now);
      return { preset, fetchedAt: now, now, error: null };
    } catch (error) {
      const cached = this.options.cache.preset(host, slug, version);
      if (!cached || (error instanceof VerbatimError && error.code === 'not_found')) throw error;
      return { preset: cached.value, fetchedAt: cached.fetchedAt, now, error: messageOf(error) };
    }
  }

  private async fetchAll(): Promise<CatalogOverview> {
    const { client } = this.options.connection();
    const host = client.baseUrl;
    const { cache, clock } = this.options;
    const outcome: RefreshOutcome = { refreshError: null, countsError: null, zdrError: null };
    try {
      const { models } = await client.listModels();
      cache.saveModels(host, models, clock.now());
    } catch (error) {
      outcome.refreshError = messageOf(error);
    }
    // Counts and ZDR need the management key: their failure leaves the model list usable.
    if (outcome.refreshError === null) {
      try {
        const counts: Record<string, number> = {};
        for (const modality of outputModalities) counts[modality] = await client.countModels([modality]);
        cache.saveCounts(host, counts, clock.now());
      } catch (error) {
        outcome.countsError = messageOf(error);
      }
      try {
        const zdr = await client.zeroDataRetentionEndpoints();
        const endpoints = zdr.map(({ model_id, name, provider_name }) => ({ model_id, name, provider_name }));
        cache.saveZdr(host, endpoints, clock.now());
      } catch (error) {
        outcome.zdrError = messageOf(error);
      }
    }
    this.outcomes.set(host, outcome);
    return this.read(false);
  }

  private read(refreshing = this.running !== undefined): CatalogOverview {
    const { client, region } = this.options.connection();
    const host = client.baseUrl;
    const { cache } = this.options;
    const now = this.options.clock.now();
    const models = cache.rows(host);
    const outcome = this.outcomes.get(host);
    return {
      host,
      region,
      models: models?.value ?? catalogColumnsOf([]),
      fetchedAt: models?.fetchedAt ?? null,
      now,
      stale: models === undefined || now - models.fetchedAt >= this.staleAfterMs,
      refreshing,
      refreshError: outcome?.refreshError ?? null,
      counts: cache.counts(host)?.value ?? null,
      countsError: outcome?.countsError ?? null,
      zdrEndpoints: cache.zdr(host)?.value ?? null,
      zdrError: outcome?.zdrError ?? null,
      speeds: cache.speeds(host),
    };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
