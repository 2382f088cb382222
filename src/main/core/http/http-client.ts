import type { z } from 'zod';
import { VerbatimError } from '../../../shared/errors';
import { ServiceError, codeForStatus, describeStatus, parseErrorBody } from './service-error';
import type { UploadSource } from '../transcription/recording-file';
import { nodeStreamUpload, UploadTimeout, type StreamUpload } from './node-upload';
import { defaultNetworkBounds, inSeconds, uploadBoundMs, type NetworkBounds } from './network-bounds';
import {
  backoffDelay,
  defaultRetryPolicy,
  parseRetryAfter,
  rejectionStatuses,
  retryableStatuses,
  type RetryPolicy,
} from './retry-policy';

export type FetchLike = (input: string, init: RequestInit & { duplex?: 'half' }) => Promise<Response>;

/** How a service wants its key: the transcription service takes it raw, the catalog as Bearer. */
export type AuthStyle = 'raw' | 'bearer';

export interface HttpClientOptions {
  /** Human name used in messages: "transcription service", "model catalog". */
  service: string;
  baseUrl: string;
  apiKey: () => string | undefined;
  authStyle: AuthStyle;
  fetch: FetchLike;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
  random: () => number;
  /** How long a silent or slow service is waited for (network-bounds.ts); the defaults unless set. */
  bounds?: NetworkBounds;
  retry?: RetryPolicy;
  /** How large bodies are streamed (injectable for tests); node:http by default. */
  streamUpload?: StreamUpload;
  /** Told about every retry, for logs and progress ("the service is busy, retrying in 4 s"). */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string; status: number | undefined }) => void;
}

export interface RequestOptions<T> {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  headers?: Record<string, string>;
  schema?: z.ZodType<T>;
  responseType?: 'json' | 'text' | 'bytes';
  signal?: AbortSignal;
  /**
   * 'call' (the default): a quick call, which goes quiet for at most the idle bound and ends,
   * retries included, within the call bound. 'answer': a language model's answer, which may
   * think in silence up to the answer bound.
   */
  patience?: 'call' | 'answer';
  /**
   * 'all': retry on 429/5xx and network errors (safe for reads and idempotent writes).
   * 'rejections': only on answers that prove nothing happened (429, 503), for creates.
   * 'none': never.
   */
  retry?: 'all' | 'rejections' | 'none';
}

/**
 * The HTTP layer every service client shares: auth, timeouts, retries with jittered backoff
 * that honour Retry-After, every error body turned into a typed ServiceError, and responses
 * validated with zod so a surprise from the service is caught at the door.
 */
export class HttpClient {
  private readonly retryPolicy: RetryPolicy;

