import type { Region } from '../../../shared/library';
import type { Clock } from '../clock';
import { HttpClient, type FetchLike } from '../http/http-client';
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
}): (region: Region) => GatewayClient {
  const clients = new Map<string, GatewayClient>();
  const fetchLike: FetchLike = config.fetch ?? ((input, init) => fetch(input, init));
  return (region) => {
    const baseUrl = config.url(region) || defaultGatewayUrls[region];
    const key = `${region} ${baseUrl}`;
    let client = clients.get(key);
    if (!client) {
      client = new GatewayClient(
        new HttpClient({
          service: 'language-model gateway',
          baseUrl,
          apiKey: config.apiKey,
          authStyle: 'raw',
          fetch: fetchLike,
          sleep: (ms, signal) => config.clock.sleep(ms, signal),
          now: () => config.clock.now(),
          random: Math.random,
        }),
        // Response times are real milliseconds, whatever speed the scheduler's clock runs at.
        Date.now,
      );
      clients.set(key, client);
    }
    return client;
  };
}
