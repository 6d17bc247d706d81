/**
 * The WebSocket side (SPEC §4, REFERENCE §3): `/ws?listenKey=…&signer=…` on the HTTP server's
 * port, subscribe/unsubscribe with acks, fan-out of events to subscribers, a ping every
 * `wsPingIntervalMs` (a socket that missed two pongs is dropped), and sockets closed when their
 * listen key expires. Private `fills_<account>` streams are open only to that account's key.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Clock, Logger, Timer } from '../core/index.ts';
import type { AuthService, Session } from './auth.ts';
import type { FaultController } from './faults.ts';
import { marketKey } from './markets.ts';
import { parseFelt } from '../exchange/wire/fields.ts';

interface Client {
  readonly socket: WebSocket;
  readonly session: Session;
  readonly listenKey: string;
  readonly streams: Set<string>;
  missedPongs: number;
}

/** Name of a market-data channel: "bbo:ETH-USDC/eco". */
export function marketChannel(stream: 'bbo' | 'trade' | 'snap', key: string): string {
  return `${stream}:${key}`;
}

/** Name of an account's private channel. */
export function fillsChannel(account: bigint): string {
  return `fills:${account.toString(16)}`;
}

/** Collaborators of the hub. */
export interface WsHubDeps {
  readonly clock: Clock;
  readonly auth: AuthService;
  readonly faults: FaultController;
  readonly logger: Logger;
  readonly pingIntervalMs: number;
  /** True when this book exists (subscriptions to unknown books get an error ack). */
  hasMarket(key: string): boolean;
}

/** A reordered report is overtaken by the next one, or sent anyway this long after it was held. */
const HELD_REPORT_MAX_MS = 1_000;

/** All open sockets and their subscriptions. */
export class WsHub {
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly clients = new Set<Client>();
  private readonly channels = new Map<string, Set<Client>>();
  private readonly held = new Map<bigint, string>();
  private readonly pingTimer: Timer;

  constructor(private readonly deps: WsHubDeps) {
    this.pingTimer = deps.clock.setInterval(() => this.pingAll(), deps.pingIntervalMs, { unref: true });
    deps.faults.attachDropper(() => this.dropAll());
  }

  /** Number of open sockets. */
  size(): number {
    return this.clients.size;
  }

  /** Handles an HTTP upgrade for `/ws`; refuses a missing or dead listen key with 401. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, query: URLSearchParams): void {
    const key = query.get('listenKey') ?? query.get('listen_key') ?? '';
    const session = this.deps.auth.resolveListenKey(key);
    const refuse = (why: string): void => {
      socket.end(`HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${why}\n`);
    };
    if (session === undefined) return refuse('listen key invalid or expired');
    // The signer must be the key the listen key was issued to, compared as a number: akira-js
    // `buildUrl` sends the key as its caller gave it (starknet.js prints it unpadded), python_akira
    // `signer.as_str()` padded.
    const signer = feltOrUndefined(query.get('signer'));
    if (signer === undefined) return refuse('signer must be the signer key (0x-hex, padded or not, or decimal)');
    if (signer !== session.signer) return refuse('signer is not the key this listen key was issued to');
    this.server.handleUpgrade(request, socket, head, (ws) => this.attach(ws, session, key));
  }

  private attach(socket: WebSocket, session: Session, listenKey: string): void {
    const client: Client = { socket, session, listenKey, streams: new Set(), missedPongs: 0 };
    this.clients.add(client);
    socket.on('pong', () => {
      client.missedPongs = 0;
    });
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      this.onMessage(client, data.toString());
    });
    socket.on('close', () => this.detach(client));
    socket.on('error', () => this.detach(client));
  }

  private detach(client: Client): void {
    if (!this.clients.delete(client)) return;
    for (const channel of client.streams) this.channels.get(channel)?.delete(client);
  }

  private onMessage(client: Client, text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.send(client, { id: null, error: 'malformed JSON' });
      return;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      this.send(client, { id: null, error: 'expected a JSON object' });
      return;
    }
    const { action, id, stream, ticker } = message as Record<string, unknown>;
    const ackId = typeof id === 'number' || typeof id === 'string' ? id : null;
    if (action !== 'subscribe' && action !== 'unsubscribe') {
      this.send(client, { id: ackId, error: `unknown action ${JSON.stringify(action)}; use subscribe or unsubscribe` });
      return;
    }
    const channel = this.channelOf(client, stream, ticker);
    if (typeof channel !== 'string') {
      this.send(client, { id: ackId, error: channel.error });
      return;
    }
    if (action === 'subscribe') {
      client.streams.add(channel);
      let members = this.channels.get(channel);
      if (members === undefined) {
        members = new Set();
        this.channels.set(channel, members);
      }
      members.add(client);
    } else {
      client.streams.delete(channel);
      this.channels.get(channel)?.delete(client);
    }
    this.send(client, { id: ackId, result: 'OK' });
  }

  private channelOf(client: Client, stream: unknown, ticker: unknown): string | { error: string } {
    if (typeof stream !== 'string') return { error: 'stream must be a string' };
    if (stream.startsWith('fills_')) {
      const suffix = stream.slice('fills_'.length);
      // The account as a number: akira-js subscribes `fills_${tradingAccount}` with the caller's
      // string (checksummed, unpadded), python_akira with the padded `ContractAddress.as_str()`.
      const account = feltOrUndefined(suffix);
      if (account === undefined) return { error: `${stream}: the account after fills_ must be an address (0x-hex, padded or not)` };
      if (account !== client.session.account) return { error: `${stream} belongs to another account` };
      return fillsChannel(account);
    }
    if (stream !== 'bbo' && stream !== 'trade' && stream !== 'snap') return { error: `unknown stream ${stream}` };
    if (typeof ticker !== 'object' || ticker === null) return { error: 'ticker {base, quote, ecosystem_book} is required' };
    const { base, quote, ecosystem_book: ecosystem } = ticker as Record<string, unknown>;
    if (typeof base !== 'string' || typeof quote !== 'string' || typeof ecosystem !== 'boolean') {
      return { error: 'ticker needs base and quote symbols and a boolean ecosystem_book' };
    }
    const key = marketKey(base, quote, ecosystem);
    if (!this.deps.hasMarket(key)) return { error: `${base}/${quote} is not listed` };
    return marketChannel(stream, key);
  }

  /** Sends an event to every subscriber of a channel (faults may drop or repeat it). */
  publish(channel: string, event: Record<string, unknown>, options: { duplicate?: boolean } = {}): void {
    const members = this.channels.get(channel);
    if (members === undefined || members.size === 0) return;
    const key = channel.slice(channel.indexOf(':') + 1);
    if (this.deps.faults.strikesStreamOf(key) && this.deps.faults.roll(this.deps.faults.settings.marketMuteRate)) return;
    const text = JSON.stringify(event);
    for (const client of [...members]) {
      if (this.deps.faults.roll(this.deps.faults.settings.wsDropRate)) {
        client.socket.close(1012, 'fault injection: connection dropped');
        this.detach(client);
        continue;
      }
      this.sendText(client, text);
      if (options.duplicate === true) this.sendText(client, text);
    }
  }

