import type { TickerRules } from '../../src/core/index.ts';
import { Account, NO_ACCOUNT_LIMITS, startEngines, type EngineOptions, type MarketMaker } from '../../src/engine/index.ts';

/** ETH/USDC rules like the SPEC example: 0.01 USDC tick, 0.0001 ETH step, 0.001 ETH minimum. */
export const ETH_USDC: TickerRules = {
  base: 'ETH',
  quote: 'USDC',
  isEcosystemBook: true,
  priceTick: 10_000n,
  qtyStep: 10n ** 14n,
  minQty: 10n ** 15n,
  baseDecimals: 18,
  quoteDecimals: 6,
};

/** Whole tokens → base units (for readable tests). */
export const eth = (amount: number): bigint => BigInt(Math.round(amount * 1e4)) * 10n ** 14n;
export const usdc = (amount: number): bigint => BigInt(Math.round(amount * 1e6));

/**
 * Starts one engine the one way engines start (`startEngines`): alone on an account of its own,
 * whose balances its venue reports.
 */
export async function startAlone(options: EngineOptions, rules: TickerRules = ETH_USDC): Promise<MarketMaker> {
  const account = new Account({
    clock: options.clock,
    logger: options.logger,
    venue: options.venue,
    pairs: [{ name: `${rules.base}/${rules.quote}`, base: rules.base, quote: rules.quote, budgetBaseUnits: undefined, budgetQuoteUnits: undefined }],
    outbound: options.settings.outbound,
    limits: () => NO_ACCOUNT_LIMITS,
    driftToleranceUnits: options.settings.driftToleranceUnits,
  });
  const [engine] = await startEngines(account, [{ ...options, pairName: `${rules.base}/${rules.quote}` }]);
  return engine as MarketMaker;
}
