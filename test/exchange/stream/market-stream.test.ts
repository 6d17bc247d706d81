import { afterEach, describe, expect, it } from 'vitest';
import { createRng, createSilentLogger, ManualClock, Secret } from '../../../src/core/index.ts';
import { ExchangeError } from '../../../src/exchange/client/index.ts';
import { MarketStream, type StreamEvent, type StreamTiming } from '../../../src/exchange/stream/index.ts';
import { LoopbackVenue } from '../support/loopback-venue.ts';
import { CHAIN, eventually } from '../support/helpers.ts';
import { FAKE_STARK_KEY } from '../support/fake-signer.ts';

const ETH_USDC = { base: 'ETH', quote: 'USDC' };
const bboTopic = { kind: 'bbo' as const, pair: ETH_USDC, ecosystem: true };
const bboFrame = { stream: 'bbo', pair: ETH_USDC, ecosystem: true, result: { bid: ['3000', '1', 1], ask: ['3001', '2', 1] } };

let venue: LoopbackVenue | undefined;
let stream: MarketStream | undefined;

afterEach(async () => {
  await stream?.stop();
  await venue?.stop();
  stream = undefined;
  venue = undefined;
});

async function setup(options: { autoPong?: boolean; timing?: StreamTiming } = {}) {
  venue = await new LoopbackVenue(options).start();
  const clock = new ManualClock(1_000_000);
  const events: StreamEvent[] = [];
  const status: boolean[] = [];
  let reconnected = 0;
  const loopback = venue;
  stream = new MarketStream({
    url: loopback.wsUrl,
    signerKey: FAKE_STARK_KEY,
    chain: CHAIN,
    keys: {
      listenKey: async () => {
        loopback.listenKeyCalls++;
        const key = `lk-${loopback.listenKeyCalls}`;
        loopback.listenKeys.add(key);
        return new Secret(key);
      },
    },
    clock,
    rng: createRng(3),
    logger: createSilentLogger(),
    handlers: {
      onEvent: (event) => events.push(event),
      onStatus: (isUp) => status.push(isUp),
      onReconnected: () => reconnected++,
    },
    ...(options.timing === undefined ? {} : { timing: options.timing }),
  });
  await stream.start();
  return { venue: loopback, stream, clock, events, status, reconnected: () => reconnected };
}

