import { z } from 'zod';
import { VerbatimError } from '../../../shared/errors';
import {
  catalogEndpointSchema,
  catalogModelSchema,
  modelEndpointsSchema,
  presetVersionSchema,
  type CatalogEndpoint,
  type CatalogModel,
  type CatalogRegion,
  type ModalityFilter,
  type ModelEndpoints,
  type PresetVersion,
} from '../../../shared/catalog';
import { HttpClient, type HttpClientOptions, type RequestOptions } from '../http/http-client';
import { ServiceError } from '../http/service-error';

/**
 * The catalog's public hosts, both with the `/api/v1` prefix the spec's paths are relative to.
 * The EU address is OpenRouter's EU in-region host (the spec names it only {router_eu_base_url}).
 */
export const defaultCatalogUrls: Record<CatalogRegion, string> = {
  us: 'https://openrouter.ai/api/v1',
  eu: 'https://eu.openrouter.ai/api/v1',
};

/**
 * The base URL for an override (Settings or VERBATIM_CATALOG_URL) or the region's real host. An
 * override given as a bare host (`http://127.0.0.1:8080`) gets the spec's `/api/v1` prefix.
 */
export function catalogBaseUrl(region: CatalogRegion, override: string | undefined): string {
  if (!override) return defaultCatalogUrls[region];
  const url = new URL(override);
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/api/v1';
  return url.toString().replace(/\/$/, '');
}

/**
 * The names the spec leaves unshown: the total and the next link of /models/user. OpenRouter
 * (and its SDK) use `total_count` and `links.next`, the URL of the next page or null.
 */
const modelPageSchema = z.looseObject({
  data: z.array(catalogModelSchema),
  total_count: z.number().int().nonnegative().optional(),
  links: z.looseObject({ next: z.string().nullish() }).nullish(),
});

export interface ModelPage {
  models: CatalogModel[];
  /** Models matching the query across all pages. */
  totalCount: number;
  /** Offset and limit of the next page, or undefined on the last one. */
  next: { offset: number; limit: number } | undefined;
}

/** What each operation is called in messages, so a refusal names what was being done. */
const operationNames = {
  models: { doing: 'Listing the models', to: 'list the models' },
  endpoints: { doing: "Listing a model's provider endpoints", to: "list a model's provider endpoints" },
  zdr: { doing: 'Listing the zero-data-retention endpoints', to: 'list the zero-data-retention endpoints' },
  count: { doing: 'Counting models by output', to: 'count models by output' },
  preset: { doing: 'Fetching a preset version', to: 'fetch a preset version' },
} as const;
type Operation = keyof typeof operationNames;

export interface CatalogClientOptions extends Omit<HttpClientOptions, 'service' | 'apiKey' | 'authStyle'> {
  catalogKey: () => string | undefined;
  /** Optional: operations that need it fall back to the catalog key, which may be a management key. */
  managementKey: () => string | undefined;
}

/**
 * Every operation of the model catalog (Bearer auth), with the service's `{"error": {code,
 * message}}` answers turned into messages that say what to do: a missing or refused key leads to
 * Settings, and an operation that needs the management key says so.
 */
export class CatalogClient {
  private readonly http: HttpClient;
  private readonly managementHttp: HttpClient;

