import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { HttpError, readJson, sendJson } from './http';
import type {
  AdminState,
  Clock,
  EmulatorApp,
  EmulatorOptions,
  Region,
  RequestContext,
  Route,
  UpgradeHandler,
} from './types';
import { registerModules } from './modules';
import { processingModelSchema } from './transcription/processing';

/**
 * The service emulator: every remote service Verbatim talks to, in one local process.
 * Modules (transcription, gateway, voice, catalog) add their routes to this small core,
 * which adds auth-independent concerns: the clock, the request log, injected faults and
 * the admin API under /__admin.
 */

export interface StartOptions extends Partial<EmulatorOptions> {
  port?: number;
  /** Serve the EU region on a second port (0 picks a free one). */
  euPort?: number;
  host?: string;
}

export interface RunningEmulator {
  url: string;
  euUrl: string | undefined;
  port: number;
  options: EmulatorOptions;
  close(): Promise<void>;
}

const faultSchema = z.object({
  method: z.string().optional(),
  /** A regular expression the request path must match (default: every non-admin path). */
  path: z.string().optional(),
  count: z.number().int().min(1).default(1),
  kind: z.enum(['status', 'slow', 'reset', 'malformed']),
  status: z.number().int().min(100).max(599).optional(),
  /** Retry-After value to send with the status (seconds or an HTTP date). */
  retryAfter: z.string().optional(),
  /** For kind "slow": how long to wait (real milliseconds) before handling normally. */
  delayMs: z.number().int().min(0).default(2000),
});
type Fault = z.infer<typeof faultSchema> & { remaining: number };

export interface LoggedRequest {
  method: string;
  path: string;
  query: string;
  region: Region;
  status: number;
  at: number;
  authorization: 'none' | 'present';
  /** The parsed body, where the module that answered keeps it (ctx.logBody). */
  body?: unknown;
}

export function createClock(speed: number): Clock {
  const start = Date.now();
  return {
    now: () => start + (Date.now() - start) * speed,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms / speed))),
    setTimeout: (fn, ms) => {
      const timer = setTimeout(fn, Math.max(0, ms / speed));
      timer.unref?.();
      return () => clearTimeout(timer);
    },
  };
}

function isLoopback(req: IncomingMessage): boolean {
  const address = req.socket.remoteAddress ?? '';
  return address.startsWith('127.') || address === '::1' || address === '::ffff:127.0.0.1';
}

