/**
 * What the engine does when the key holder will not sign (custody, issue 16): a placement the
 * signing policy refuses halts quoting (the pair file and the policy disagree; asking again would
 * be one security event after another), while a signer that cannot be reached only backs the
 * side off until it is back.
 */
import { describe, expect, it } from 'vitest';
import type { PlaceOutcome, SignedOrder } from '../../src/core/index.ts';
import { quotingSession, setBook } from './session.ts';

function refusingPlacements(s: ReturnType<typeof quotingSession>, signerError: 'SIGNER_REFUSED' | 'SIGNER_UNAVAILABLE'): { attempts: () => number } {
  let attempts = 0;
  s.venue.submitOrder = (order: SignedOrder): Promise<PlaceOutcome> => {
    attempts++;
    return Promise.resolve({ kind: 'rejected', orderId: order.orderId, reason: `${signerError}: test`, signerError });
  };
  return { attempts: () => attempts };
}

describe('signer failures', () => {
  it('halts on a placement the signing policy refuses, naming it', async () => {
    const s = quotingSession();
    const refused = refusingPlacements(s, 'SIGNER_REFUSED');
    await s.start();
    await setBook(s, 100, 1999, 2001);
    await setBook(s, 2_000, 1999, 2001);
    const status = s.engine.status();
    expect(status.state).toBe('halted');
    expect(status.haltReason).toMatchObject({ code: 'SIGNER_REFUSED', message: expect.stringContaining('signing policy refused') });
    const afterHalt = refused.attempts();
    await setBook(s, 10_000, 1998, 2002);
    expect(refused.attempts()).toBe(afterHalt);
  });

  it('keeps quoting, backing off, while the signer is unavailable', async () => {
    const s = quotingSession();
    const unavailable = refusingPlacements(s, 'SIGNER_UNAVAILABLE');
    await s.start();
    for (let t = 100; t <= 10_000; t += 100) await setBook(s, t, 1999, 2001);
    expect(s.engine.status().state).toBe('quoting');
    // 1 s, 2 s, 4 s … between attempts per side: a handful in 10 s, not one per book change.
    expect(unavailable.attempts()).toBeGreaterThanOrEqual(2);
    expect(unavailable.attempts()).toBeLessThanOrEqual(10);
  });
});
