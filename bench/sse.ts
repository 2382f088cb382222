import { SseParser } from '../src/main/core/gateway/sse-parser';
import type { Measurement } from './bench-kit';
import { HandWrittenSseParser } from './hand-written-sse-parser';
import { chunked, completionEvents, events, medianOf } from './sse-stream';

/**
 * The gateway's SSE parser, eventsource-parser behind our SseParser, against the hand-written
 * parser it replaced (hand-written-sse-parser.ts): both parse the same 16 KiB network chunks of
 * a long stream of chat-completion events in the same run. The package was adopted for being
 * within 1.5 times the hand-written parser's time; the target keeps it so.
 */

function packageParse(chunks: Uint8Array[]): number {
  const parser = new SseParser();
  let parsed = 0;
  for (const chunk of chunks) parsed += parser.push(chunk).length;
  return parsed;
}

function handWrittenParse(chunks: Uint8Array[]): number {
  const parser = new HandWrittenSseParser();
  let parsed = 0;
  for (const chunk of chunks) parsed += parser.push(chunk).length;
  return parsed;
}

export function run(): Promise<Measurement[]> {
  const payloads = completionEvents();
  const stream = new TextEncoder().encode(
    `${payloads.map((data) => `data: ${data}\n\n`).join('')}data: [DONE]\n\n`,
  );
  const chunks = chunked(stream);
  for (let i = 0; i < 3; i++) {
    packageParse(chunks);
    handWrittenParse(chunks);
  }
  let packageEvents = 0;
  let handWrittenEvents = 0;
  const packageMs = medianOf(15, () => void (packageEvents = packageParse(chunks)));
  const handWrittenMs = medianOf(15, () => void (handWrittenEvents = handWrittenParse(chunks)));
  for (const parsed of [packageEvents, handWrittenEvents])
    if (parsed !== events + 1) throw new Error(`parsed ${parsed} events, expected ${events + 1}`);
  const megabytes = stream.length / 1e6;
  return Promise.resolve([
    {
      name: `sse: median time for SseParser (eventsource-parser) to parse ${Math.round(megabytes)} MB of streamed chat-completion events (15 rounds)`,
      statistic: 'median',
      unit: 'ms',
      ours: packageMs,
      baseline: handWrittenMs,
      baselineLabel: 'the hand-written parser it replaced, on the same chunks, median',
      targets: [{ of: 'ratio', comparison: '<=', threshold: 1.5 }],
      notes: {
        events,
        megabytes: Math.round(megabytes * 10) / 10,
        eventsourceParserMBps: Math.round(megabytes / (packageMs / 1000)),
        handWrittenMBps: Math.round(megabytes / (handWrittenMs / 1000)),
      },
    },
  ]);
}
