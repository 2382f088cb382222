import { sendJson } from '../http';
import type { EmulatorApp, Region, RequestContext, Route } from '../types';
import { authenticate, catalogError, catalogRoute, requireManagementKey } from './catalog-auth';
import { servesEu } from './catalog-data';
import type { Catalog, CatalogEntry } from './catalog-types';

/** The catalog's operations under /api/v1 (spec: model-catalog-service.md). All are GET. */

const OUTPUT_MODALITIES = ['text', 'image', 'audio', 'embeddings'];
/** Limit when a client pages with only `offset`: the default OpenRouter's SDK sends (not shown in the spec). */
const DEFAULT_PAGE_LIMIT = 500;
const MAX_PAGE_LIMIT = 1000;
/**
 * Reserved name that makes an operation fail inside the service (as a model slug or a preset
 * slug), so that clients can exercise the spec's 500 answer without injecting a fault.
 */
const INTERNAL_ERROR_SLUG = 'internal-server-error';

export function catalogRoutes(app: EmulatorApp, catalog: Catalog): Route[] {
  const { options } = app;
  return [
    {
      method: 'GET',
      pattern: /^\/api\/v1\/models\/user$/,
      handler: catalogRoute((ctx) => {
        authenticate(ctx, options);
        listModelsForUser(ctx, catalog);
      }),
    },
    {
      method: 'GET',
      pattern: /^\/api\/v1\/models\/count$/,
      handler: catalogRoute((ctx) => {
        requireManagementKey(ctx, options);
        const matches = outputModalityFilter(ctx.url.searchParams.get('output_modalities') ?? 'text');
        const count = modelsVisibleIn(catalog, ctx.region).filter(matches).length;
        sendJson(ctx.res, 200, { data: { count } });
      }),
    },
    {
      method: 'GET',
      pattern: /^\/api\/v1\/endpoints\/zdr$/,
      handler: catalogRoute((ctx) => {
        requireManagementKey(ctx, options);
        const data = catalog.entries.flatMap((entry) =>
          entry.endpoints
            .filter((endpoint) => endpoint.zeroDataRetention)
            .map((endpoint) => endpoint.endpoint),
        );
        sendJson(ctx.res, 200, { data });
      }),
    },
    {
      method: 'GET',
      pattern: /^\/api\/v1\/models\/(?<author>[^/]+)\/(?<slug>[^/]+)\/endpoints$/,
      handler: catalogRoute((ctx) => {
        requireManagementKey(ctx, options);
        const author = decodePathSegment(ctx.params.author);
        const slug = decodePathSegment(ctx.params.slug);
        if (slug === INTERNAL_ERROR_SLUG) throw new Error('Emulated failure while loading endpoints');
        const entry = catalog.byId.get(`${author}/${slug}`);
        if (!entry) throw catalogError(404);
        const { id, name, created, description, architecture } = entry.model;
        const endpoints = entry.endpoints.map((endpoint) => endpoint.endpoint);
        sendJson(ctx.res, 200, { data: { id, name, created, description, architecture, endpoints } });
      }),
    },
    {
      method: 'GET',
      pattern: /^\/api\/v1\/presets\/(?<slug>[^/]+)\/versions\/(?<version>[^/]+)$/,
      handler: catalogRoute((ctx) => {
        authenticate(ctx, options);
        const slug = decodePathSegment(ctx.params.slug);
        const version = decodePathSegment(ctx.params.version);
        // slug: URL-safe, at least one character; version: the version number as a string.
        if (!/^[A-Za-z0-9._~-]+$/.test(slug) || !/^[1-9]\d*$/.test(version)) throw catalogError(400);
        if (slug === INTERNAL_ERROR_SLUG) throw new Error('Emulated failure while loading the preset');
        const preset = catalog.presets.get(slug)?.find((candidate) => candidate.version === Number(version));
        if (!preset) throw catalogError(404);
        sendJson(ctx.res, 200, { data: preset });
      }),
    },
  ];
}

/**
 * Spec: offset >= 0, limit 1..1000, the full list when both are omitted. The spec does not name
 * the total and the links fields; OpenRouter's SDK reads `total_count` and `links.next` (the URL of
 * the next page, null on the last one), so those are used. `output_modalities` is accepted as in
 * OpenRouter's API, but filters only when given: the spec promises the full list by default.
 */
function listModelsForUser(ctx: RequestContext, catalog: Catalog): void {
  const query = ctx.url.searchParams;
  const modalities = query.get('output_modalities');
  const models = modelsVisibleIn(catalog, ctx.region).filter(
    modalities === null ? () => true : outputModalityFilter(modalities),
  );
  const offsetText = query.get('offset');
  const limitText = query.get('limit');
  const data = models.map((entry) => entry.model);
  if (offsetText === null && limitText === null) {
    return sendJson(ctx.res, 200, { data, total_count: data.length, links: { next: null } });
  }
  const offset = offsetText === null ? 0 : parseNonNegativeInteger(offsetText);
  const limit = limitText === null ? DEFAULT_PAGE_LIMIT : parseNonNegativeInteger(limitText);
  if (limit < 1 || limit > MAX_PAGE_LIMIT) throw catalogError(400);
  const page = data.slice(offset, offset + limit);
  let next: string | null = null;
  if (offset + page.length < data.length) {
    const nextUrl = new URL(ctx.url);
    nextUrl.searchParams.set('offset', String(offset + page.length));
    nextUrl.searchParams.set('limit', String(limit));
    next = nextUrl.toString();
  }
  sendJson(ctx.res, 200, { data: page, total_count: data.length, links: { next } });
}

function parseNonNegativeInteger(text: string): number {
  if (!/^\d{1,9}$/.test(text)) throw catalogError(400);
  return Number(text);
}

/** Through the EU host only models that satisfy EU in-region routing are listed and counted. */
function modelsVisibleIn(catalog: Catalog, region: Region): CatalogEntry[] {
  return region === 'eu' ? catalog.entries.filter(servesEu) : catalog.entries;
}

/** `text,image`, or `all`: a model matches when it outputs any of the listed modalities. */
function outputModalityFilter(value: string): (entry: CatalogEntry) => boolean {
  const wanted = value.split(',').map((modality) => modality.trim());
  if (wanted.includes('all') && wanted.length === 1) return () => true;
  if (wanted.some((modality) => !OUTPUT_MODALITIES.includes(modality))) throw catalogError(400);
  return (entry) => entry.model.architecture.output_modalities.some((modality) => wanted.includes(modality));
}

function decodePathSegment(segment: string | undefined): string {
  try {
    return decodeURIComponent(segment ?? '');
  } catch {
    throw catalogError(400);
  }
}
