/**
 * `npm start -- --hedge`: the whole cross-venue loop on loopback with no configuration. A recorded
 * Binance market (the shared ETHUSDT recording by default) is served by the `feed` server with a
 * trading account of fresh random keys, so it is the hedge venue and its book; the embedded
 * exchange's flow follows its mid; the bot quotes `xemm` on the embedded exchange and hedges each
 * fill there.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChainInfo, Clock, Logger, Rng } from '../core/index.ts';
import { parseAccounts, startFeedServer, type FeedServer, type TradingSide } from '../markets/binance/server/index.ts';
import { startFlowFollower, type FlowFollower } from './flow-follow.ts';
import { UsageError } from './io.ts';

/** The recording served when `--hedge` (or `flag`: `--reference`) names none: the shared ETHUSDT files beside the clone. */
export function defaultHedgeRecording(flag = '--hedge'): string[] {
  const folder = sharedRecordingsFolder(fileURLToPath(new URL('.', import.meta.url)));
  if (folder === undefined) throw new UsageError(`${flag}: no recording given and ../shared/data/binance-spot-hftbacktest is not beside the clone; name one: ${flag}-data FILE`);
  return ['ethusdt_20240808.gz', 'ethusdt_20240809.gz'].map((file) => resolve(folder, file));
}

/**
 * `shared/data/binance-spot-hftbacktest` in the nearest folder above `start` that has one: beside
 * the clone whether this module runs from `src/cli/` or from the compiled copy `bin/akira-mm.js`
 * keeps under `node_modules/.cache/`.
 */
function sharedRecordingsFolder(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const candidate = resolve(dir, 'shared/data/binance-spot-hftbacktest');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The paper pair's strategy keys when no pair file is given: xemm, one 0.05 ETH level a side,
 * at a VIP-tier hedge fee so its quotes sit inside the embedded exchange's synthetic ladder
 * (10 bps from its mid) and the flow fills them.
 */
export const PAPER_HEDGE_STRATEGY: Readonly<Record<string, string>> = {
  STRATEGY: 'xemm',
  XEMM_ORDER_SIZE: '0.05',
  XEMM_LEVELS: '1',
  HEDGE_FEE_BPS: '4',
  HEDGE_MIN_PROFIT_BPS: '1',
};

/** A served hedge market the sim follows and the bot hedges on. */
export interface PaperHedge {
  readonly follower: FlowFollower;
  /** Pair-file keys that point the bot's hedger at it. */
  readonly env: Readonly<Record<string, string>>;
  /** The hedge venue's trading side (its desk and faults). */
  readonly trading: TradingSide;
  stop(): Promise<void>;
}

/** What starting it needs. */
export interface PaperHedgeDeps {
  readonly clock: Clock;
  readonly rng: Rng;
  readonly logger: Logger;
  readonly chain: ChainInfo;
  readonly cwd: string;
}

/**
 * Serves `files` (looping) as a hedge venue with one account of fresh random keys and plenty of
 * both assets, and follows its mid.
 * @throws UsageError for an unusable recording.
 */
export async function startPaperHedge(files: readonly string[], deps: PaperHedgeDeps): Promise<PaperHedge> {
  const key = (length: number): string => Array.from({ length }, () => 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'[Math.floor(deps.rng.next() * 56)]).join('');
  const apiKey = key(32);
  const secretKey = key(48);
  let server: FeedServer;
  try {
    server = await startFeedServer({
      files: files.map((file) => resolve(deps.cwd, file)),
      loop: true,
      clock: deps.clock,
      logger: deps.logger,
      accounts: parseAccounts({ accounts: [{ apiKey, secretKey, balances: { ETH: '100', BTC: '5', USDT: '500000' }, takerCommission: '0.0004' }] }),
    });
  } catch (error) {
    throw new UsageError(`--hedge ${files.join(' ')}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const follower = await startFlowFollower(server.wsUrl, server.symbol, deps);
    const trading = server.trading;
    if (trading === undefined) throw new Error('the feed server serves no trading endpoints');
    return {
      follower,
      trading,
      env: {
        HEDGE: `binance:${server.symbol}`,
        HEDGE_REST_URL: server.httpUrl,
        HEDGE_WS_URL: server.trading?.wsApiUrl ?? '',
        HEDGE_STREAM_URL: server.wsUrl,
        HEDGE_API_KEY: apiKey,
        HEDGE_API_SECRET: secretKey,
      },
      stop: async () => {
        await follower.stop();
        await server.stop();
      },
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
