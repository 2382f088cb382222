import type { Region } from '../../../shared/library';
import type { Clock } from '../../base/clock';
import { HttpClient, type FetchLike } from '../http/http-client';
import { clientPerAddress } from '../http/client-per-address';
import type { NetworkBounds } from '../http/network-bounds';
import { GatewayClient, defaultGatewayUrls } from './gateway-client';

/**
 * A gateway client per region and address, made on first use: the EU gateway is the only one
 * that can inject an EU transcript. The gateway takes the transcription key, raw.
 */
export function gatewayResolver(config: {
  apiKey: () => string | undefined;
  /** An override of the gateway's address (Settings, VERBATIM_GATEWAY_URL), or undefined. */
  url: (region: Region) => string | undefined;
  fetch?: FetchLike;
  clock: Clock;
  networkBounds?: NetworkBounds;
}): (region: Region) => GatewayClient {
  const fetchLike: FetchLike = config.fetch ?? ((input, init) => fetch(input, init));
  const clientAt = clientPerAddress(
    (baseUrl) =>
      new GatewayClient(
        new HttpClient({
          service: 'language-model gateway',
          baseUrl,
          apiKey: config.apiKey,
          authStyle: 'raw',
          fetch: fetchLike,
          sleep: (ms, signal) => config.clock.sleep(ms, signal),
          now: () => config.clock.now(),
          random: Math.random,
          bounds: config.networkBounds,
        }),
        // Response times are real milliseconds, whatever speed the scheduler's clock runs at.
        Date.now,
      ),
  );
  return (region) => clientAt(config.url(region) || defaultGatewayUrls[region]);
}
