import { z } from 'zod';
import type { HttpClient } from '../http/http-client';

/**
 * GET /v1/token: a one-time token for the voice agent's `token` query parameter. The spec does
 * not show its shape; AssemblyAI takes `expires_in_seconds` (1..600) and answers
 * `{ token, expires_in_seconds }`. `http` is a client on the token URL's origin with the API key.
 */
const tokenSchema = z.looseObject({ token: z.string().min(1) });

/** A token lives only until the socket opens, so a short life is enough. */
const TOKEN_LIFETIME_SECONDS = 60;

export async function fetchVoiceToken(http: HttpClient, tokenPath = '/v1/token'): Promise<string> {
  const answer = await http.request({
    method: 'GET',
    path: tokenPath,
    query: { expires_in_seconds: TOKEN_LIFETIME_SECONDS },
    schema: tokenSchema,
  });
  return answer.token;
}
