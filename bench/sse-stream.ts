import { percentile, seededRandom } from './bench-kit';

/**
 * A long recorded-style stream of chat-completion events, as the gateway sends Ask's answers,
 * delivered in 16 KiB network chunks: the input of the SSE benchmarks (ask.ts, sse.ts).
 */

export const events = 40_000;
const networkChunk = 16 * 1024;

export function completionEvents(): string[] {
  const random = seededRandom(8);
  const words = [
    'ferry',
    'contract',
    'council',
    'harbour',
    'résumé',
    'Gazette',
    '“quoted”',
    'budget',
    '2025',
  ];
  const out: string[] = [];
  for (let index = 0; index < events; index++) {
    const content = Array.from({ length: 3 }, () => words[Math.floor(random() * words.length)]).join(' ');
    out.push(
      JSON.stringify({
        id: 'chatcmpl-bench',
        object: 'chat.completion.chunk',
        created: 1763900000,
        model: 'claude-sonnet-4-5',
        request_id: '7f0c1f1e-1a5a-4c1e-9d8e-0b6f3f2a9c11',
        choices: [{ index: 0, delta: { content: `${content} ` }, finish_reason: null }],
      }),
    );
  }
  return out;
}

export function chunked(bytes: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += networkChunk) chunks.push(bytes.subarray(at, at + networkChunk));
  return chunks;
}

/** The median time of `rounds` runs of `work`. */
export function medianOf(rounds: number, work: () => void): number {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = process.hrtime.bigint();
    work();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return percentile(times, 50);
}
