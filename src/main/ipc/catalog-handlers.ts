import type { Handlers, SecretsStatus } from '../../shared/ipc/contract';
import type { SecretName } from '../core/secrets/secret-store';
import type { Services } from '../core/app-services';

type CatalogMethod =
  | `catalog.${string}`
  | 'secrets.setCatalogKey'
  | 'secrets.clearCatalogKey'
  | 'secrets.setManagementKey'
  | 'secrets.clearManagementKey';

/** The catalog's handlers: the service's cache-first reads, and its two keys. */
export function createCatalogHandlers(
  services: Services,
  secretsStatus: () => SecretsStatus,
): Pick<Handlers, Extract<keyof Handlers, CatalogMethod>> {
  const setKey = async (name: SecretName, key: string): Promise<SecretsStatus> => {
    await services.secrets.set(name, key);
    return secretsStatus();
  };
  const clearKey = async (name: SecretName): Promise<SecretsStatus> => {
    await services.secrets.delete(name);
    return secretsStatus();
  };
  return {
    'catalog.overview': () => Promise.resolve(services.catalog.overview()),
    'catalog.refresh': () => services.catalog.refresh(),
    'catalog.model': ({ modelId }) => Promise.resolve(services.catalog.model(modelId)),
    'catalog.endpoints': ({ modelId, refresh }) => services.catalog.endpoints(modelId, { refresh }),
    'catalog.preset': ({ slug, version }) => services.catalog.preset(slug, version),
    'secrets.setCatalogKey': ({ key }) => setKey('catalogKey', key),
    'secrets.clearCatalogKey': () => clearKey('catalogKey'),
    'secrets.setManagementKey': ({ key }) => setKey('managementKey', key),
    'secrets.clearManagementKey': () => clearKey('managementKey'),
  };
}
