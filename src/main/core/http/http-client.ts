import type { z } from 'zod';
import { VerbatimError } from '../../../shared/errors';
import { ServiceError, codeForStatus, describeStatus, parseErrorBody } from './service-error';
import type { UploadSource } from '../transcription/recording-file';
import { nodeStreamUpload, type StreamUpload } from './node-upload';
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
  timeoutMs?: number;
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
  /** null turns the per-request timeout off (uploads, streams). */
  timeoutMs?: number | null;
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
   * Streams a large body (a recording) with backpressure and no overall timeout. Never
   * retried: a stream cannot be replayed; the scheduler starts the upload again instead.
   */
  async upload<T>(options: {
    path: string;
    body: UploadSource;
    schema: z.ZodType<T>;
    signal?: AbortSignal;
  }): Promise<T> {
    const { service } = this.options;
    const send = this.options.streamUpload ?? nodeStreamUpload;
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
      });
    } catch (error) {
      if (error instanceof VerbatimError) throw error;
      if (options.signal?.aborted) throw cancelled(service);
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

  /** The raw Response (status checked), for streaming bodies such as server-sent events. */
  async stream(options: Omit<RequestOptions<never>, 'schema' | 'responseType'>): Promise<Response> {
    return this.send({ ...options, timeoutMs: options.timeoutMs ?? null });
  }

  async request<T>(options: RequestOptions<T> & { schema: z.ZodType<T> }): Promise<T>;
  async request(options: RequestOptions<unknown> & { responseType: 'text' }): Promise<string>;
  async request(options: RequestOptions<unknown> & { responseType: 'bytes' }): Promise<Uint8Array>;
  async request<T>(options: RequestOptions<T>): Promise<T | string | Uint8Array> {
    const mode = options.retry ?? 'all';
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await this.send(options);
        return await this.read(response, options);
      } catch (error) {
        const delay = this.retryDelay(error, attempt, mode, options);
        if (delay === undefined) throw error;
        this.options.onRetry?.({
          attempt,
          delayMs: delay,
          reason: error instanceof Error ? error.message : String(error),
          status: error instanceof ServiceError ? error.status : undefined,
        });
        await this.options.sleep(delay, options.signal).catch(() => {
          throw cancelled(this.options.service);
        });
      }
    }
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

  private async send(options: RequestOptions<unknown>): Promise<Response> {
    const { service } = this.options;
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

    const timeoutMs =
      options.timeoutMs === undefined ? (this.options.timeoutMs ?? 30_000) : options.timeoutMs;
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) controller.abort();
    let timedOut = false;
    const timer =
      timeoutMs === null
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, timeoutMs);
    try {
      let response: Response;
      try {
        response = await this.options.fetch(this.url(options.path, options.query), {
          method: options.method,
          headers,
          body,
          signal: controller.signal,
        });
      } catch (error) {
        if (options.signal?.aborted) throw cancelled(service);
        if (timedOut)
          throw new ServiceError(
            'timeout',
            `The ${service} took too long to answer. Check your connection and try again.`,
            undefined,
            undefined,
          );
        throw networkError(service, this.options.baseUrl, error);
      }
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        throw this.statusError(response.status, text, response.headers.get('retry-after'));
      }
      return response;
    } finally {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  private async read<T>(response: Response, options: RequestOptions<T>): Promise<T | string | Uint8Array> {
    const { service } = this.options;
    let text: string;
    try {
      if (options.responseType === 'bytes') return new Uint8Array(await response.arrayBuffer());
      text = await response.text();
    } catch (error) {
      if (options.signal?.aborted) throw cancelled(service);
      throw networkError(service, this.options.baseUrl, error);
    }
    if (options.responseType === 'text') return text;
    return this.parse(text, options.schema);
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
