import { describe, expect, it } from 'vitest';
import type { GasQuote, VenueInfo } from '../../src/core/index.ts';
import { Costs } from '../../src/engine/costs.ts';
import { ETH_USDC } from './fixtures.ts';

const info: VenueInfo = { rules: ETH_USDC, makerFeePbips: 100, takerFeePbips: 200, steps: { trade: 150, cancel: 0, nonce: 100, withdraw: 150 } };

/** A venue whose own gas quote is a new object on every call (as the replay venue's is). */
function venueQuoting(current: () => { gasPriceUnits: bigint; quotePerStrk: number | undefined }): { gasQuote(): GasQuote; calls: number } {
  const venue = {
    calls: 0,
    gasQuote(): GasQuote {
      venue.calls++;
      return { ...current(), timeMs: venue.calls };
    },
  };
  return venue;
}

describe('Costs.edgeContext', () => {
  it('is the same object while the gas figures stay the same, even when the venue never announced gas (the quote memo compares it by identity)', () => {
    let gas = { gasPriceUnits: 5n * 10n ** 13n, quotePerStrk: 0.15 as number | undefined };
    const venue = venueQuoting(() => gas);
    const costs = new Costs(info, venue, 0);
    const first = costs.edgeContext();
    expect(costs.edgeContext()).toBe(first);
    expect(venue.calls).toBe(2);
    gas = { gasPriceUnits: 6n * 10n ** 13n, quotePerStrk: 0.15 };
    const moved = costs.edgeContext();
    expect(moved).not.toBe(first);
    expect(moved.gas?.gasPriceUnits).toBe(6n * 10n ** 13n);
    gas = { gasPriceUnits: 6n * 10n ** 13n, quotePerStrk: 0.2 };
    expect(costs.edgeContext()).not.toBe(moved);
    expect(costs.edgeContext().gas?.quotePerStrk).toBe(0.2);
  });

  it('prefers an announced gas quote to the venue’s own, and follows a new one', () => {
    const venue = venueQuoting(() => ({ gasPriceUnits: 1n, quotePerStrk: 1 }));
    const costs = new Costs(info, venue, 0);
    costs.onGasQuote({ gasPriceUnits: 7n, quotePerStrk: 0.5, timeMs: 1 });
    const announced = costs.edgeContext();
    expect(announced.gas?.gasPriceUnits).toBe(7n);
    expect(costs.edgeContext()).toBe(announced);
    expect(venue.calls).toBe(0);
    costs.onGasQuote({ gasPriceUnits: 8n, quotePerStrk: 0.5, timeMs: 2 });
    expect(costs.edgeContext().gas?.gasPriceUnits).toBe(8n);
  });
});
