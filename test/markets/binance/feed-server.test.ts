/**
 * `akira-mm feed`'s server speaks Binance's protocol as documented, rules included: raw and
 * combined streams, live subscriptions with their replies and error texts, pings that must be
 * answered, the 5-messages-per-second limit, REST parameters, errors and request weights, and a
 * depth snapshot that always bridges onto the diff stream.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ManualClock, parseUnits } from '../../../src/core/index.ts';
import { startFeedServer, type FeedServer } from '../../../src/markets/binance/server/index.ts';
import { START_MS, dataDir, recordingFiles, until } from './support.ts';

let server: FeedServer | undefined;
const sockets: WebSocket[] = [];
const clients: Client[] = [];
afterEach(async () => {
  clients.length = 0;
  for (const socket of sockets.splice(0)) socket.terminate();
  await server?.stop();
  server = undefined;
});

interface Client {
  readonly socket: WebSocket;
  readonly messages: unknown[];
  readonly closed: { code: number | undefined };
  send(body: unknown): void;
}

async function connect(path: string, options: { autoPong?: boolean } = {}): Promise<Client> {
  const socket = new WebSocket(`${(server as FeedServer).wsUrl}${path}`, { autoPong: options.autoPong ?? true });
  sockets.push(socket);
  const messages: unknown[] = [];
  const closed: { code: number | undefined } = { code: undefined };
  socket.on('message', (data) => messages.push(JSON.parse(String(data))));
  socket.on('close', (code) => (closed.code = code));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const client: Client = { socket, messages, closed, send: (body) => socket.send(typeof body === 'string' ? body : JSON.stringify(body)) };
  clients.push(client);
  return client;
}

async function get(path: string): Promise<{ status: number; body: Record<string, unknown>; weight: string | null; retryAfter: string | null }> {
  const response = await fetch(`${(server as FeedServer).httpUrl}${path}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, weight: response.headers.get('x-mbx-used-weight-1m'), retryAfter: response.headers.get('retry-after') };
}

async function serve(clock: ManualClock, options: { speed?: number; loop?: boolean } = {}): Promise<FeedServer> {
  server = await startFeedServer({ files: recordingFiles('ethusdt'), clock, speed: options.speed ?? 1, loop: options.loop ?? false });
  return server;
}

/** Moves time, then waits until every open test client has every frame the server sent. */
async function advance(clock: ManualClock, ms: number): Promise<void> {
  clock.advance(ms);
  await (server as FeedServer).whenIdle();
  const received = (): number => clients.reduce((sum, client) => sum + client.messages.length, 0);
  const dropped = (): boolean => clients.some((client) => client.closed.code !== undefined);
  await until(() => dropped() || received() >= (server as FeedServer).stats().streams.framesSent, 'the clients to catch up');
}

