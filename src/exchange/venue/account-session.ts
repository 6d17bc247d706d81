/**
 * One trading account quoting several pairs from one process (issue "many pairs"): one login
 * (one REST client and its JWT), one signer (under a policy that covers every pair), one
 * WebSocket connection carrying every pair's `bbo`/`trade`/`snap` and the account's `fills`, and a
 * `LiveVenue` per pair over them: each pair's engine sees the same `Venue` port as alone.
 *
 * The connection is shared through channels: each pair's feed gets one, subscribes on it (a topic
 * two pairs want, like the account's fills or the fee-token book, is subscribed once) and receives
 * every event (each feed keeps its own pair's; a fill that names no pair goes to the pair whose
 * order it is). The last channel to stop closes the socket.
 */
import { type Clock, type Logger, type Pair, type Rng } from '../../core/index.ts';
import type { RestClient, VenueOrder } from '../client/index.ts';
import { MarketStream, topicKey, type StreamHandlers, type Topic } from '../stream/index.ts';
import type { SigningAudit } from '../signer/index.ts';
import { connectionOf, liveVenueSettingsOf, type LiveVenueConfig, type LiveVenueFactoryDeps } from './create.ts';
import type { FeedStream } from './market-feed.ts';
import { LiveVenue } from './live-venue.ts';
import { orderIdOf } from './order-tracker.ts';
import type { BatchOrderSigner } from './signer-port.ts';

/** An order of the account on any pair, as the venue's history lists it. */
export interface AccountOrderRecord {
  readonly orderId: string;
  /** `BASE/QUOTE`. */
  readonly pair: string;
  /** Base actually filled (filled − failed on chain). */
  readonly filledQtyUnits: bigint;
}

/** Collaborators of a session (as {@link createLiveVenue}'s). */
export interface AccountSessionDeps {
  readonly clock: Clock;
  readonly rng: Rng;
  readonly logger: Logger;
  readonly signer?: LiveVenueFactoryDeps['signer'];
  readonly audit?: SigningAudit;
}

const PAGE_SIZE = 20;
/** Pages of the account's order history read to name a foreign trade (newest first). */
const HISTORY_PAGES = 5;

/** The account's connection and one venue per pair. */
export class AccountSession {
  readonly venues: readonly LiveVenue[];
  readonly #rest: RestClient;
  readonly #batchSigner: BatchOrderSigner | undefined;
  readonly #stream: SharedStream;
  #stopped = false;

  /**
   * @param pairs each pair's connection settings; the account, venue, chain and signer of the
   *   first are used for all (the CLI refuses files that disagree on them).
   */
  constructor(pairs: readonly LiveVenueConfig[], deps: AccountSessionDeps) {
    const first = pairs[0];
    if (first === undefined) throw new Error('an account session needs at least one pair');
    const connection = connectionOf(first, { clock: deps.clock, rng: deps.rng, logger: deps.logger, ...(deps.signer === undefined ? {} : { signer: deps.signer }), ...(deps.audit === undefined ? {} : { audit: deps.audit }) });
    this.#rest = connection.rest;
    this.#batchSigner = connection.batchSigner;
    const venues: LiveVenue[] = [];
    this.#stream = new SharedStream(
      (handlers) =>
        new MarketStream({
          url: first.wsUrl,
          signerKey: connection.signer.starkKey,
          chain: connection.chain,
          keys: connection.rest,
          clock: deps.clock,
          rng: deps.rng.fork('stream'),
          logger: connection.logger,
          handlers,
          // A fill that names no pair belongs to the pair whose order it is.
          pairOfOrder: (hash) => venues.find((venue) => venue.tracksOrder(hash))?.pair,
          ...(first.streamTiming === undefined ? {} : { timing: first.streamTiming }),
          anomalies: connection.anomalies.sink,
        }),
    );
    for (const pair of pairs) {
      const logger = connection.logger.child({ pair: `${pair.base}/${pair.quote}` });
      venues.push(
        new LiveVenue(liveVenueSettingsOf({ ...pair, wsUrl: first.wsUrl }, connection.chain, connection.account), {
          rest: connection.rest,
          signer: connection.signer,
          ...(connection.batchSigner === undefined ? {} : { batchSigner: connection.batchSigner }),
          clock: deps.clock,
          rng: deps.rng.fork(`venue ${pair.base}/${pair.quote}`),
          logger,
          anomalies: connection.anomalies,
          rateLimits: connection.rateLimits,
          ...(pair.fastCancel === true ? { fastSignSigner: connection.fastSignSigner } : {}),
          shared: { stream: (handlers) => this.#stream.channel(handlers) },
        }),
      );
    }
    this.venues = venues;
  }

