/**
 * The hand-written SSE parser the app used until eventsource-parser replaced it (issue #34),
 * kept as the benchmark's baseline (bench/sse.ts) so the choice can be measured again.
 *
 * An incremental parser for server-sent events (the WHATWG "event stream" format), fed by
 * whatever chunks the network delivers. Bytes are decoded as a stream, so a character or a line
 * terminator split across two chunks is handled; each complete event is returned as soon as
 * its terminating blank line arrives, which is what lets an answer appear while it streams.
 */

interface SseEvent {
  /** The `event:` field; "message" when the stream did not name one. */
  event: string;
  data: string;
  /** The last `id:` seen so far, if any. */
  id: string | undefined;
}

export class HandWrittenSseParser {
  private readonly decoder = new TextDecoder('utf-8');
  /** The start of a line whose terminator has not arrived yet. */
  private partial = '';
  /** A chunk ended with CR: an LF at the start of the next one belongs to the same CRLF. */
  private endedWithCr = false;
  private data: string[] = [];
  private eventType = '';
  private lastId: string | undefined;

  /** Feeds one chunk; returns the events it completed, in order. */
  push(chunk: Uint8Array | string): SseEvent[] {
    const text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    return this.feed(text);
  }

  /**
   * The stream ended. As the standard says, an event without its closing blank line is
   * incomplete and dropped; what the decoder still held is flushed first.
   */
  end(): SseEvent[] {
    const events = this.feed(this.decoder.decode());
    this.partial = '';
    this.data = [];
    this.eventType = '';
    return events;
  }

  private feed(input: string): SseEvent[] {
    if (input === '') return [];
    const text = this.endedWithCr && input.startsWith('\n') ? input.slice(1) : input;
    this.endedWithCr = text.endsWith('\r');
    const events: SseEvent[] = [];
    const buffer = this.partial + text;
    let start = 0;
    // The next CR and LF are remembered, so a stream with only one kind of terminator is not
    // rescanned to its end for the other kind at every line.
    let nextCr = buffer.indexOf('\r');
    let nextLf = buffer.indexOf('\n');
    for (;;) {
      if (nextCr !== -1 && nextCr < start) nextCr = buffer.indexOf('\r', start);
      if (nextLf !== -1 && nextLf < start) nextLf = buffer.indexOf('\n', start);
      const end = nextCr === -1 ? nextLf : nextLf === -1 ? nextCr : Math.min(nextCr, nextLf);
      if (end === -1) break;
      const event = this.line(buffer.slice(start, end));
      if (event) events.push(event);
      start = end + (end === nextCr && buffer.charCodeAt(end + 1) === 10 ? 2 : 1);
    }
    this.partial = start === 0 ? buffer : buffer.slice(start);
    return events;
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.charCodeAt(0) === 58) return undefined; // ":" starts a comment (keep-alives)
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data.push(value);
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastId = value;
        break;
      default:
        // `retry` only matters to a reconnecting EventSource; unknown fields are ignored.
        break;
    }
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    const event =
      this.data.length === 0
        ? undefined
        : { event: this.eventType || 'message', data: this.data.join('\n'), id: this.lastId };
    this.data = [];
    this.eventType = '';
    return event;
  }
}