  constructor(private readonly options: HttpClientOptions) {
    this.retryPolicy = options.retry ?? defaultRetryPolicy;
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  url(path: string, query?: RequestOptions<unknown>['query']): string {
    const url = new URL(
      path.replace(/^\//, ''),
      this.options.baseUrl.endsWith('/') ? this.options.baseUrl : `${this.options.baseUrl}/`,
    );
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  /**
   * Streams a large body (a recording) with backpressure. It ends when the connection goes
   * quiet for the idle bound (either way: the service stops taking bytes, or takes them all and
   * never answers) or runs past a bound that grows with the size. Never retried: a stream
   * cannot be replayed; the scheduler starts the upload again instead.
   */
  async upload<T>(options: {
    path: string;
    body: UploadSource;
    schema: z.ZodType<T>;
    signal?: AbortSignal;
  }): Promise<T> {
    const { service } = this.options;
    const send = this.options.streamUpload ?? nodeStreamUpload;
    const boundMs = uploadBoundMs(this.bounds, options.body.size);
    let response: Awaited<ReturnType<StreamUpload>>;
    try {
      response = await send({
        url: this.url(options.path),
        headers: {
          ...this.authHeaders(),
          Accept: 'application/json',
          'Content-Type': 'application/octet-stream',
        },
        body: options.body,
        signal: options.signal,
        idleMs: this.bounds.idleMs,
        boundMs,
      });
    } catch (error) {
      if (error instanceof VerbatimError) throw error;
      if (options.signal?.aborted) throw cancelled(service);
      if (error instanceof UploadTimeout) {
        const name = options.body.name;
        throw new ServiceError(
          'timeout',
          error.kind === 'bound'
            ? `The upload of "${name}" to the ${service} did not finish within ${inSeconds(boundMs)}.`
            : error.bodySent
              ? `The ${service} received "${name}" but did not answer for ${inSeconds(this.bounds.idleMs)}.`
              : `The ${service} stopped taking "${name}" for ${inSeconds(this.bounds.idleMs)}.`,
          undefined,
          undefined,
        );
      }
      throw networkError(service, this.options.baseUrl, error);
    }
    if (response.status < 200 || response.status >= 300) {
      const retryAfter = response.headers['retry-after'];
      throw this.statusError(
        response.status,
        response.text,
        typeof retryAfter === 'string' ? retryAfter : null,
      );
    }
    return this.parse(response.text, options.schema);
  }

  /**
   * The raw Response (status checked), for streaming bodies such as server-sent events: its
   * first byte may take the answer bound, then each fragment must follow within the idle bound.
   * It has no overall bound: a long answer keeps arriving, and is seen as it does.
   */
  async stream(
    options: Omit<RequestOptions<never>, 'schema' | 'responseType' | 'patience'>,
  ): Promise<Response> {
    const watchdog = new Watchdog(null, options.signal);
    watchdog.quietFor(this.bounds.answerMs);
    let response: Response;
    try {
      response = await this.send(options, watchdog);
    } catch (error) {
      watchdog.stop();
      throw error;
    }
    const body = response.body;
    if (!body) {
      watchdog.stop();
      return response;
    }
    const reader: ReadableStreamDefaultReader<Uint8Array> = body.getReader();
    watchdog.quietFor(this.bounds.idleMs);
    const watched = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        try {
          const { done, value } = await reader.read();
          if (done) {
            watchdog.stop();
            controller.close();
            return;
          }
          watchdog.quietFor(this.bounds.idleMs);
          controller.enqueue(value);
        } catch (error) {
          watchdog.stop();
          controller.error(this.failure(error, watchdog, options.signal));
        }
      },
      cancel: async (reason) => {
        watchdog.stop();
        await reader.cancel(reason);
      },
    });
    return new Response(watched, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  async request<T>(options: RequestOptions<T> & { schema: z.ZodType<T> }): Promise<T>;
  async request(options: RequestOptions<unknown> & { responseType: 'text' }): Promise<string>;
  async request(options: RequestOptions<unknown> & { responseType: 'bytes' }): Promise<Uint8Array>;
  async request<T>(options: RequestOptions<T>): Promise<T | string | Uint8Array> {
    const mode = options.retry ?? 'all';
    const answer = options.patience === 'answer';
    const boundMs = answer ? this.bounds.answerMs : this.bounds.callMs;
    // Real time, whatever speed the scheduler's clock runs at: the bound is a promise to a person.
    const started = performance.now();
    for (let attempt = 1; ; attempt++) {
      const watchdog = new Watchdog(boundMs - (performance.now() - started), options.signal, boundMs);
      watchdog.quietFor(answer ? this.bounds.answerMs : this.bounds.idleMs);
      try {
        const response = await this.send(options, watchdog);
        return await this.read(response, options, watchdog);
      } catch (error) {
        const delay = this.retryDelay(error, attempt, mode, options);
        // A retry that could not end within the bound is not begun: the bound is kept.
        if (delay === undefined || performance.now() - started + delay >= boundMs) throw error;
        this.options.onRetry?.({
          attempt,
          delayMs: delay,
          reason: error instanceof Error ? error.message : String(error),
          status: error instanceof ServiceError ? error.status : undefined,
        });
        await this.options.sleep(delay, options.signal).catch(() => {
          throw cancelled(this.options.service);
        });
      } finally {
        watchdog.stop();
      }
    }
  }

  private get bounds(): NetworkBounds {
    return this.options.bounds ?? defaultNetworkBounds;
  }

  private retryDelay(
    error: unknown,
    attempt: number,
    mode: 'all' | 'rejections' | 'none',
    options: RequestOptions<unknown>,
  ): number | undefined {
    if (mode === 'none' || attempt >= this.retryPolicy.maxAttempts || options.signal?.aborted)
      return undefined;
    if (!(error instanceof ServiceError)) return undefined;
    const status = error.status;
    const retryable =
      status === undefined
        ? mode === 'all' && error.code !== 'cancelled' // network failure or timeout
        : (mode === 'all' ? retryableStatuses : rejectionStatuses).has(status);
    if (!retryable) return undefined;
    const backoff = backoffDelay(attempt, this.retryPolicy, this.options.random);
    return error.retryAfterMs !== undefined ? Math.max(error.retryAfterMs, 0) : backoff;
  }

  /** Sends the request and waits for the status line; the watchdog ends it if the service is silent. */
  private async send(
    options: Omit<RequestOptions<unknown>, 'schema' | 'responseType'>,
    watchdog: Watchdog,
  ): Promise<Response> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      ...this.authHeaders(),
      ...options.headers,
    };
    let body: RequestInit['body'];
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const address = this.url(options.path, options.query);
    let response: Response;
    try {
      response = await this.options.fetch(address, {
        method: options.method,
        headers,
        body,
        signal: watchdog.signal,
      });
    } catch (error) {
      throw this.failure(error, watchdog, options.signal);
    }
    if (!response.ok) {
      const text = await this.readBody(response, watchdog, options.signal)
        .then((bytes) => new TextDecoder().decode(bytes))
        .catch(() => '');
      if (keyWithheldByRedirect(address, response, headers))
        throw this.refusedAfterRedirect(address, response.url, response.status);
      throw this.statusError(response.status, text, response.headers.get('retry-after'));
    }
    return response;
  }

