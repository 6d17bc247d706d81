/**
 * A Binance hedge venue client against `akira-mm feed` with trading accounts, both on manual
 * clocks (the client's may run behind or ahead of the server's): the shared ETHUSDT recording's
 * book is what orders match against.
 */
import { generateKeyPairSync } from 'node:crypto';
import { ManualClock, Secret, createRng, createSilentLogger, type HedgeOrderState, type HedgeVenueListener } from '../../../src/core/index.ts';
import { BinanceHedgeVenue, type BinanceHedgeVenueOptions } from '../../../src/markets/binance/trading/hedge-venue.ts';
import { parseAccounts, startFeedServer, type AccountSpec, type FeedServer, type FeedServerOptions } from '../../../src/markets/binance/server/index.ts';
import { START_MS, recordingFiles } from './support.ts';

export const HMAC_KEY = 'hmacKey0001';
export const HMAC_SECRET = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';
export const ED_KEY = 'edKey0001';

/** A fresh Ed25519 key pair as PEM text. */
export function ed25519Pair(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

/** An HMAC and an Ed25519 account with 10 ETH and 30 000 USDT each. */
export function testAccounts(publicPem: string, balances: Record<string, string> = { ETH: '10', USDT: '30000' }): AccountSpec[] {
  return parseAccounts({
    accounts: [
      { apiKey: HMAC_KEY, secretKey: HMAC_SECRET, balances, takerCommission: '0.001' },
      { apiKey: ED_KEY, ed25519PublicKey: publicPem, balances, takerCommission: '0.001' },
    ],
  });
}

/** Everything the venue's listener heard. */
export class VenueHeard implements HedgeVenueListener {
  readonly orders: HedgeOrderState[] = [];
  readonly stream: { isUp: boolean; reason: string }[] = [];
  onOrder(order: HedgeOrderState): void {
    this.orders.push(order);
  }
  onStreamStatus(isUp: boolean, reason: string): void {
    this.stream.push({ isUp, reason });
  }
}

/** A server with trading accounts and one started client. */
export interface TradingPair {
  readonly serverClock: ManualClock;
  readonly clientClock: ManualClock;
  readonly server: FeedServer;
  readonly venue: BinanceHedgeVenue;
  readonly heard: VenueHeard;
  stop(): Promise<void>;
}

/** Starts the server on the ETHUSDT recording and a client of `key` (`hmac` or `ed25519`). */
export async function startTradingPair(
  options: {
    readonly key?: 'hmac' | 'ed25519';
    readonly clientBehindMs?: number;
    readonly server?: Partial<FeedServerOptions>;
    readonly client?: Partial<BinanceHedgeVenueOptions>;
    readonly balances?: Record<string, string>;
  } = {},
): Promise<TradingPair> {
  const pair = ed25519Pair();
  const serverClock = new ManualClock(START_MS);
  const clientClock = new ManualClock(START_MS - (options.clientBehindMs ?? 0));
  const server = await startFeedServer({ files: recordingFiles('ethusdt'), clock: serverClock, accounts: testAccounts(pair.publicPem, options.balances), ...options.server });
  const key = options.key ?? 'hmac';
  const venue = new BinanceHedgeVenue({
    symbol: 'ETHUSDT',
    restUrl: server.httpUrl,
    wsApiUrl: server.trading?.wsApiUrl ?? '',
    credentials: key === 'hmac' ? { apiKey: new Secret(HMAC_KEY), secretKey: new Secret(HMAC_SECRET) } : { apiKey: new Secret(ED_KEY), privateKeyPem: new Secret(pair.privatePem) },
    clock: clientClock,
    rng: createRng(3),
    logger: createSilentLogger(),
    ...options.client,
  });
  const heard = new VenueHeard();
  await venue.start(heard);
  return {
    serverClock,
    clientClock,
    server,
    venue,
    heard,
    stop: async () => {
      await venue.stop();
      await server.stop();
    },
  };
}
