import type { FetchLike } from '../http/http-client';
import { estimateDuration, sniffFormat } from './recording-file';

/**
 * A first guess at the length of a recording the service will fetch from a URL, from its
 * first bytes and its size (one small ranged request to where the file lives, none to the
 * service). It lets the scheduler plan its first look as it does for local files. Any
 * failure just means "unknown".
 */
export async function estimateRemoteDuration(
  fetchLike: FetchLike,
  url: string,
  timeoutMs = 5000,
): Promise<number | undefined> {
  try {
    const response = await fetchLike(url, {
      method: 'GET',
      headers: { Range: 'bytes=0-63' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) return undefined;
    const head = await firstBytes(response, 64);
    // A server that ignores Range answers 200 with the whole file: its length is the size.
    const total =
      /\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1] ??
      (response.status === 200 ? response.headers.get('content-length') : undefined);
    const size = Number(total);
    const format = sniffFormat(head);
    if (!format || !Number.isFinite(size) || size <= 0) return undefined;
    return estimateDuration(format, head, size);
  } catch {
    return undefined;
  }
}

/** Reads just the first bytes of a body and drops the rest unread. */
async function firstBytes(response: Response, count: number): Promise<Buffer> {
  if (!response.body) return Buffer.alloc(0);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  while (length < count) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.length;
  }
  await reader.cancel().catch(() => undefined);
  return Buffer.concat(chunks).subarray(0, count);
}