  /**
   * The address redirected to another origin, where fetch (rightly) sent no key, and was refused
   * there: "No key is set" would be untrue, so the redirect is said, and what to do about it.
   */
  private refusedAfterRedirect(from: string, to: string, status: number): VerbatimError {
    const { service } = this.options;
    const target = new URL(to);
    return new VerbatimError(
      codeForStatus(status),
      `The ${service} at ${withoutQuery(from)} redirected to ${withoutQuery(to)}, another address, which refused the request: Verbatim does not send your key to another address. If the ${service} is now at ${target.origin}, change its address in Settings.`,
      { status, redirectedTo: target.origin },
    );
  }

  private async read<T>(
    response: Response,
    options: RequestOptions<T>,
    watchdog: Watchdog,
  ): Promise<T | string | Uint8Array> {
    const bytes = await this.readBody(response, watchdog, options.signal);
    if (options.responseType === 'bytes') return bytes;
    const text = new TextDecoder().decode(bytes);
    if (options.responseType === 'text') return text;
    return this.parse(text, options.schema);
  }

  /** The whole body; each piece restarts the idle bound, so only a stalled body is cut. */
  private async readBody(response: Response, watchdog: Watchdog, signal?: AbortSignal): Promise<Uint8Array> {
    if (!response.body) return new Uint8Array();
    const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
    const chunks: Uint8Array[] = [];
    try {
      for (;;) {
        watchdog.quietFor(this.bounds.idleMs);
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
      }
    } catch (error) {
      throw this.failure(error, watchdog, signal);
    }
    return Buffer.concat(chunks);
  }

  /** Why a request failed, in words: cancelled, the service silent too long, or unreachable. */
  private failure(error: unknown, watchdog: Watchdog, signal: AbortSignal | undefined): VerbatimError {
    const { service } = this.options;
    if (signal?.aborted) return cancelled(service);
    if (watchdog.ended === 'quiet')
      return new ServiceError(
        'timeout',
        `The ${service} stopped answering: nothing came for ${inSeconds(watchdog.quietMs)}. Check your connection and try again.`,
        undefined,
        undefined,
      );
    if (watchdog.ended === 'bound')
      return new ServiceError(
        'timeout',
        `The ${service} did not answer within ${inSeconds(watchdog.boundMs ?? 0)}. Check your connection and try again.`,
        undefined,
        undefined,
      );
    if (error instanceof VerbatimError) return error;
    return networkError(service, this.options.baseUrl, error);
  }

  private authHeaders(): Record<string, string> {
    const key = this.options.apiKey();
    if (!key) return {};
    return { Authorization: this.options.authStyle === 'bearer' ? `Bearer ${key}` : key };
  }

