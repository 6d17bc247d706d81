/**
 * Server-sent events (the WHATWG `text/event-stream` format, which a browser's EventSource reads
 * and reconnects by itself): one stream per watcher, each message written once for all of them.
 * A watcher that stops reading is dropped once its unsent backlog passes a bound, rather than
 * growing the daemon's memory; its browser reconnects and starts again from a fresh snapshot.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** One message in the event-stream format. `data` is one line (JSON has no raw newline). */
export function sseMessage(event: string, data: string, id?: number): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${data}\n\n`;
}

/** Defaults of {@link SseStreams}. */
export const SSE_DEFAULTS = {
  /** Unsent bytes a watcher may fall behind by before it is dropped (a few minutes of samples). */
  maxBacklogBytes: 4 * 1024 * 1024,
  /** How long a browser waits before reconnecting, ms (sent to it as `retry:`). */
  retryMs: 2_000,
} as const;

/** The open event streams. */
export class SseStreams {
  private readonly open = new Set<ServerResponse>();
  private readonly maxBacklogBytes: number;
  private readonly onCountChange: (count: number) => void;

  /**
   * @param onCountChange called with the number of watchers whenever one arrives or leaves.
   * @param maxBacklogBytes default {@link SSE_DEFAULTS}.
   */
  constructor(options: { readonly onCountChange?: (count: number) => void; readonly maxBacklogBytes?: number } = {}) {
    this.onCountChange = options.onCountChange ?? (() => undefined);
    this.maxBacklogBytes = options.maxBacklogBytes ?? SSE_DEFAULTS.maxBacklogBytes;
  }

  /** Watchers connected now. */
  get count(): number {
    return this.open.size;
  }

  /** Answers `request` with an event stream that begins with `first` (already in the format). */
  attach(request: IncomingMessage, response: ServerResponse, first: string): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      // A reverse proxy in front (nginx) must pass each event on at once.
      'x-accel-buffering': 'no',
    });
    response.write(`retry: ${SSE_DEFAULTS.retryMs}\n\n${first}`);
    this.open.add(response);
    this.onCountChange(this.open.size);
    const leave = (): void => {
      if (this.open.delete(response)) this.onCountChange(this.open.size);
    };
    request.once('close', leave);
    response.once('close', leave);
  }

  /** Writes one message to every watcher; drops those too far behind. */
  broadcast(message: string): void {
    for (const response of this.open) {
      if (response.writableLength > this.maxBacklogBytes) {
        response.destroy();
        continue;
      }
      response.write(message);
    }
  }

  /** Ends every stream (the daemon is stopping); idempotent. */
  closeAll(): void {
    for (const response of [...this.open]) response.end();
    this.open.clear();
    this.onCountChange(0);
  }
}