describe.skipIf(dataDir === undefined)('akira-mm feed: Binance protocol on loopback', () => {
  it('serves raw payloads on /ws/<stream> and enveloped ones on /stream?streams=', async () => {
    const clock = new ManualClock(START_MS);
    await serve(clock);
    const raw = await connect('/ws/ethusdt@bookTicker');
    const combined = await connect('/stream?streams=ethusdt@depth@100ms/ethusdt@trade');
    await advance(clock, 2_000);
    expect(raw.messages.length).toBeGreaterThan(10);
    expect(raw.messages[0]).toMatchObject({ s: 'ETHUSDT', b: expect.stringMatching(/^\d+\.\d{8}$/), B: expect.any(String), a: expect.any(String), A: expect.any(String), u: expect.any(Number) });
    const streams = new Set(combined.messages.map((message) => (message as { stream: string }).stream));
    expect([...streams].sort()).toEqual(['ethusdt@depth@100ms', 'ethusdt@trade']);
    const diff = combined.messages.find((message) => (message as { stream: string }).stream === 'ethusdt@depth@100ms') as { data: Record<string, unknown> };
    expect(diff.data).toMatchObject({ e: 'depthUpdate', s: 'ETHUSDT', U: expect.any(Number), u: expect.any(Number), b: expect.any(Array), a: expect.any(Array) });
    // Event times are the replay clock's: the market is live now.
    expect(diff.data['E']).toBeGreaterThanOrEqual(START_MS);
    expect(diff.data['E']).toBeLessThanOrEqual(clock.nowMs());
  });

  it('answers SUBSCRIBE, UNSUBSCRIBE, LIST_SUBSCRIPTIONS and the combined property, with Binance error texts', async () => {
    const clock = new ManualClock(START_MS);
    await serve(clock);
    const client = await connect('/stream');
    client.send({ method: 'SUBSCRIBE', params: ['ethusdt@bookTicker', 'ethusdt@trade'], id: 1 });
    client.send({ method: 'LIST_SUBSCRIPTIONS', id: 'two' });
    client.send({ method: 'UNSUBSCRIBE', params: ['ethusdt@trade'], id: 3 });
    client.send({ method: 'GET_PROPERTY', params: ['combined'], id: 4 });
    await until(() => client.messages.length >= 4, 'four replies');
    expect(client.messages.slice(0, 4)).toEqual([
      { result: null, id: 1 },
      { result: ['ethusdt@bookTicker', 'ethusdt@trade'], id: 'two' },
      { result: null, id: 3 },
      { result: true, id: 4 },
    ]);
    await advance(clock, 1_100);
    client.send({ method: 'SET_PROPERTY', params: ['combined', false], id: 5 });
    await until(() => client.messages.some((message) => (message as { id?: number }).id === 5), 'the SET_PROPERTY reply');
    const before = client.messages.length;
    await advance(clock, 1_000);
    const after = client.messages.slice(before);
    expect(after.length).toBeGreaterThan(0);
    // Raw payloads now, and no trades since the UNSUBSCRIBE.
    for (const message of after) expect(message).toMatchObject({ s: 'ETHUSDT', u: expect.any(Number) });
    await advance(clock, 1_100);
    client.send('{not json');
    client.send({ method: 'SUBSCRIBE_ALL', params: [], id: 6 });
    client.send({ method: 'SET_PROPERTY', params: ['compressed', true], id: 7 });
    client.send({ method: 'SET_PROPERTY', params: ['combined', 'yes'], id: 8 });
    await until(() => client.messages.filter((message) => 'code' in (message as object)).length >= 4, 'four errors');
    const errors = client.messages.filter((message) => 'code' in (message as object));
    expect(errors).toEqual([
      { code: 3, msg: 'Invalid JSON: expected value at line 1 column 1' },
      { code: 2, msg: expect.stringContaining('unknown variant `SUBSCRIBE_ALL`'), id: 6 },
      { code: 0, msg: 'Unknown property', id: 7 },
      { code: 1, msg: 'Invalid value type: expected Boolean', id: 8 },
    ]);
  });

  it('closes a connection that sends more than 5 messages a second (code 1008)', async () => {
    const clock = new ManualClock(START_MS);
    await serve(clock);
    const client = await connect('/stream');
    for (let id = 1; id <= 6; id++) client.send({ method: 'LIST_SUBSCRIPTIONS', id });
    await until(() => client.closed.code !== undefined, 'the close');
    expect(client.closed.code).toBe(1008);
  });

  it('drops a connection that does not answer pings within a minute, and keeps one that does', async () => {
    const clock = new ManualClock(START_MS);
    await serve(clock);
    const silent = await connect('/ws/ethusdt@bookTicker', { autoPong: false });
    const polite = await connect('/ws/ethusdt@bookTicker');
    for (let i = 0; i < 5; i++) await advance(clock, 20_000);
    await until(() => silent.closed.code !== undefined, 'the silent client to be dropped');
    expect(polite.closed.code).toBeUndefined();
    expect((server as FeedServer).stats().streams.closedByRule).toBe(1);
  });

  it('serves ping, time, exchangeInfo and depth with Binance parameters, errors and weights', async () => {
    const clock = new ManualClock(START_MS);
    await serve(clock);
    expect((await get('/api/v3/ping')).body).toEqual({});
    expect((await get('/api/v3/time')).body).toEqual({ serverTime: START_MS });
    const info = await get('/api/v3/exchangeInfo?symbol=ETHUSDT');
    expect(info.weight).toBe('22');
    const symbol = (info.body['symbols'] as Record<string, unknown>[])[0];
    expect(symbol).toMatchObject({ symbol: 'ETHUSDT', status: 'TRADING', baseAsset: 'ETH', quoteAsset: 'USDT' });
    expect(symbol?.['filters']).toContainEqual(expect.objectContaining({ filterType: 'PRICE_FILTER', tickSize: '0.01000000' }));
    expect(await get('/api/v3/exchangeInfo?symbol=DOGEUSDT')).toMatchObject({ status: 400, body: { code: -1121, msg: 'Invalid symbol.' } });
    expect(await get('/api/v3/depth')).toMatchObject({ status: 400, body: { code: -1102 } });
    expect(await get('/api/v3/depth?symbol=ETHUSDT&limit=abc')).toMatchObject({ status: 400, body: { code: -1100 } });
    const depth = await get('/api/v3/depth?symbol=ETHUSDT&limit=5');
    expect(depth.status).toBe(200);
    // The recorded REST snapshot (line 6 of the 0808 file), served before the stream reaches it.
    expect(depth.body['lastUpdateId']).toBe(35_346_513_512);
    expect((depth.body['bids'] as unknown[]).length).toBe(5);
    expect((depth.body['asks'] as string[][])[0]).toEqual(['2683.81000000', expect.any(String)]);
    // 1 + 1 + 20 + 20 (refused symbols still weigh) + 5 + 5 + 5.
    expect(depth.weight).toBe('57');
    let last = depth;
    for (let i = 0; i < 120 && last.status === 200; i++) last = await get('/api/v3/depth?symbol=ETHUSDT&limit=1000');
    expect(last).toMatchObject({ status: 429, body: { code: -1003 } });
    expect(Number(last.retryAfter)).toBeGreaterThan(0);
  });

  it("keeps /api/v3/depth at or ahead of the diff stream, so a client can always bridge it", async () => {
    const clock = new ManualClock(START_MS);
    await serve(clock, { speed: 10 });
    const client = await connect('/ws/ethusdt@depth@100ms');
    for (let i = 0; i < 20; i++) {
      await advance(clock, 500);
      const lastSent = (client.messages.at(-1) as { u: number } | undefined)?.u ?? 0;
      const snapshot = await get('/api/v3/depth?symbol=ETHUSDT&limit=10');
      expect(snapshot.body['lastUpdateId']).toBeGreaterThanOrEqual(lastSent);
    }
    const ids = client.messages.map((message) => message as { U: number; u: number });
    for (let i = 1; i < ids.length; i++) expect(ids[i]?.U).toBe((ids[i - 1]?.u ?? 0) + 1);
  });

  it('derives the 1000 ms diff stream, the partial books and the aggregate trades from the recording, and refuses a stream it does not serve', async () => {
    const clock = new ManualClock(START_MS);
    await serve(clock);
    const client = await connect('/stream?streams=ethusdt@depth@100ms/ethusdt@depth/ethusdt@depth5@100ms/ethusdt@depth20/ethusdt@trade/ethusdt@aggTrade');
    for (let i = 0; i < 50; i++) await advance(clock, 100);
    type Diff = { U: number; u: number; b: string[][]; a: string[][] };
    type Book = { lastUpdateId: number; bids: string[][]; asks: string[][] };
    type Trade = { t: number; p: string; q: string; m: boolean };
    type Aggregate = { a: number; p: string; q: string; f: number; l: number; m: boolean };
    const on = <T>(stream: string): T[] => client.messages.filter((message) => (message as { stream?: string }).stream === stream).map((message) => (message as { data: T }).data);
    const fast = on<Diff>('ethusdt@depth@100ms');
    const slow = on<Diff>('ethusdt@depth');

    // Each 1000 ms event is exactly the 100 ms diffs it spans, merged (the latest size per price).
    expect(slow.length).toBeGreaterThanOrEqual(4);
    for (const event of slow) {
      const parts = fast.filter((diff) => diff.U >= event.U && diff.u <= event.u);
      expect([parts[0]?.U, parts.at(-1)?.u]).toEqual([event.U, event.u]);
      const merge = (side: 'b' | 'a'): string[][] => [...new Map(parts.flatMap((diff) => diff[side].map(([price, qty]) => [price, qty] as [string, string])))];
      expect(event.b).toEqual(merge('b'));
      expect(event.a).toEqual(merge('a'));
    }
    for (let i = 1; i < slow.length; i++) expect(slow[i]?.U).toBe((slow[i - 1]?.u ?? 0) + 1);

    // A partial book after every diff (its id that diff's, once past the recorded snapshot), and one a second.
    const top5 = on<Book>('ethusdt@depth5@100ms');
    expect(top5.map((book) => book.lastUpdateId)).toEqual(fast.map((diff) => Math.max(diff.u, 35_346_513_512)));
    const top20 = on<Book>('ethusdt@depth20');
    expect(top20.length).toBeGreaterThanOrEqual(4);
    for (const [books, levels] of [
      [top5, 5],
      [top20, 20],
    ] as const) {
      for (const book of books) {
        expect([book.bids.length, book.asks.length]).toEqual([levels, levels]);
        expect(Number(book.bids[0]?.[0])).toBeLessThan(Number(book.asks[0]?.[0]));
      }
    }

    // Aggregates cover every trade once, in order: same price and side, sizes summed exactly.
    const trades = on<Trade>('ethusdt@trade');
    const aggregates = on<Aggregate>('ethusdt@aggTrade');
    expect(aggregates.length).toBeGreaterThan(10);
    expect(aggregates.length).toBeLessThan(trades.length);
    expect(aggregates[0]?.f).toBe(trades[0]?.t);
    for (let i = 0; i < aggregates.length; i++) {
      const aggregate = aggregates[i] as Aggregate;
      if (i > 0) expect([aggregate.a, aggregate.f]).toEqual([(aggregates[i - 1]?.a ?? 0) + 1, (aggregates[i - 1]?.l ?? 0) + 1]);
      const members = trades.filter((trade) => trade.t >= aggregate.f && trade.t <= aggregate.l);
      expect(members.length).toBe(aggregate.l - aggregate.f + 1);
      expect(members.every((trade) => trade.p === aggregate.p && trade.m === aggregate.m)).toBe(true);
      expect(members.reduce((sum, trade) => sum + parseUnits(trade.q, 8), 0n)).toBe(parseUnits(aggregate.q, 8));
    }

    // Not served: refused in the SUBSCRIBE reply and at connect, never acknowledged.
    client.send({ method: 'SUBSCRIBE', params: ['ethusdt@trade', 'ethusdt@kline_1m'], id: 9 });
    await until(() => client.messages.some((message) => (message as { id?: number }).id === 9), 'the SUBSCRIBE reply');
    expect(client.messages.find((message) => (message as { id?: number }).id === 9)).toEqual({ code: 2, msg: 'Invalid request: this venue does not serve stream ethusdt@kline_1m', id: 9 });
    await expect(connect('/ws/ethusdt@kline_1m')).rejects.toThrow('Unexpected server response: 400');
    // An unknown time unit is refused at connect (errors.md -1194).
    await expect(connect('/ws/ethusdt@trade?timeUnit=NANOSECOND')).rejects.toThrow('Unexpected server response: 400');
  });

  it('serves event times in microseconds to a connection that asks for them, and opens ccxt.pro\'s /ws/<index> connections', async () => {
    const clock = new ManualClock(START_MS);
    await serve(clock);
    const millis = await connect('/ws/ethusdt@trade');
    const micros = await connect('/stream?streams=ethusdt@trade/ethusdt@depth@100ms&timeUnit=MICROSECOND');
    // ccxt js/src/pro/binance.js `stream()`: it connects to /ws/<n> and subscribes there.
    const indexed = await connect('/ws/0');
    indexed.send({ method: 'SUBSCRIBE', params: ['ethusdt@trade'], id: 1 });
    await until(() => indexed.messages.length > 0, 'the SUBSCRIBE reply');
    await advance(clock, 3_000);
    type Trade = { t: number; E: number; T: number };
    const first = millis.messages[0] as Trade;
    const twin = micros.messages.map((message) => (message as { data: Trade & { e: string } }).data).find((data) => data.e === 'trade' && data.t === first.t);
    expect(twin).toMatchObject({ E: first.E * 1000, T: first.T * 1000 });
    const diff = micros.messages.map((message) => (message as { data: { e: string; E: number; u: number } }).data).find((data) => data.e === 'depthUpdate');
    expect(diff?.E).toBeGreaterThan(START_MS * 1000);
    expect(diff?.u).toBeLessThan(1e14);
    expect(indexed.messages[0]).toEqual({ result: null, id: 1 });
    expect(indexed.messages.slice(1).some((message) => (message as Trade).t === first.t)).toBe(true);
  });

  it('loops with ids moved past the previous pass, and without --loop ends by closing every stream (code 1000)', async () => {
    const clock = new ManualClock(START_MS);
    await serve(clock, { speed: 100, loop: true });
    const client = await connect('/ws/ethusdt@depth@100ms');
    let before = 0;
    for (let i = 0; i < 200 && (server as FeedServer).stats().replay.loops < 2; i++) {
      before = ((await get('/api/v3/depth?symbol=ETHUSDT&limit=1')).body['lastUpdateId'] as number) ?? before;
      await advance(clock, 5_000);
    }
    expect((server as FeedServer).stats().replay.loops).toBe(2);
    const after = (await get('/api/v3/depth?symbol=ETHUSDT&limit=1')).body['lastUpdateId'] as number;
    expect(after).toBeGreaterThan(before);
    const ids = client.messages.map((message) => (message as { u: number }).u);
    for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1] as number);
    await server?.stop();

    const ending = new ManualClock(START_MS);
    await serve(ending, { speed: 1_000 });
    const listener = await connect('/ws/ethusdt@trade');
    let ended = false;
    void (server as FeedServer).done.then(() => (ended = true));
    for (let i = 0; i < 100 && !ended; i++) await advance(ending, 1_000);
    expect(ended).toBe(true);
    await until(() => listener.closed.code !== undefined, 'the close');
    expect(listener.closed.code).toBe(1000);
    expect(listener.messages.length).toBe(6_106 + 8_409);
  });
});
