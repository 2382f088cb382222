import { HttpError } from '../http';
import type { EmulatorOptions, RequestContext, RouteHandler } from '../types';

/** Errors and authentication of the catalog, in OpenRouter's shape: `{error: {code, message}}`. */

type CatalogStatus = 400 | 401 | 403 | 404 | 500;

const MESSAGES: Record<CatalogStatus, string> = {
  400: 'Invalid request parameters',
  401: 'Missing Authentication header',
  403: 'Only management keys can perform this operation',
  404: 'Resource not found',
  500: 'Internal Server Error',
};

export function catalogError(status: CatalogStatus, message = MESSAGES[status]): HttpError {
  return new HttpError(status, { error: { code: status, message } });
}

export type KeyKind = 'normal' | 'management';

/**
 * Reads `Authorization: Bearer <key>`. A header without the Bearer scheme carries no credential
 * OpenRouter would read, so it counts as missing. An unknown key gets OpenRouter's answer to a
 * key it does not know: 401 "User not found.".
 */
export function authenticate(ctx: RequestContext, options: EmulatorOptions): KeyKind {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.req.headers.authorization ?? '');
  const key = match?.[1];
  if (!key) throw catalogError(401);
  if (key === options.managementKey) return 'management';
  if (key === options.key) return 'normal';
  throw catalogError(401, 'User not found.');
}

export function requireManagementKey(ctx: RequestContext, options: EmulatorOptions): void {
  if (authenticate(ctx, options) !== 'management') throw catalogError(403);
}

/** Any failure that is not a deliberate HTTP answer becomes OpenRouter's 500 body. */
export function catalogRoute(handler: RouteHandler): RouteHandler {
  return async (ctx) => {
    try {
      await handler(ctx);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw catalogError(500);
    }
  };
}
