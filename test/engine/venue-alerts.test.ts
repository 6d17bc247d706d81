import { describe, expect, it } from 'vitest';
import { ManualClock, createSilentLogger, type Side, type VenueAlert } from '../../src/core/index.ts';
import { VENUE_FAILING_ORDERS, VenueAlertHandler } from '../../src/engine/safety/venue-alerts.ts';

function handler(pulling = false) {
  const clock = new ManualClock(0);
  const log: string[] = [];
  const alerts = new VenueAlertHandler(clock, createSilentLogger(), {
    heal: () => log.push('heal'),
    sideOf: (orderId) => (orderId === 'bid-1' ? ('buy' as Side) : undefined),
    backOff: (side, reason) => log.push(`back-off ${side} ${reason}`),
    isPullingQuotes: () => pulling,
    cancelEverything: (reason) => log.push(`cancel-all: ${reason}`),
    pauseFor: (reason, forMs) => log.push(`pause ${reason} ${forMs}`),
    escalate: (message) => log.push(`escalate: ${message}`),
  });
  return { clock, log, alerts };
}

const failed = (action: VenueAlert['action'], orderId?: string): VenueAlert => ({ kind: 'request-failed', action, requestHash: '0xabc', orderId, reason: 'NOT_ENOUGH_BALANCE', timeMs: 0 });

describe('answering the venue when an accepted request failed', () => {
  it('backs the side of a failed placement off and heals; five in a minute pause quoting for 30 s', () => {
    const { clock, log, alerts } = handler();
    alerts.onAlert(failed('place', 'bid-1'));
    expect(log).toEqual(['back-off buy NOT_ENOUGH_BALANCE', 'heal']);
    for (let i = 0; i < 4; i++) {
      clock.advanceTo(clock.nowMs() + 5_000);
      alerts.onAlert(failed('place'));
    }
    expect(log.at(-1)).toBe(`pause ${VENUE_FAILING_ORDERS} 30000`);
  });

  it('heals after a failed cancel (the heal re-sends a cancel that did not take)', () => {
    const { log, alerts } = handler();
    alerts.onAlert(failed('cancel', 'bid-1'));
    expect(log).toEqual(['heal']);
  });

  it('sends a failed or unconfirmed cancel-all again while it is pulling its quotes, and only heals otherwise', () => {
    const pulling = handler(true);
    pulling.alerts.onAlert({ kind: 'action-unconfirmed', action: 'cancel-all', requestHash: '0x1', reason: 'orders still listed after 5000 ms', timeMs: 0 });
    expect(pulling.log).toEqual(['heal', 'cancel-all: cancel-all not confirmed']);
    const quoting = handler(false);
    quoting.alerts.onAlert(failed('cancel-all'));
    expect(quoting.log).toEqual(['heal']);
  });

  it('escalates a failed or unconfirmed on-chain kill to the halt reason', () => {
    const { log, alerts } = handler(true);
    alerts.onAlert({ kind: 'action-unconfirmed', action: 'increase-nonce', requestHash: '0x9', reason: 'nonce still 4 after 60000 ms', timeMs: 0 });
    expect(log).toEqual(['escalate: on-chain kill (nonce increase 0x9) not confirmed: nonce still 4 after 60000 ms; orders signed before it may still be valid']);
  });
});
