import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * How a misbehaving server treats each request: it reads the whole body and never answers, or
 * answers with headers and a first piece of a body that then never comes.
 */
export type Silence = 'never-answers' | 'headers-then-stalls';

export interface SilentServer {
  url: string;
  /** Every request it took, in order ("POST /v2/upload"). */
  requests: string[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that accepts every connection and goes silent as told. */
export async function startSilentServer(silence: Silence): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    request.resume();
    request.on('end', () => {
      if (silence === 'never-answers') return;
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
      response.write('{"upload_url": "');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
