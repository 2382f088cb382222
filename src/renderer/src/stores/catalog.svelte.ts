import type { CachedEndpoints, CachedPreset, CatalogModel, CatalogOverview } from '../../../shared/catalog';
import { catalogRowsFrom } from '../../../shared/catalog-rows';
import { api } from '../lib/api';
import { isExpected, type Problem } from '../lib/error-message';
import { caught } from '../lib/report-problem';
import {
  emptyQuery,
  facetsOf,
  filterModels,
  indexModels,
  toggleCompared,
  type CatalogQuery,
} from '../lib/catalog-filter';
import { settings } from './settings.svelte';

/** How often the shown age of the cache is brought up to date. */
const AGE_TICK_MS = 30_000;

/**
 * The catalog as the view sees it: the cached overview main answers at once (and pushes again
 * after each refresh), the query over it, the open model with its endpoints, the comparison
 * and the preset lookup. Big lists are raw state: thousands of models need no deep proxies.
 */
class CatalogStore {
  overview = $state.raw<CatalogOverview | undefined>(undefined);
  loadError = $state<Problem | undefined>(undefined);
  refreshing = $state(false);
  /** When the overview arrived, by this page's clock: ages advance from the service's `now`. */
  private receivedAt = $state(0);
  private tick = $state(Date.now());

  query = $state<CatalogQuery>({ ...emptyQuery });
  rows = $derived(this.overview ? catalogRowsFrom(this.overview.models) : []);
  index = $derived(
    this.overview ? indexModels(this.rows, this.overview.zdrEndpoints, this.overview.speeds) : [],
  );
  results = $derived(filterModels(this.index, this.query));
  facets = $derived(facetsOf(this.rows));

  selectedId = $state<string | undefined>(undefined);
  /** Models in full, asked of main when their page opens or they join the comparison. */
  private fullModels = $state.raw<Readonly<Record<string, CatalogModel>>>({});
  selected = $derived(this.selectedId === undefined ? undefined : this.fullModels[this.selectedId]);
  modelError = $state<Problem | undefined>(undefined);
  endpoints = $state.raw<CachedEndpoints | undefined>(undefined);
  endpointsError = $state<Problem | undefined>(undefined);
  endpointsLoading = $state(false);

  compared = $state<string[]>([]);
  comparedModels = $derived(this.compared.flatMap((id) => this.fullModels[id] ?? []));

  preset = $state.raw<CachedPreset | undefined>(undefined);
  presetError = $state<Problem | undefined>(undefined);
  /** A short sentence for the polite live region ("Ask will now use …"). */
  announcement = $state('');

  /** How old the cached list is, in milliseconds, or undefined when nothing is cached. */
  ageMs = $derived(
    this.overview?.fetchedAt == null
      ? undefined
      : this.overview.now - this.overview.fetchedAt + (this.tick - this.receivedAt),
  );

  private started = false;

  async load(): Promise<void> {
    if (!this.started) {
      this.started = true;
      api.on('catalog.refreshed', (overview) => this.receive(overview));
      setInterval(() => (this.tick = Date.now()), AGE_TICK_MS);
    }
    try {
      this.receive(await api.catalog.overview());
    } catch (error) {
      this.loadError = caught(error, 'catalog.overview');
    }
  }

  async refresh(): Promise<void> {
    this.refreshing = true;
    try {
      this.receive(await api.catalog.refresh());
    } catch (error) {
      this.loadError = caught(error, 'catalog.refresh');
    } finally {
      this.refreshing = false;
    }
  }

  async open(id: string, refresh = false): Promise<void> {
    this.selectedId = id;
    if (!refresh) this.endpoints = undefined;
    this.endpointsError = undefined;
    this.endpointsLoading = true;
    this.modelError = undefined;
    void this.fetchModel(id).catch((error: unknown) => {
      if (this.selectedId === id) this.modelError = caught(error, 'catalog.model');
    });
    try {
      const answer = await api.catalog.endpoints({ modelId: id, refresh });
      if (this.selectedId === id) this.endpoints = answer;
    } catch (error) {
      if (this.selectedId === id) this.endpointsError = caught(error, 'catalog.endpoints');
    } finally {
      if (this.selectedId === id) this.endpointsLoading = false;
    }
  }

  close(): void {
    this.selectedId = undefined;
    this.modelError = undefined;
    this.endpoints = undefined;
    this.endpointsError = undefined;
  }

  toggleCompare(id: string): void {
    this.compared = toggleCompared(this.compared, id);
    if (this.compared.includes(id)) {
      void this.fetchModel(id).catch((error: unknown) => (this.loadError = caught(error, 'catalog.model')));
    }
  }

  /**
   * A new list may hold new prices: the models in view are asked for again and the rest
   * forgotten. The old copies stay shown until then; a model gone from the list goes away.
   */
  private reloadFullModels(): void {
    if (Object.keys(this.fullModels).length === 0) return;
    const shown = [
      ...new Set([...this.compared, ...(this.selectedId === undefined ? [] : [this.selectedId])]),
    ];
    void Promise.all(
      shown.map((modelId) =>
        api.catalog.model({ modelId }).then(
          (model) => [[modelId, model] as const],
          (error: unknown) => {
            // A model gone from the new list simply goes; anything else is said.
            if (!isExpected(error)) this.loadError = caught(error, 'catalog.model');
            return [];
          },
        ),
      ),
    ).then((entries) => (this.fullModels = Object.fromEntries(entries.flat())));
  }

  /** A model in full from main's cache, once per catalog received. */
  private async fetchModel(id: string): Promise<void> {
    if (Object.hasOwn(this.fullModels, id)) return;
    const model = await api.catalog.model({ modelId: id });
    this.fullModels = { ...this.fullModels, [id]: model };
  }

  async lookUpPreset(slug: string, version: number): Promise<void> {
    this.presetError = undefined;
    try {
      this.preset = await api.catalog.preset({ slug, version });
    } catch (error) {
      this.preset = undefined;
      this.presetError = caught(error, 'catalog.preset');
    }
  }

  async useForAsk(model: CatalogModel): Promise<void> {
    await settings.update({ askModel: model.id });
    this.announcement = settings.error
      ? `Ask could not be changed: ${settings.error.message}`
      : `Ask will now use ${model.name} (${model.id}).`;
  }

  resetFilters(): void {
    this.query = { ...emptyQuery, text: this.query.text, sort: this.query.sort };
  }

  private receive(overview: CatalogOverview): void {
    this.overview = overview;
    this.reloadFullModels();
    this.receivedAt = Date.now();
    this.tick = this.receivedAt;
    this.loadError = undefined;
  }
}

export const catalog = new CatalogStore();
