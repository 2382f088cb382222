import type { CatalogOverview, CatalogRegion } from '../../../shared/catalog';
import type { Clock } from '../../base/clock';
import { clientPerAddress } from '../http/client-per-address';
import type { NetworkBounds } from '../http/network-bounds';
import type { FetchLike } from '../http/http-client';
import type { CatalogCache } from '../library/catalog-cache';
import { CatalogClient, catalogBaseUrl } from './catalog-client';
import { CatalogService } from './catalog-service';

export interface CatalogConfig {
  /** The catalog's copy in the library database (LibraryDatabase.catalogCache). */
  cache: CatalogCache;
  /** Each read at every request, so keys and addresses changed in Settings apply at once. */
  catalogKey: () => string | undefined;
  managementKey: () => string | undefined;
  region: () => CatalogRegion;
  /** VERBATIM_CATALOG_URL or the Settings override; undefined for the region's real host. */
  urlOverride: () => string | undefined;
  clock: Clock;
  fetch?: FetchLike;
  /** How long a silent catalog is waited for; the defaults unless set. */
  networkBounds?: NetworkBounds;
  onRefreshed?: (overview: CatalogOverview) => void;
  log?: (message: string) => void;
}

/** The catalog service over the library database, shared by the app, the web host and the CLI. */
export function createCatalogService(config: CatalogConfig): CatalogService {
  const fetchLike: FetchLike = config.fetch ?? ((input, init) => fetch(input, init));
  const clientAt = clientPerAddress(
    (baseUrl) =>
      new CatalogClient({
        baseUrl,
        catalogKey: config.catalogKey,
        managementKey: config.managementKey,
        fetch: fetchLike,
        sleep: (ms, signal) => config.clock.sleep(ms, signal),
        now: () => config.clock.now(),
        random: Math.random,
        bounds: config.networkBounds,
      }),
  );
  return new CatalogService({
    cache: config.cache,
    clock: config.clock,
    onRefreshed: config.onRefreshed,
    log: config.log,
    connection: () => {
      const region = config.region();
      const client = clientAt(catalogBaseUrl(region, config.urlOverride()));
      return { client, region };
    },
  });
}
