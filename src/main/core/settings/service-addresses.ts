import type { ServiceAddresses } from '../../../shared/service-addresses';
import { defaultCatalogUrls } from '../catalog/catalog-client';
import { defaultGatewayUrls } from '../gateway/gateway-client';
import { defaultBaseUrls } from '../transcription/transcription-client';

/** The addresses Verbatim was started with (environment variables, the web host's options). */
export interface StartAddresses {
  transcription?: string | undefined;
  catalog?: string | undefined;
  gateway?: string | undefined;
}

/** What Settings says of each service's address: the one it was started with, and the service's own. */
export function serviceAddresses(started: StartAddresses): ServiceAddresses {
  // An empty variable sets nothing, as compose.ts reads it.
  const startedWith = (url: string | undefined, variable: string) => (url ? { url, variable } : null);
  const transcription = startedWith(started.transcription, 'VERBATIM_TRANSCRIPTION_URL');
  return {
    transcriptionUrlUs: { startedWith: transcription, serviceDefault: defaultBaseUrls.us },
    transcriptionUrlEu: { startedWith: transcription, serviceDefault: defaultBaseUrls.eu },
    catalogUrl: {
      startedWith: startedWith(started.catalog, 'VERBATIM_CATALOG_URL'),
      serviceDefault: `${defaultCatalogUrls.us} (${defaultCatalogUrls.eu} for the EU catalog)`,
    },
    gatewayUrl: {
      startedWith: startedWith(started.gateway, 'VERBATIM_GATEWAY_URL'),
      serviceDefault: `${defaultGatewayUrls.us} (${defaultGatewayUrls.eu} for EU transcripts)`,
    },
  };
}