  /** The venue of `BASE/QUOTE`. */
  venueOf(pair: string): LiveVenue {
    const venue = this.venues.find((candidate) => pairName(candidate.pair) === pair);
    if (venue === undefined) throw new Error(`account session: no venue for ${pair}`);
    return venue;
  }

  /** How many WebSocket connections this session opened (one, plus reconnects). */
  get streamStats(): MarketStream['stats'] {
    return this.#stream.stats;
  }

  /**
   * The account's recent orders on every pair (newest first, active and finished), for naming a
   * trade none of our pairs made. `/user/orders` lists the account's orders across pairs.
   * @param sinceMs only orders created at or after this (epoch ms), when the venue says when.
   */
  async fetchAccountOrders(sinceMs = 0): Promise<readonly AccountOrderRecord[]> {
    const records: AccountOrderRecord[] = [];
    for (const active of [true, false]) {
      let cursor: string | undefined;
      let offset = 0;
      for (let page = 0; page < HISTORY_PAGES; page++) {
        const result = await this.#rest.orders({ active, mode: 'reduced', limit: PAGE_SIZE, offset, ...(cursor === undefined ? {} : { cursor }) });
        for (const order of result.orders) {
          const createdMs = order.createdAtS === undefined ? undefined : order.createdAtS * 1000;
          if (order.hash !== undefined && (createdMs === undefined || createdMs >= sinceMs)) records.push(recordOf(order, order.hash));
        }
        if (result.orders.length + result.skipped < PAGE_SIZE) break;
        if (result.cursor !== undefined) cursor = result.cursor;
        else offset += PAGE_SIZE;
      }
    }
    return records;
  }

  /** Closes what the pairs share (after every pair's venue stopped). Idempotent. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    await Promise.all(this.venues.map((venue) => venue.stop()));
    await this.#stream.stop();
    await this.#batchSigner?.close();
    await this.#rest.close();
  }
}

function recordOf(order: VenueOrder, hash: bigint): AccountOrderRecord {
  return { orderId: orderIdOf(hash), pair: `${order.base.symbol}/${order.quote.symbol}`, filledQtyUnits: order.filledBase - order.failedBase };
}

function pairName(pair: Pair): string {
  return `${pair.base}/${pair.quote}`;
}

/** One WS connection with a channel per pair: subscriptions counted once, every event to every channel. */
class SharedStream {
  readonly #stream: MarketStream;
  readonly #channels = new Set<StreamHandlers>();
  readonly #subscriptions = new Map<string, Promise<void>>();
  #starting: Promise<void> | undefined;

  constructor(create: (handlers: StreamHandlers) => MarketStream) {
    const each = (deliver: (handlers: StreamHandlers) => void): void => {
      for (const handlers of this.#channels) deliver(handlers);
    };
    this.#stream = create({
      onEvent: (event) => each((handlers) => handlers.onEvent(event)),
      onStatus: (isUp) => each((handlers) => handlers.onStatus?.(isUp)),
      onReconnected: () => each((handlers) => handlers.onReconnected?.()),
      onUnreadableFill: () => each((handlers) => handlers.onUnreadableFill?.()),
    });
  }

  get stats(): MarketStream['stats'] {
    return this.#stream.stats;
  }

  channel(handlers: StreamHandlers): FeedStream {
    let joined = false;
    return {
      start: async () => {
        if (!joined) this.#channels.add(handlers);
        joined = true;
        this.#starting ??= this.#stream.start();
        await this.#starting;
      },
      stop: async () => {
        if (!joined) return;
        joined = false;
        this.#channels.delete(handlers);
        if (this.#channels.size === 0) await this.stop();
      },
      subscribe: (topic: Topic) => {
        const key = topicKey(topic);
        let subscribed = this.#subscriptions.get(key);
        if (subscribed === undefined) {
          subscribed = this.#stream.subscribe(topic);
          this.#subscriptions.set(key, subscribed);
          // A failed subscription may be tried again by the next pair that wants it.
          subscribed.catch(() => this.#subscriptions.delete(key));
        }
        return subscribed;
      },
      stats: this.#stream.stats,
    };
  }

  async stop(): Promise<void> {
    await this.#stream.stop();
  }
}