  private statusError(status: number, text: string, retryAfter: string | null): ServiceError {
    const serviceMessage = parseErrorBody(text);
    return new ServiceError(
      codeForStatus(status),
      describeStatus(this.options.service, status, serviceMessage),
      status,
      serviceMessage,
      parseRetryAfter(retryAfter, this.options.now()),
    );
  }

  private parse<T>(text: string, schema: z.ZodType<T> | undefined): T {
    const { service } = this.options;
    let body: unknown;
    try {
      body = text === '' ? {} : JSON.parse(text);
    } catch {
      // A half-delivered body looks like a broken connection: worth a retry.
      throw new ServiceError(
        'network',
        `The ${service} sent an incomplete answer. Verbatim will try again.`,
        undefined,
        undefined,
      );
    }
    if (!schema) return body as T;
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? `${issue.path.join('.') || 'reply'}: ${issue.message}` : 'unknown';
      throw new VerbatimError(
        'service',
        `The ${service} sent a reply Verbatim does not understand (${where}). The service may have changed; please report this.`,
      );
    }
    return parsed.data;
  }
}

/**
 * Ends a request that goes quiet for too long, or runs past its bound, and remembers which: the
 * two read differently to a journalist.
 */
class Watchdog {
  private readonly controller = new AbortController();
  private quietTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly boundTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly detach: () => void;
  ended: 'quiet' | 'bound' | undefined;
  quietMs = 0;

  /** `leftMs`: what is left of the bound for this attempt (null: none); `boundMs`: the bound named. */
  constructor(
    leftMs: number | null,
    signal: AbortSignal | undefined,
    readonly boundMs?: number,
  ) {
    const onAbort = (): void => this.controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) this.controller.abort(signal.reason);
    this.detach = () => signal?.removeEventListener('abort', onAbort);
    if (leftMs !== null) this.boundTimer = setTimeout(() => this.end('bound'), Math.max(leftMs, 0));
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Starts the quiet bound again: something just arrived, or the wait changed. */
  quietFor(ms: number): void {
    clearTimeout(this.quietTimer);
    this.quietMs = ms;
    this.quietTimer = setTimeout(() => this.end('quiet'), ms);
  }

  stop(): void {
    clearTimeout(this.quietTimer);
    clearTimeout(this.boundTimer);
    this.detach();
  }

  private end(reason: 'quiet' | 'bound'): void {
    this.ended ??= reason;
    this.stop();
    this.controller.abort();
  }
}

function cancelled(service: string): ServiceError {
  return new ServiceError('cancelled', `The request to the ${service} was cancelled.`, undefined, undefined);
}

function networkError(service: string, baseUrl: string, error: unknown): ServiceError {
  const code =
    error instanceof Error
      ? ((error.cause as { code?: string } | undefined)?.code ?? (error as { code?: string }).code)
      : undefined;
  const cause = code ?? (error instanceof Error ? error.message : String(error));
  let host = baseUrl;
  try {
    host = new URL(baseUrl).host;
  } catch {
    // keep the address as given
  }
  const message =
    code === 'ECONNREFUSED'
      ? `Nothing answers at the ${service}'s address (${host}: connection refused). Check the address in Settings.`
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? `The ${service}'s address (${host}) cannot be found. Check the address in Settings and your internet connection.`
        : `Verbatim could not reach the ${service} (${withoutCredentials(cause)}). Check your internet connection; your work is kept and will continue.`;
  return new ServiceError('network', message, undefined, undefined, undefined, code);
}

/** A message never repeats a password written into an address ("https://user:secret@host"). */
export function withoutCredentials(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@:]*(?::[^\s/@]*)?@/gi, '$1');
}

/** A sleep that wakes early, with a rejection, when the signal aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A refusal (401, 403) from another origin than the one asked, which got no key from us. */
function keyWithheldByRedirect(
  address: string,
  response: Response,
  headers: Record<string, string>,
): boolean {
  return (
    (response.status === 401 || response.status === 403) &&
    response.redirected &&
    headers.Authorization !== undefined &&
    new URL(response.url).origin !== new URL(address).origin
  );
}

/** An address as a message shows it: the query left out. */
function withoutQuery(address: string): string {
  const url = new URL(address);
  return `${url.origin}${url.pathname}`;
}
