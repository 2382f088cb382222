/**
 * One client per service address, made on first use and kept: each address keeps its own
 * retry state, and an address changed in Settings simply gets a client of its own.
 */
export function clientPerAddress<T>(make: (baseUrl: string) => T): (baseUrl: string) => T {
  const clients = new Map<string, T>();
  return (baseUrl) => {
    let client = clients.get(baseUrl);
    if (client === undefined) {
      client = make(baseUrl);
      clients.set(baseUrl, client);
    }
    return client;
  };
}
