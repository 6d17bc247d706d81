import { describe, expect, it } from 'vitest';
import { powerQueue } from '../../src/backtest/queue-model.ts';
import { ReplayExchange } from '../../src/backtest/replay-exchange.ts';
import { ETH_USDC } from '../engine/fixtures.ts';

describe('replay exchange with a probabilistic queue', () => {
  it('fills whole lots only when the queue ahead of us is fractional', () => {
    const fills: number[] = [];
    const exchange = new ReplayExchange(ETH_USDC, powerQueue(2), () => undefined, (_order, lots) => fills.push(lots));
    exchange.applyDepth('buy', 300_000, 10);
    exchange.applyDepth('sell', 300_100, 10);
    exchange.submit('ours', 'buy', 300_000, 5, true);
    // A cancel of 3 lots is split ahead/behind by probability: the front becomes fractional.
    exchange.applyDepth('buy', 300_000, 12);
    exchange.applyDepth('buy', 300_000, 9);
    const front = exchange.get('ours')?.front ?? 0;
    expect(Number.isInteger(front)).toBe(false);
    exchange.applyTrade('sell', 300_000, Math.ceil(front) + 2);
    expect(fills.every((lots) => Number.isInteger(lots))).toBe(true);
    expect(fills.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2);
    expect(fills.length).toBeGreaterThan(0);
  });
});
