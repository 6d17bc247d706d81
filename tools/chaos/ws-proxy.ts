/**
 * A TCP proxy between the bot and the exchange's WebSocket port, so chaos runs can do to the byte
 * stream what networks and venues do:
 * - `rechunk`: the exchange→bot bytes are re-cut at odd boundaries — split into pieces of 1–7
 *   bytes written one event-loop turn apart (a frame header or a UTF-8 character across two TCP
 *   reads), or held for a few ms and merged into one write (several frames in one read);
 * - `hold`: the bot is a slow consumer (the harness freezes it): bytes still flow into its
 *   socket buffers while the proxy counts the backlog, and past the venue's limit it drops the
 *   connection as a venue drops a consumer that does not keep up.
 * In `pass` it only forwards. The bot reaches the exchange's REST port directly.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { Clock, Rng } from '../../src/core/index.ts';

export type ProxyMode = { readonly kind: 'pass' } | { readonly kind: 'rechunk' } | { readonly kind: 'hold'; readonly dropAboveBytes: number };

/** Counts of what the proxy did (for the run's log). */
export interface ProxyStats {
  /** Pieces written to the bot while re-chunking. */
  rechunkedWrites: number;
  /** Connections dropped as slow consumers. */
  slowConsumerDrops: number;
}

interface Pair {
  readonly downstream: Socket;
  readonly upstream: Socket;
  /** Bytes waiting to be written to the bot in rechunk mode. */
  pending: Buffer[];
  flushing: boolean;
  /** Bytes sent to the bot since the hold began. */
  heldBytes: number;
}

/** The proxy; `start()` resolves with its port. */
export class WsProxy {
  private server: Server | undefined;
  private readonly pairs = new Set<Pair>();
  private mode: ProxyMode = { kind: 'pass' };
  readonly stats: ProxyStats = { rechunkedWrites: 0, slowConsumerDrops: 0 };

  constructor(
    private readonly upstreamPort: number,
    private readonly clock: Clock,
    private readonly rng: Rng,
  ) {}

  async start(): Promise<number> {
    const server = createServer((downstream) => this.accept(downstream));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const address = server.address();
    return typeof address === 'object' && address !== null ? address.port : 0;
  }

  setMode(mode: ProxyMode): void {
    this.mode = mode;
    for (const pair of this.pairs) pair.heldBytes = 0;
  }

  /** Closes the listener and every connection; idempotent. */
  async stop(): Promise<void> {
    for (const pair of this.pairs) this.close(pair);
    const server = this.server;
    this.server = undefined;
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(downstream: Socket): void {
    downstream.setNoDelay(true);
    const upstream = connect(this.upstreamPort, '127.0.0.1');
    upstream.setNoDelay(true);
    const pair: Pair = { downstream, upstream, pending: [], flushing: false, heldBytes: 0 };
    this.pairs.add(pair);
    downstream.on('data', (chunk: Buffer) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => this.toBot(pair, chunk));
    for (const socket of [downstream, upstream]) {
      socket.on('error', () => this.close(pair));
      socket.on('close', () => this.close(pair));
    }
  }

  private toBot(pair: Pair, chunk: Buffer): void {
    const mode = this.mode;
    if (mode.kind === 'hold') {
      pair.heldBytes += chunk.length;
      if (pair.heldBytes > mode.dropAboveBytes) {
        this.stats.slowConsumerDrops++;
        this.close(pair);
        return;
      }
    }
    if (mode.kind !== 'rechunk' && pair.pending.length === 0 && !pair.flushing) {
      pair.downstream.write(chunk);
      return;
    }
    pair.pending.push(chunk);
    if (!pair.flushing) void this.flush(pair);
  }

  /** Writes the pending bytes re-cut: tiny pieces a turn apart, or a few ms merged into one write. */
  private async flush(pair: Pair): Promise<void> {
    pair.flushing = true;
    const turn = (ms: number): Promise<void> => new Promise((resolve) => this.clock.setTimeout(resolve, ms, { unref: true }));
    while (pair.pending.length > 0 && !pair.downstream.destroyed) {
      if (this.rng.next() < 0.5) {
        // Merge: let more bytes arrive, then write everything at once.
        await turn(2 + this.rng.int(8));
        const merged = Buffer.concat(pair.pending.splice(0));
        pair.downstream.write(merged);
        this.stats.rechunkedWrites++;
      } else {
        // Split: the first bytes go out in pieces of 1–7 bytes, a turn apart.
        const head = Buffer.concat(pair.pending.splice(0));
        let offset = 0;
        const splitUntil = Math.min(head.length, 1 + this.rng.int(64));
        while (offset < splitUntil && !pair.downstream.destroyed) {
          const size = Math.min(splitUntil - offset, 1 + this.rng.int(7));
          pair.downstream.write(head.subarray(offset, offset + size));
          this.stats.rechunkedWrites++;
          offset += size;
          await turn(0);
        }
        if (offset < head.length) pair.pending.unshift(head.subarray(offset));
      }
    }
    pair.flushing = false;
  }

  private close(pair: Pair): void {
    if (!this.pairs.delete(pair)) return;
    pair.downstream.destroy();
    pair.upstream.destroy();
  }
}