  constructor(private readonly options: CatalogClientOptions) {
    const common = { ...options, service: 'model catalog', authStyle: 'bearer' as const };
    this.http = new HttpClient({ ...common, apiKey: options.catalogKey });
    this.managementHttp = new HttpClient({
      ...common,
      apiKey: () => options.managementKey() ?? options.catalogKey(),
    });
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** GET /models/user: one page with offset and limit, or the full list when both are omitted. */
  async listModels(page: { offset?: number; limit?: number } = {}, signal?: AbortSignal): Promise<ModelPage> {
    if (page.limit !== undefined && !(Number.isInteger(page.limit) && page.limit >= 1 && page.limit <= 1000))
      throw new VerbatimError('invalid_input', 'A page of models holds from 1 to 1,000 models.');
    if (page.offset !== undefined && !(Number.isInteger(page.offset) && page.offset >= 0))
      throw new VerbatimError('invalid_input', 'The offset of a page of models cannot be negative.');
    const body = await this.call('models', this.http, {
      method: 'GET',
      path: '/models/user',
      query: { offset: page.offset, limit: page.limit },
      schema: modelPageSchema,
      signal,
    });
    return {
      models: body.data,
      totalCount: body.total_count ?? body.data.length,
      next: nextPage(body.links?.next),
    };
  }

  /** Every model, page by page (following the next links), for hosts that cap the full list. */
  async listAllModels(pageSize = 500, signal?: AbortSignal): Promise<CatalogModel[]> {
    const models: CatalogModel[] = [];
    let page: { offset: number; limit: number } | undefined = { offset: 0, limit: pageSize };
    while (page) {
      const answer = await this.listModels(page, signal);
      models.push(...answer.models);
      // A next link that does not move forward would loop for ever: stop there.
      page = answer.next && answer.next.offset > page.offset ? answer.next : undefined;
    }
    return models;
  }

  /** GET /models/{author}/{slug}/endpoints (management key). */
  async modelEndpoints(modelId: string, signal?: AbortSignal): Promise<ModelEndpoints> {
    const [author, ...slug] = modelId.split('/');
    if (!author || slug.length === 0 || slug.join('/') === '')
      throw new VerbatimError(
        'invalid_input',
        `"${modelId}" is not a model id such as anthropic/claude-sonnet-4.5.`,
      );
    const body = await this.call(
      'endpoints',
      this.managementHttp,
      {
        method: 'GET',
        path: `/models/${encodeURIComponent(author)}/${encodeURIComponent(slug.join('/'))}/endpoints`,
        schema: z.looseObject({ data: modelEndpointsSchema }),
        signal,
      },
      `The catalog does not know the model ${modelId}.`,
    );
    return body.data;
  }

  /** GET /endpoints/zdr (management key): endpoints that keep no prompts or completions. */
  async zeroDataRetentionEndpoints(signal?: AbortSignal): Promise<CatalogEndpoint[]> {
    const body = await this.call('zdr', this.managementHttp, {
      method: 'GET',
      path: '/endpoints/zdr',
      schema: z.looseObject({ data: z.array(catalogEndpointSchema) }),
      signal,
    });
    return body.data;
  }

  /** GET /models/count (management key): models with any of the output modalities (default text). */
  async countModels(filter: ModalityFilter = ['text'], signal?: AbortSignal): Promise<number> {
    const body = await this.call('count', this.managementHttp, {
      method: 'GET',
      path: '/models/count',
      query: { output_modalities: filter === 'all' ? 'all' : filter.join(',') },
      schema: z.looseObject({ data: z.looseObject({ count: z.number().int().nonnegative() }) }),
      signal,
    });
    return body.data.count;
  }

  /** GET /presets/{slug}/versions/{version}. */
  async presetVersion(slug: string, version: number, signal?: AbortSignal): Promise<PresetVersion> {
    if (!/^[A-Za-z0-9._~-]+$/.test(slug))
      throw new VerbatimError(
        'invalid_input',
        'A preset name uses only letters, digits, dots, dashes and underscores.',
      );
    if (!Number.isInteger(version) || version < 1)
      throw new VerbatimError('invalid_input', 'A preset version is a whole number from 1.');
    const body = await this.call(
      'preset',
      this.http,
      {
        method: 'GET',
        path: `/presets/${encodeURIComponent(slug)}/versions/${version}`,
        schema: z.looseObject({ data: presetVersionSchema }),
        signal,
      },
      `There is no version ${version} of the preset "${slug}".`,
    );
    return body.data;
  }

  private async call<T>(
    operation: Operation,
    http: HttpClient,
    request: RequestOptions<T> & { schema: z.ZodType<T> },
    notFound?: string,
  ): Promise<T> {
    try {
      return await http.request(request);
    } catch (error) {
      throw this.explain(operation, error, notFound);
    }
  }

  private explain(operation: Operation, error: unknown, notFound: string | undefined): unknown {
    if (!(error instanceof ServiceError) || error.status === undefined) return error;
    const said = error.serviceMessage ? ` It said: "${error.serviceMessage}"` : '';
    const details = { status: error.status, serviceMessage: error.serviceMessage, operation };
    const usesManagement = operation === 'endpoints' || operation === 'zdr' || operation === 'count';
    switch (error.status) {
      case 401: {
        const missing = error.serviceMessage === 'Missing Authentication header';
        return new VerbatimError(
          'unauthorized',
          missing
            ? `No catalog key is set. Enter your catalog key in Settings, under Model catalog, to ${operationNames[operation].to}.`
            : `The model catalog did not accept your key. Check the catalog key in Settings, under Model catalog.${said}`,
          details,
        );
      }
      case 403: {
        if (!usesManagement) break;
        const message = this.options.managementKey()
          ? `${operationNames[operation].doing} needs a management key, and the catalog refused the management key in Settings. Check it under Model catalog.`
          : `${operationNames[operation].doing} needs a management key. Your catalog key is an ordinary key: add a management key in Settings, under Model catalog.`;
        return new VerbatimError('forbidden', message, details);
      }
      case 404:
        if (notFound) return new VerbatimError('not_found', notFound, details);
        break;
    }
    return error;
  }
}

/** Reads offset and limit from the next link (an absolute URL, or a path on the same host). */
function nextPage(link: string | null | undefined): ModelPage['next'] {
  if (!link) return undefined;
  const query = new URL(link, 'http://next.invalid').searchParams;
  const offset = Number(query.get('offset'));
  const limit = Number(query.get('limit') ?? 500);
  if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 1) return undefined;
  return { offset, limit };
}
