import type { TickerRules } from '../../src/core/index.ts';

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