  /** Sends a private report, applying the duplicate and reorder faults. */
  publishReport(account: bigint, event: Record<string, unknown>): void {
    const faults = this.deps.faults;
    const channel = fillsChannel(account);
    const text = JSON.stringify(event);
    const held = this.held.get(account);
    if (held === undefined && faults.roll(faults.settings.reportReorderRate)) {
      this.held.set(account, text);
      // Reordered, not lost: when no later report comes to overtake it (the fault over, the
      // market quiet) it still goes out. Held until the next report only, it could stay held for
      // good, and the bot's books were judged without it (chaos seed 1484618478).
      this.deps.clock.setTimeout(
        () => {
          if (this.held.get(account) !== text) return;
          this.held.delete(account);
          this.publishText(channel, text, false);
        },
        HELD_REPORT_MAX_MS,
        { unref: true },
      );
      return;
    }
    this.publishText(channel, text, faults.roll(faults.settings.reportDuplicateRate));
    if (held !== undefined) {
      this.held.delete(account);
      this.publishText(channel, held, false);
    }
  }

  private publishText(channel: string, text: string, duplicate: boolean): void {
    for (const client of this.channels.get(channel) ?? []) {
      this.sendText(client, text);
      if (duplicate) this.sendText(client, text);
    }
  }

  private send(client: Client, message: Record<string, unknown>): void {
    this.sendText(client, JSON.stringify(message));
  }

  /** Sends one message whole, or (fault injection) in fragments cut at odd byte offsets. */
  private sendText(client: Client, text: string): void {
    const bytes = Buffer.from(text, 'utf8');
    const fragments = this.deps.faults.fragmentation(bytes.length);
    if (fragments === undefined) {
      client.socket.send(text);
      return;
    }
    // Every fragment is queued in this call, so no other message can come between them.
    let start = 0;
    for (const cut of [...fragments.cuts, bytes.length]) {
      client.socket.send(bytes.subarray(start, cut), { binary: fragments.binary, fin: cut === bytes.length });
      start = cut;
    }
  }

  private pingAll(): void {
    for (const client of [...this.clients]) {
      if (client.missedPongs >= 2) {
        client.socket.terminate();
        this.detach(client);
        continue;
      }
      client.missedPongs++;
      client.socket.ping();
    }
  }

  /** Closes the sockets of listen keys that just expired (SPEC §4). */
  closeExpired(keys: readonly string[]): void {
    if (keys.length === 0) return;
    const dead = new Set(keys);
    for (const client of [...this.clients]) {
      if (dead.has(client.listenKey)) {
        client.socket.close(4001, 'listen key expired');
        this.detach(client);
      }
    }
  }

  /** Closes every socket (fault injection); returns how many. */
  dropAll(): number {
    const count = this.clients.size;
    for (const client of [...this.clients]) {
      client.socket.terminate();
      this.detach(client);
    }
    return count;
  }

  /** Closes everything; idempotent. */
  stop(): void {
    this.pingTimer.cancel();
    for (const client of [...this.clients]) {
      client.socket.close(1001, 'server stopping');
      client.socket.terminate();
      this.detach(client);
    }
    this.server.close();
  }
}

/** A felt in any spelling the SDKs use; undefined when absent or not a felt. */
function feltOrUndefined(text: string | null): bigint | undefined {
  if (text === null) return undefined;
  try {
    return parseFelt(text, 'felt');
  } catch {
    return undefined;
  }
}
