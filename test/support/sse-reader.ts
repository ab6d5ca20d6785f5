/** One Server-Sent Events message as read off the wire: a comment line, or a named event with JSON data. */
export type SseMessage = { comment: string } | { event: string; data: unknown };

/**
 * Reads a text/event-stream response one message at a time, so a test can act between two events (release a
 * held upstream answer, hang up). Only what the service sends is parsed: `event:`, one `data:` line, comments.
 */
export class SseReader {
  private readonly reader: ReadableStreamDefaultReader<string>;
  private buffer = '';
  /** Every message read so far, in order. */
  readonly messages: SseMessage[] = [];

  constructor(body: ReadableStream<Uint8Array>) {
    this.reader = body.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** The next message, or undefined once the stream has ended. */
  async next(): Promise<SseMessage | undefined> {
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const message = parseBlock(block);
        this.messages.push(message);
        return message;
      }
      const { value, done } = await this.reader.read();
      if (done) {
        if (this.buffer.trim() !== '') throw new Error(`stream ended inside a message: ${JSON.stringify(this.buffer)}`);
        return undefined;
      }
      this.buffer += value;
    }
  }

  /** Reads until a named event (comments skipped) and returns it. */
  async nextEvent(): Promise<{ event: string; data: unknown } | undefined> {
    for (;;) {
      const message = await this.next();
      if (!message || 'event' in message) return message;
    }
  }

  /** Reads up to the end of the stream; returns the named events still unread. */
  async rest(): Promise<Array<{ event: string; data: unknown }>> {
    const events: Array<{ event: string; data: unknown }> = [];
    for (let event = await this.nextEvent(); event; event = await this.nextEvent()) events.push(event);
    return events;
  }

  get events(): Array<{ event: string; data: unknown }> {
    return this.messages.filter((message): message is { event: string; data: unknown } => 'event' in message);
  }

  async cancel(): Promise<void> {
    await this.reader.cancel();
  }
}

function parseBlock(block: string): SseMessage {
  const lines = block.split('\n');
  if (lines.every((line) => line.startsWith(':'))) return { comment: lines.map((line) => line.slice(1).trim()).join('\n') };
  const event = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length);
  const data = lines.filter((line) => line.startsWith('data: ')).map((line) => line.slice('data: '.length));
  if (!event || data.length !== 1) throw new Error(`unexpected SSE message: ${JSON.stringify(block)}`);
  return { event, data: JSON.parse(data[0]!) as unknown };
}