export async function startEmulator(start: StartOptions = {}): Promise<RunningEmulator> {
  // Checked before anything is created, so a bad model leaves no temp folder behind.
  const processing = start.processing && processingModelSchema.parse(start.processing);
  const options: EmulatorOptions = {
    key: start.key ?? 'emulator-key',
    managementKey: start.managementKey ?? 'emulator-management-key',
    speed: start.speed ?? 1,
    dataDir: start.dataDir ?? mkdtempSync(join(tmpdir(), 'verbatim-emulator-')),
    idSeed: start.idSeed ?? randomUUID(),
    processing,
  };
  if (!(options.speed > 0)) throw new Error('--speed must be a positive number');
  const host = start.host ?? '127.0.0.1';
  const routes: Route[] = [];
  const upgrades: UpgradeHandler[] = [];
  const resets: (() => void)[] = [];
  const faults: Fault[] = [];
  const log: LoggedRequest[] = [];
  const admin: AdminState = { nextUtterances: [] };
  const urls: Record<Region, string> = { us: '', eu: '' };

  const app: EmulatorApp = {
    options,
    clock: createClock(options.speed),
    baseUrl: (region) => urls[region] || urls.us,
    route: (route) => routes.push(route),
    upgrade: (handler) => upgrades.push(handler),
    onReset: (fn) => resets.push(fn),
    admin,
    shared: { transcriptText: () => undefined },
  };
  registerModules(app);

  function takeFault(req: IncomingMessage, path: string): Fault | undefined {
    const index = faults.findIndex(
      (fault) =>
        (!fault.method || fault.method.toUpperCase() === req.method) &&
        (!fault.path || new RegExp(fault.path).test(path)),
    );
    if (index < 0) return undefined;
    const fault = faults[index]!;
    fault.remaining -= 1;
    if (fault.remaining <= 0) faults.splice(index, 1);
    return fault;
  }

  /** Returns false for an admin path the core does not own: a module's own admin route. */
  async function handleAdmin(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean | void> {
    if (!isLoopback(req)) return sendJson(res, 403, { error: 'The admin API answers only on loopback' });
    const route = `${req.method} ${url.pathname}`;
    switch (route) {
      case 'POST /__admin/faults': {
        const body = await readJson(req);
        const list = Array.isArray(body) ? body : [body];
        const parsed = z.array(faultSchema).safeParse(list);
        if (!parsed.success) return sendJson(res, 400, { error: parsed.error.message });
        for (const fault of parsed.data) faults.push({ ...fault, remaining: fault.count });
        return sendJson(res, 200, { faults: faults.length });
      }
      case 'DELETE /__admin/faults':
        faults.length = 0;
        return sendJson(res, 200, { faults: 0 });
      case 'POST /__admin/voice/next-utterance': {
        const parsed = z
          .object({ text: z.union([z.string(), z.array(z.string())]) })
          .safeParse(await readJson(req));
        if (!parsed.success) return sendJson(res, 400, { error: 'text (string or array) is required' });
        admin.nextUtterances.push(
          ...(Array.isArray(parsed.data.text) ? parsed.data.text : [parsed.data.text]),
        );
        return sendJson(res, 200, { queued: admin.nextUtterances.length });
      }
      case 'GET /__admin/requests':
        return sendJson(res, 200, { requests: log });
      case 'DELETE /__admin/requests':
        log.length = 0;
        return sendJson(res, 200, { requests: [] });
      case 'POST /__admin/reset':
        faults.length = 0;
        log.length = 0;
        admin.nextUtterances.length = 0;
        for (const reset of resets) reset();
        return sendJson(res, 200, { reset: true });
      default:
        return false;
    }
  }

  function createRegionServer(region: Region): Server {
    const server = createServer((req, res) => {
      void handle(req, res, region);
    });
    server.on('upgrade', (req, socket, head) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const fault = takeFault(req, path);
      if (fault?.kind === 'reset') return void socket.destroy();
      if (fault?.kind === 'status') {
        socket.end(
          `HTTP/1.1 ${fault.status ?? 500} Injected\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
        );
        return;
      }
      for (const handler of upgrades) if (handler(req, socket, head, region)) return;
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    });
    return server;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, region: Region): Promise<void> {
    const url = new URL(req.url ?? '/', urls[region] || 'http://127.0.0.1');
    if (url.pathname.startsWith('/__admin/')) {
      try {
        const handled = await handleAdmin(req, res, url);
        if (handled !== false) return;
      } catch (error) {
        return sendJson(res, 400, { error: error instanceof Error ? error.message : String(error) });
      }
      // Not a core admin operation: a module may own it (never logged, never faulted).
      return routeRequest(req, res, url, region, undefined);
    }
    const entry: LoggedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.search,
      region,
      status: 0,
      at: Date.now(),
      authorization: req.headers.authorization ? 'present' : 'none',
    };
    log.push(entry);
    res.on('finish', () => (entry.status = res.statusCode));

    const fault = takeFault(req, url.pathname);
    if (fault) {
      switch (fault.kind) {
        case 'reset':
          req.socket.destroy();
          return;
        case 'status': {
          const status = fault.status ?? 500;
          const headers: Record<string, string> = fault.retryAfter ? { 'Retry-After': fault.retryAfter } : {};
          return sendJson(res, status, { error: `Injected failure (${status})` }, headers);
        }
        case 'malformed':
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end('{"id": "truncated', 'utf8');
          return;
        case 'slow':
          await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
          break;
      }
    }

    return routeRequest(req, res, url, region, entry);
  }

  async function routeRequest(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    region: Region,
    logged: LoggedRequest | undefined,
  ): Promise<void> {
    const method = req.method ?? 'GET';
    let pathMatched = false;
    for (const route of routes) {
      const match = route.pattern.exec(url.pathname);
      if (!match) continue;
      pathMatched = true;
      if (route.method !== method) continue;
      const ctx: RequestContext = {
        req,
        res,
        url,
        params: { ...match.groups },
        region,
        logBody: (body) => {
          if (logged) logged.body = body;
        },
      };
      try {
        await route.handler(ctx);
      } catch (error) {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        if (error instanceof HttpError) {
          if (typeof error.body === 'string') {
            res.writeHead(error.status, { 'Content-Type': 'text/plain', ...error.headers });
            res.end(error.body);
          } else sendJson(res, error.status, error.body, error.headers);
        } else {
          sendJson(res, 500, {
            error: `Internal emulator error: ${error instanceof Error ? error.message : String(error)}`,
          });
        }
      }
      return;
    }
    if (pathMatched) return sendJson(res, 405, { error: `Method ${method} not allowed on ${url.pathname}` });
    sendJson(res, 404, { error: `Not found: ${url.pathname}` });
  }

  async function listen(server: Server, port: number): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    return (server.address() as AddressInfo).port;
  }

  const usServer = createRegionServer('us');
  const port = await listen(usServer, start.port ?? 0);
  urls.us = `http://${host}:${port}`;
  let euServer: Server | undefined;
  if (start.euPort !== undefined) {
    euServer = createRegionServer('eu');
    const euPort = await listen(euServer, start.euPort);
    urls.eu = `http://${host}:${euPort}`;
  }

  const servers = [usServer, euServer].filter((s): s is Server => s !== undefined);
  return {
    url: urls.us,
    euUrl: euServer ? urls.eu : undefined,
    port,
    options,
    close: async () => {
      for (const reset of resets) reset();
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        ),
      );
      // A data folder the emulator made for itself goes with it; one it was given stays.
      if (start.dataDir === undefined) rmSync(options.dataDir, { recursive: true, force: true });
    },
  };
}
