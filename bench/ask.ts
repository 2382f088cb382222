import { SseParser } from '../src/main/core/gateway/sse-parser';
import type { Measurement } from './bench-kit';
import { chunked, completionEvents, events, medianOf } from './sse-stream';

/**
 * Ask's streamed answers:
 * - the SSE parser's throughput on a long recorded-style stream of chat-completion chunks,
 *   delivered in 16 KiB network chunks, against JSON.parse of the same events as one JSON array
 *   (the same bytes, minus the framing) in the same run; target: at least as fast;
 * - in Chromium, the time from the first byte of a streamed answer reaching main to its paint
 *   in the Ask panel (bench/browser/ask-paint.ts); target: under 16 ms.
 */

export async function run(): Promise<Measurement[]> {
  const payloads = completionEvents();
  const stream = new TextEncoder().encode(
    `${payloads.map((data) => `data: ${data}\n\n`).join('')}data: [DONE]\n\n`,
  );
  const chunks = chunked(stream);
  const array = `[${payloads.join(',')}]`;
  let parsedEvents = 0;

  // Warm both paths up before measuring.
  for (let i = 0; i < 3; i++) {
    new SseParser().push(stream);
    JSON.parse(array);
  }
  const parserMs = medianOf(9, () => {
    const parser = new SseParser();
    parsedEvents = 0;
    for (const chunk of chunks) parsedEvents += parser.push(chunk).length;
  });
  const jsonMs = medianOf(9, () => void JSON.parse(array));
  // What the client does with a whole stream: parse it and JSON.parse each event, in total.
  const parserAndJsonTotalMs = medianOf(5, () => {
    const parser = new SseParser();
    for (const chunk of chunks)
      for (const event of parser.push(chunk)) if (event.data !== '[DONE]') JSON.parse(event.data);
  });
  if (parsedEvents !== events + 1) throw new Error(`parsed ${parsedEvents} events, expected ${events + 1}`);
  const megabytes = stream.length / 1e6;

  const paint = (await import(`./browser/${'ask-paint'}`)) as { run: () => Promise<Measurement[]> };
  return [
    {
      name: `ask: median time to parse ${Math.round(megabytes)} MB of streamed chat-completion events (9 rounds)`,
      statistic: 'median',
      unit: 'ms',
      ours: parserMs,
      baseline: jsonMs,
      baselineLabel: 'JSON.parse of the same events as one array, median',
      targets: [{ of: 'ratio', comparison: '<=', threshold: 1 }],
      notes: {
        events,
        megabytes: Math.round(megabytes * 10) / 10,
        parserMBps: Math.round(megabytes / (parserMs / 1000)),
        jsonParseMBps: Math.round(megabytes / (jsonMs / 1000)),
        parserAndJsonParseOfEveryEventTotalMs: Math.round(parserAndJsonTotalMs),
      },
    },
    ...(await paint.run()),
  ];
}
