import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRng, ManualClock } from '../../../src/core/index.ts';
import { backoffDelayMs, ExchangeError, postResolved, rateLimitDelayMs, suggestedSleepMs, venueErrorNameOf } from '../../../src/exchange/client/index.ts';

describe('backoff', () => {
  it('keeps every delay between half and all of the doubling cap', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }), fc.integer(), (attempt, seed) => {
        const delay = backoffDelayMs(attempt, { baseMs: 100, maxMs: 5_000 }, createRng(seed));
        const cap = Math.min(5_000, 100 * 2 ** attempt);
        return delay >= cap / 2 - 1 && delay <= cap;
      }),
    );
  });

  it('reads the suggested sleep of a 429 from its text or a Retry-After header', () => {
    expect(suggestedSleepMs('Rate limit exceeded. Suggested sleep time: 1000ms', undefined)).toBe(1000);
    expect(suggestedSleepMs('suggested sleep: 2 s', undefined)).toBe(2000);
    expect(suggestedSleepMs('slow down', '3')).toBe(3000);
    expect(suggestedSleepMs('slow down', undefined)).toBeUndefined();
  });

  it('adds at most 20 % jitter to a suggested sleep', () => {
    const rng = createRng(5);
    for (let i = 0; i < 100; i++) {
      const delay = rateLimitDelayMs(1000, 0, { baseMs: 100, maxMs: 1000 }, rng);
      expect(delay).toBeGreaterThanOrEqual(1000);
      expect(delay).toBeLessThanOrEqual(1200);
    }
  });

  it('finds the §4 error name inside a longer venue text', () => {
    expect(venueErrorNameOf('WRONG_NONCE')).toBe('WRONG_NONCE');
    expect(venueErrorNameOf('Exchange cant process order: NOT_ENOUGH_BALANCE for 0x1')).toBe('NOT_ENOUGH_BALANCE');
    expect(venueErrorNameOf('Order 0x1 not found')).toBeUndefined();
  });
});

describe('POSTs with an unknown outcome', () => {
  const unknown = new ExchangeError('EXCHANGE_SERVER_ERROR', '500', { endpoint: 'POST /place_order', status: 500 });
  const rejected = new ExchangeError('EXCHANGE_REJECTED', '422', { endpoint: 'POST /place_order', status: 422, venueError: 'WRONG_NONCE' });

  async function run<T>(clock: ManualClock, pending: Promise<T>): Promise<T> {
    let done = false;
    void pending.finally(() => (done = true));
    while (!done) await clock.advanceAsync(100);
    return pending;
  }

  it('are accepted when the hash is found afterwards, without sending again', async () => {
    const clock = new ManualClock();
    let sends = 0;
    let looks = 0;
    const outcome = await run(
      clock,
      postResolved(
        async () => {
          sends++;
          throw unknown;
        },
        async () => ++looks === 2,
        { clock, rng: createRng(1) },
      ),
    );
    expect(outcome).toEqual({ kind: 'accepted', value: undefined });
    expect(sends).toBe(1);
    expect(looks).toBe(2);
  });

  it('stay unknown when the venue never shows the hash', async () => {
    const clock = new ManualClock();
    const outcome = await run(clock, postResolved(() => Promise.reject(unknown), async () => false, { clock, rng: createRng(1), lookups: 3 }));
    expect(outcome).toEqual({ kind: 'unknown', error: unknown });
  });

  it('are rejected without a lookup when the venue said no', async () => {
    const clock = new ManualClock();
    let looks = 0;
    const outcome = await postResolved(() => Promise.reject(rejected), async () => (++looks, true), { clock, rng: createRng(1) });
    expect(outcome).toEqual({ kind: 'rejected', error: rejected });
    expect(looks).toBe(0);
  });

  it('treat a connection that was refused as not sent', async () => {
    const clock = new ManualClock();
    const refused = new ExchangeError('EXCHANGE_NETWORK', 'ECONNREFUSED', { endpoint: 'POST /place_order', mayHaveReachedVenue: false });
    const outcome = await postResolved(() => Promise.reject(refused), async () => true, { clock, rng: createRng(1) });
    expect(outcome.kind).toBe('rejected');
  });
});
