import { describe, expect, it } from 'vitest';
import { OrderFlowImbalance, orderFlowContribution } from '../../../strategies/index.ts';

const top = (bidPrice: number, bidSize: number, askPrice: number, askSize: number) => ({ bidPrice, bidSize, askPrice, askSize });

describe('Cont–Kukanov–Stoikov order-flow contribution', () => {
  it('counts size added at the same bid as buying pressure and size added at the same ask as selling', () => {
    expect(orderFlowContribution(top(100, 2, 101, 3), top(100, 5, 101, 3))).toBe(3);
    expect(orderFlowContribution(top(100, 2, 101, 3), top(100, 2, 101, 7))).toBe(-4);
  });

  it('counts a bid that moves up at its whole new size, a bid that drops at its whole old size', () => {
    expect(orderFlowContribution(top(100, 2, 101, 3), top(100.5, 4, 101, 3))).toBe(4);
    expect(orderFlowContribution(top(100, 2, 101, 3), top(99.5, 6, 101, 3))).toBe(-2);
  });

  it('counts an ask lifted away (price up) as its old size of buying pressure, a lower ask as its new size of selling', () => {
    expect(orderFlowContribution(top(100, 2, 101, 3), top(100, 2, 101.5, 9))).toBe(3);
    expect(orderFlowContribution(top(100, 2, 101, 3), top(100, 2, 100.5, 1))).toBe(-1);
  });
});

describe('order-flow imbalance over a window', () => {
  it('sums the contributions inside the window and divides by the mean touch depth', () => {
    const ofi = new OrderFlowImbalance(1_000);
    ofi.onTop(0, top(100, 2, 101, 2));
    ofi.onTop(100, top(100, 4, 101, 2)); // +2, depth 3
    ofi.onTop(200, top(100, 4, 101, 1)); // +1 (ask shrank at the same price), depth 2.5
    expect(ofi.sum(200)).toBe(3);
    expect(ofi.value(200)).toBeCloseTo(3 / 2.75, 12);
  });

  it('forgets updates older than the window and reads 0 once all have left', () => {
    const ofi = new OrderFlowImbalance(1_000);
    ofi.onTop(0, top(100, 2, 101, 2));
    ofi.onTop(100, top(100, 4, 101, 2)); // +2
    ofi.onTop(900, top(100, 4, 101, 4)); // −2
    expect(ofi.sum(1_050)).toBe(0);
    expect(ofi.sum(1_150)).toBe(-2);
    expect(ofi.value(2_000)).toBe(0);
  });

  it('restarts its chain after a crossed or one-sided top instead of comparing across it', () => {
    const ofi = new OrderFlowImbalance(1_000);
    ofi.onTop(0, top(100, 2, 101, 2));
    ofi.onTop(10, top(101, 2, 101, 2));
    ofi.onTop(20, top(100, 50, 101, 2));
    expect(ofi.sum(20)).toBe(0);
  });

  it('refuses a window that is not a positive number of ms', () => {
    expect(() => new OrderFlowImbalance(0)).toThrow(/windowMs must be a positive number of ms, got 0/);
  });
});
