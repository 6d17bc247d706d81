/**
 * A shutdown's confirmation against a placement still on its way: the venue not knowing an order
 * yet is not the order's end. Marking it cancelled let a shutdown confirm while the placement,
 * arriving a moment later, came to rest on the venue (a paper run stopped with 2 orders left).
 */
import { describe, expect, it } from 'vitest';
import { ManualClock, createSilentLogger, type OrderReport, type Venue } from '../../src/core/index.ts';
import { OrderTable } from '../../src/engine/index.ts';
import { confirmNothingRests } from '../../src/engine/orders/confirm.ts';

const ORDER = '0xabc';

function report(status: OrderReport['status']): OrderReport {
  return { orderId: ORDER, status, side: 'buy', priceUnits: 100n, qtyUnits: 5n, filledQtyUnits: 0n, filledQuoteUnits: 0n, lastFillPriceUnits: undefined, lastFillIsMaker: undefined, matcherResult: undefined, timeMs: 0 };
}

/** Our placement, sent before the cancel-all: the venue has it only from its `arrivesAtLook`-th listing on, and then it rests until a cancel-all. */
function latePlacement(arrivesAtLook: number) {
  let looks = 0;
  let where: 'on its way' | 'resting' | 'cancelled' = 'on its way';
  const venue = {
    fetchOpenOrders: async (): Promise<OrderReport[]> => {
      looks++;
      if (where === 'on its way' && looks >= arrivesAtLook) where = 'resting';
      return where === 'resting' ? [report('ACC')] : [];
    },
    fetchOrder: async (): Promise<OrderReport | undefined> => (where === 'on its way' ? undefined : report(where === 'resting' ? 'ACC' : 'CANCELLED')),
  } as Pick<Venue, 'fetchOpenOrders' | 'fetchOrder'> as Venue;
  return {
    venue,
    where: () => where,
    isInFlight: () => where === 'on its way',
    cancelAll: async (): Promise<void> => {
      if (where === 'resting') where = 'cancelled';
    },
  };
}

async function confirm(placement: ReturnType<typeof latePlacement>, watchInFlight: boolean): Promise<{ confirmed: boolean; table: OrderTable }> {
  const clock = new ManualClock(0);
  const table = new OrderTable();
  table.addPending(ORDER, 'buy', 100n, 5n, 0);
  const done = confirmNothingRests({
    venue: placement.venue,
    clock,
    logger: createSilentLogger(),
    table,
    timeoutMs: 10_000,
    applyReport: (r) => {
      if (r.status === 'CANCELLED') table.markDone(r.orderId, 'CANCELLED');
      else if (r.status === 'ACC') table.markOpen(r.orderId);
    },
    resendCancelAll: placement.cancelAll,
    ...(watchInFlight ? { isInFlight: placement.isInFlight } : {}),
  });
  let confirmed: boolean | undefined;
  void done.then((value) => (confirmed = value));
  for (let i = 0; i < 200 && confirmed === undefined; i++) await clock.advanceAsync(50);
  return { confirmed: confirmed ?? false, table };
}

describe('confirming nothing rests while a placement is on its way', () => {
  it('waits for the placement to arrive, then cancels it, before it confirms', async () => {
    const placement = latePlacement(3);
    const { confirmed } = await confirm(placement, true);
    expect(confirmed).toBe(true);
    expect(placement.where()).toBe('cancelled');
  });

  it('without knowing what is in flight, confirms at once and leaves the placement to rest (the race it closes)', async () => {
    const placement = latePlacement(3);
    const { confirmed } = await confirm(placement, false);
    expect(confirmed).toBe(true);
    expect(placement.where()).toBe('on its way');
  });
});
