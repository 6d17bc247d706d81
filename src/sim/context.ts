/** Everything the endpoint handlers share: one object built by the server, read by the routes. */
import type { ChainInfo, Clock } from '../core/index.ts';
import type { SimAccount } from './accounts.ts';
import type { AuthService } from './auth.ts';
import type { Engine } from './engine.ts';
import type { Ledger } from './ledger.ts';
import type { MarketData } from './market-data.ts';
import type { PriceModel } from './prices.ts';
import type { Sequencer } from './sequencer.ts';
import type { SimSettings } from './settings.ts';
import type { SignatureChecker } from './signatures/jobs.ts';
import type { FastSignKeys } from './fast-sign-keys.ts';
import type { RateLimiter } from './rate-limit.ts';

export interface VenueContext {
  readonly chain: ChainInfo;
  readonly settings: SimSettings;
  readonly clock: Clock;
  readonly engine: Engine;
  readonly ledger: Ledger;
  readonly marketData: MarketData;
  readonly auth: AuthService;
  readonly prices: PriceModel;
  readonly accounts: Map<bigint, SimAccount>;
  readonly checker: SignatureChecker;
  readonly sequencer: Sequencer;
  /** The router's signer key (answers `/router/sign_external_order`). Never logged. */
  readonly routerPrivateKey: bigint;
  readonly routerSigner: bigint;
  readonly fastSign: FastSignKeys;
  readonly rateLimiter: RateLimiter;
}
