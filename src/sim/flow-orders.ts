/**
 * How the venue's own flow agents (the synthetic ladder and Poisson takers, the reference-driven
 * takers and background maker) put an order into the engine: an ordinary order request at the
 * venue's fees, unsigned (they are the venue's own) but matched, charged and settled like anyone's.
 */
import type { ChainInfo, Clock, Side } from '../core/index.ts';
import { shortStringToFelt } from '../exchange/wire/fields.ts';
import type { FixedFee, OrderRequest } from '../exchange/wire/requests.ts';
import type { Engine } from './engine.ts';
import type { Market } from './markets.ts';
import type { SimSettings } from './settings.ts';
import { tradeSteps } from './validate.ts';

/** What an agent needs to place orders. */
export interface FlowOrderDeps {
  readonly chain: ChainInfo;
  readonly settings: SimSettings;
  readonly clock: Clock;
  readonly engine: Engine;
  gasPriceFri(): bigint;
}

/** Places the agents' orders with hashes of their own (`label` keeps two agents' hashes apart). */
export class FlowOrders {
  private nextHash = 1n;
  private readonly hashBase: bigint;

  constructor(
    private readonly deps: FlowOrderDeps,
    label: string,
  ) {
    this.hashBase = shortStringToFelt(label) << 64n;
  }

  /** A fresh request hash (also what the agents' cancel-alls are keyed by). */
  hash(): bigint {
    return this.hashBase + this.nextHash++;
  }

  /** Cancels every order of `account` on the market's book. */
  cancelAll(account: bigint, market: Market): void {
    this.deps.engine.acceptCancelAll({ maker: account, salt: this.nextHash, base: market.base, quote: market.quote, toEcosystemBook: market.isEcosystemBook, signScheme: 'ecdsa curve' }, this.hash(), { isInternal: true });
  }

  /** Cancels one order of `account`'s (one still on the book). */
  cancel(account: bigint, orderHash: bigint): void {
    this.deps.engine.acceptCancel({ maker: account, orderHash, salt: this.nextHash, signScheme: 'ecdsa curve' }, this.hash());
  }

  /**
   * Places an order of `baseQty` at `units` (a market order's protection price, a limit order's
   * limit; `postOnly`: refused rather than trade); its hash, or undefined when the engine refused
   * it (the agents' huge balances make that unlikely).
   */
  place(account: bigint, market: Market, side: Side, units: bigint, baseQty: bigint, isMarketOrder: boolean, postOnly = false): bigint | undefined {
    const { settings, chain, clock } = this.deps;
    const tradeFee: FixedFee = { recipient: BigInt(chain.feeRecipient), makerPbips: settings.makerPbips, takerPbips: settings.takerPbips };
    const zeroFee: FixedFee = { recipient: 0n, makerPbips: 0, takerPbips: 0 };
    const strk = chain.tokens.get(chain.nativeGasToken);
    if (strk === undefined || units <= 0n || baseQty <= 0n) return undefined;
    const salt = this.nextHash;
    const request: OrderRequest = {
      maker: account,
      price: units,
      baseQty,
      quoteQty: 0n,
      base: market.base,
      quote: market.quote,
      fee: {
        tradeFee,
        routerFee: zeroFee,
        integratorFee: zeroFee,
        applyToReceiptAmount: true,
        gasFee: {
          gasPerAction: tradeSteps(settings, market),
          feeToken: strk,
          maxGasPrice: this.deps.gasPriceFri() * 4n,
          conversionRate: [10n ** 18n, 10n ** 18n],
        },
      },
      constraints: {
        numberOfSwapsAllowed: 10,
        durationValid: 3_600,
        createdAt: Math.floor(clock.nowMs() / 1000),
        stp: 0,
        nonce: 0,
        minReceiveAmount: 0n,
        routerSigner: 0n,
      },
      salt,
      flags: {
        fullFillOnly: false,
        bestLevelOnly: false,
        postOnly,
        isSellSide: side === 'sell',
        isMarketOrder,
        toEcosystemBook: market.isEcosystemBook,
        externalFunds: false,
      },
      source: 'akira-sim',
      signScheme: 'ecdsa curve',
    };
    const hash = this.hash();
    try {
      this.deps.engine.acceptOrder(request, hash, market);
      return hash;
    } catch {
      // A flow order the engine refuses is simply skipped.
      return undefined;
    }
  }
}