describe('WS stream against a loopback venue', () => {
  it('connects with the listen key and signer, and gets subscriptions acknowledged', async () => {
    const { venue, stream, status } = await setup();
    await stream.subscribe(bboTopic);
    await stream.subscribe({ kind: 'fills', account: 0xacc0n });
    expect(venue.subscriptions().sort()).toEqual(['bbo:ETH-USDC:eco', 'fills_0x000000000000000000000000000000000000000000000000000000000000acc0']);
    expect(status).toEqual([true]);
    await stream.unsubscribe(bboTopic);
    expect(venue.subscriptions()).toEqual(['fills_0x000000000000000000000000000000000000000000000000000000000000acc0']);
  });

  it('rejects a subscription the venue refuses', async () => {
    const { venue, stream } = await setup();
    venue.refuseStreams.add('trade');
    const error = await stream.subscribe({ kind: 'trade', pair: ETH_USDC, ecosystem: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeError);
    expect((error as ExchangeError).code).toBe('WS_SUBSCRIBE_FAILED');
    expect((error as ExchangeError).message).toContain('not allowed');
  });

  it('fails a subscription that is never acknowledged', async () => {
    const { venue, stream, clock } = await setup();
    venue.silentAcks = true;
    const pending = stream.subscribe(bboTopic).catch((e: unknown) => e);
    clock.advance(9_999);
    expect(await Promise.race([pending, Promise.resolve('still waiting')])).toBe('still waiting');
    clock.advance(1);
    expect(((await pending) as ExchangeError).code).toBe('WS_SUBSCRIBE_FAILED');
  });

  it('delivers typed events, skipping a malformed frame without dropping the connection', async () => {
    const { venue, stream, events } = await setup();
    await stream.subscribe(bboTopic);
    venue.push('bbo:ETH-USDC:eco', '{not json');
    venue.push('bbo:ETH-USDC:eco', { stream: 'bbo', pair: ETH_USDC, result: { bid: ['-1', '1', 1], ask: [] } });
    venue.push('bbo:ETH-USDC:eco', bboFrame);
    await eventually(() => events.length === 1);
    expect(events[0]).toMatchObject({ type: 'bbo', bid: { price: 3000_000000n }, ask: { price: 3001_000000n } });
    expect(stream.stats.malformedFrames).toBe(2);
    expect(stream.isUp()).toBe(true);
  });

  it('reconnects after the venue drops the socket, with a new listen key, and resubscribes', async () => {
    const { venue, stream, clock, events, status, reconnected } = await setup();
    await stream.subscribe(bboTopic);
    await stream.subscribe({ kind: 'fills', account: 0xacc0n });
    venue.dropSockets();
    await eventually(() => status.length === 2);
    expect(status).toEqual([true, false]);
    await eventually(() => reconnected() === 1, { clock, stepMs: 250 });
    expect(status).toEqual([true, false, true]);
    expect(venue.listenKeyCalls).toBe(2);
    expect(venue.subscriptions().sort()).toEqual(['bbo:ETH-USDC:eco', 'fills_0x000000000000000000000000000000000000000000000000000000000000acc0']);
    venue.push('bbo:ETH-USDC:eco', bboFrame);
    await eventually(() => events.length === 1);
    expect(stream.stats.reconnects).toBe(1);
  });

  it('reconnects with a fresh listen key when the venue closes the socket for an expired key', async () => {
    const { venue, stream, clock, reconnected } = await setup();
    await stream.subscribe(bboTopic);
    venue.listenKeys.clear();
    for (const client of venue.wsClients) client.socket.close(4001, 'listen key expired');
    await eventually(() => reconnected() === 1, { clock, stepMs: 250 });
    expect(venue.listenKeys.has('lk-2')).toBe(true);
    expect(venue.subscriptions()).toEqual(['bbo:ETH-USDC:eco']);
  });

  it('keeps retrying with backoff while the venue refuses connections', async () => {
    const { venue, clock, reconnected } = await setup();
    venue.listenKeys.clear();
    const refuse = venue.listenKeys.add.bind(venue.listenKeys);
    let allow = false;
    venue.listenKeys.add = (key: string) => (allow ? refuse(key) : venue.listenKeys);
    venue.dropSockets();
    await eventually(() => venue.listenKeyCalls >= 3, { clock, stepMs: 500 });
    allow = true;
    await eventually(() => reconnected() === 1, { clock, stepMs: 1_000 });
  });

  it('calls a silent connection dead after 30 s and reconnects', async () => {
    const { stream, clock, reconnected } = await setup({ autoPong: false });
    await stream.subscribe(bboTopic);
    clock.advance(15_000);
    expect(stream.stats.deadConnections).toBe(0);
    clock.advance(15_000);
    expect(stream.stats.deadConnections).toBe(1);
    await eventually(() => reconnected() === 1, { clock, stepMs: 250 });
  });

  it('calls a connection dead after two unanswered pings even while frames flow', async () => {
    const { venue, stream, clock } = await setup({ autoPong: false });
    await stream.subscribe(bboTopic);
    for (let i = 0; i < 5 && stream.stats.deadConnections === 0; i++) {
      venue.push('bbo:ETH-USDC:eco', bboFrame);
      await eventually(() => true);
      await new Promise((resolve) => setTimeout(resolve, 20));
      clock.advance(15_000);
    }
    expect(stream.stats.deadConnections).toBe(1);
  });

  it('stays up while pongs come back', async () => {
    const { stream, clock } = await setup();
    await stream.subscribe(bboTopic);
    // Each ping's pong is awaited (not a fixed real-time pause a loaded machine overruns):
    // the claim is that answered pings keep the connection up, whatever the pong's delay.
    for (let i = 0; i < 5; i++) {
      const pongs = stream.stats.pongs;
      clock.advance(15_000); // one ping period: one ping
      await eventually(() => stream.stats.pongs > pongs);
    }
    expect(stream.stats.deadConnections).toBe(0);
  });

  it('prolongs the listen key every 25 minutes', async () => {
    // Pings are spaced out here: a manual clock jumping 25 min leaves no time for real pongs.
    const { venue, clock } = await setup({ timing: { pingIntervalMs: 3_600_000 } });
    expect(venue.listenKeyCalls).toBe(1);
    await clock.advanceAsync(25 * 60_000);
    expect(venue.listenKeyCalls).toBe(2);
  });

  it('stops cleanly and idempotently, failing nothing afterwards', async () => {
    const { venue, stream } = await setup();
    await stream.subscribe(bboTopic);
    await stream.stop();
    await stream.stop();
    await eventually(() => venue.wsClients.size === 0);
    expect(stream.isUp()).toBe(false);
  });
});
