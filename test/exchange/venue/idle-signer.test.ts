import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/index.ts';
import { IdleOrderSigner, IdleSignerClosedError } from '../../../src/exchange/venue/idle-signer.ts';
import type { VenueSigner } from '../../../src/exchange/venue/index.ts';
import type { OrderRequest } from '../../../src/exchange/wire/requests.ts';

describe('pre-signing on the event loop', () => {
  it('signs one order per turn and stops a batch at its next order once closed, with an error the venue knows as expected', async () => {
    const clock = new ManualClock();
    let signedCount = 0;
    const signer = { signOrder: (order: OrderRequest) => ({ hash: BigInt(++signedCount), request: order }) } as unknown as VenueSigner;
    const idle = new IdleOrderSigner(signer, clock);
    const orders = [{}, {}, {}] as unknown as OrderRequest[];
    const batch = idle.signOrders(orders);
    const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
    await settle();
    clock.advance(0);
    await settle();
    expect(signedCount).toBe(1);
    idle.close();
    await clock.advanceAsync(0);
    await expect(batch).rejects.toBeInstanceOf(IdleSignerClosedError);
    expect(signedCount).toBe(1);
  });
});
