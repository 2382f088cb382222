import { HttpError } from '../http';
import type { RequestContext } from '../types';

/**
 * The transcription endpoints take the API key itself in Authorization (no scheme). A missing
 * or wrong key gets the real service's 401 body.
 */
export function requireApiKey(ctx: RequestContext, key: string): void {
  if (ctx.req.headers.authorization !== key) {
    throw new HttpError(401, { error: 'Authentication error, API token missing/invalid' });
  }
}
