/**
 * A tiny scriptable LayerAkira on 127.0.0.1:0 (real HTTP and WS sockets) for the client, stream
 * and venue tests, until the embedded exchange (src/sim) is merged and the lead points these
 * tests at `startSim()`. It serves every endpoint of SPEC §2 with canned but consistent state
 * (orders placed can be queried, cancelled and filled), and lets a test inject faults: a status
 * for the next requests, a hang, a dropped socket, refused acks, arbitrary WS frames.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, WebSocket } from 'ws';
import { fakeHash, FAKE_STARK_KEY } from './fake-signer.ts';
import { getChain } from '../../../src/core/index.ts';
import { createMessageHasher, verifySignature, type MessageHasher } from '../../../src/exchange/signer/index.ts';
import { addressToHex } from '../../../src/exchange/wire/fields.ts';
import { parseCancelAllBody, parseCancelBody, parseIncreaseNonceBody, parseOrderBody, parseWithdrawBody } from '../../../src/exchange/wire/requests.ts';

/** Options of the loopback venue. */
export interface LoopbackOptions {
  /** Answer server pings' pongs automatically (default true). */
  readonly autoPong?: boolean;
  /** The trading account served (default 0xacc0, the fake signer's). */
  readonly account?: bigint;
  /** The signer key bound to it (default the fake signer's). */
  readonly starkKey?: bigint;
  /**
   * Hash bodies with the real SNIP-12 hasher and check every signature against `starkKey`,
   * answering FAILED_SIGN_CHECK like the venue (default false: the fake signer's SHA-256 hash).
   */
  readonly verify?: boolean;
}

/** A request as the loopback venue saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: unknown;
}

/** A scripted answer. */
export interface Scripted {
  readonly status: number;
  readonly body: string;
  readonly headers?: Record<string, string>;
  /** Apply the request first, then answer with this (a 5xx "after applying"). */
  readonly afterApplying?: boolean;
}

interface StoredOrder {
  readonly hash: string;
  readonly body: Record<string, unknown>;
  status: string;
  filledBase: string;
  filledQuote: string;
}

/** The loopback venue. */
export class LoopbackVenue {
  readonly requests: SeenRequest[] = [];
  readonly orders = new Map<string, StoredOrder>();
  /** Answers used once each, in order, for the matching `METHOD /path`. */
  readonly script = new Map<string, Scripted[]>();
  /** Requests to these `METHOD /path` never get an answer (timeouts). */
  readonly hang = new Set<string>();
  /** WS acks refused with this error for these stream names. */
  readonly refuseStreams = new Set<string>();
  /** Do not answer WS subscribes at all. */
  silentAcks = false;
  nonce = 3;
  jwtCounter = 0;
  validJwts = new Set<string>();
  listenKeys = new Set<string>();
  listenKeyCalls = 0;
  gasPrice = '1000000000';
  balances: { token: string; balance: string; locked: string }[] = [
    { token: 'ETH', balance: '10', locked: '0' },
    { token: 'USDC', balance: '50000', locked: '0' },
    { token: 'AUNI', balance: '1', locked: '0' },
  ];
  tickerSpecs: unknown[] = [
    { ticker: { pair: { base: 'ETH', quote: 'USDC' }, isEcosystemBook: true }, rawPriceIncrement: '10000', rawMinQuoteQty: '1000000000000000', rawQuoteQtyIncrement: '100000000000000' },
    { ticker: { pair: { base: 'STRK', quote: 'USDC' }, isEcosystemBook: true }, rawPriceIncrement: '100', rawMinQuoteQty: '1000000000000000000', rawQuoteQtyIncrement: '1000000000000000000' },
  ];
  snapshot = { bids: [['3000', '1.5', 2]], asks: [['3001', '2', 1]], msg_id: '100' };
  readonly wsClients = new Set<{ socket: WebSocket; streams: Set<string> }>();
  #server: Server;
  #wss: WebSocketServer;
  #port = 0;
  readonly #account: bigint;
  readonly #starkKey: bigint;
  readonly #hasher: MessageHasher | undefined;

  constructor(options: LoopbackOptions = {}) {
    this.#account = options.account ?? 0xacc0n;
    this.#starkKey = options.starkKey ?? FAKE_STARK_KEY;
    this.#hasher = options.verify === true ? createMessageHasher(getChain('mainnet')) : undefined;
    this.#server = createServer((req, res) => void this.#handle(req, res));
    this.#wss = new WebSocketServer({ noServer: true, autoPong: options.autoPong ?? true });
    this.#server.on('upgrade', (req, socket, head) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const key = url.searchParams.get('listenKey');
      if (url.pathname !== '/ws' || key === null || !this.listenKeys.has(key) || url.searchParams.get('signer') !== addressToHex(this.#starkKey)) {
        socket.write('HTTP/1.1 401 Unauthorized\r\n\r\n');
        socket.destroy();
        return;
      }
      this.#wss.handleUpgrade(req, socket, head, (ws) => this.#onSocket(ws));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.#port = (this.#server.address() as AddressInfo).port;
    return this;
  }

  get httpUrl(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  get wsUrl(): string {
    return `ws://127.0.0.1:${this.#port}/ws`;
  }

  async stop(): Promise<void> {
    for (const client of this.wsClients) client.socket.terminate();
    this.#wss.close();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** Queues scripted answers for `METHOD /path`. */
  queue(endpoint: string, ...answers: Scripted[]): void {
    this.script.set(endpoint, [...(this.script.get(endpoint) ?? []), ...answers]);
  }

  /** Requests seen for `METHOD /path`. */
  seen(endpoint: string): SeenRequest[] {
    return this.requests.filter((r) => `${r.method} ${r.path}` === endpoint);
  }

  /** Sends a frame to every client subscribed to `stream` (or to all when undefined). */
  push(stream: string | undefined, frame: unknown): void {
    const text = typeof frame === 'string' ? frame : JSON.stringify(frame);
    for (const client of this.wsClients) if (stream === undefined || client.streams.has(stream)) client.socket.send(text);
  }

  /** Subscribed streams of all clients. */
  subscriptions(): string[] {
    return [...this.wsClients].flatMap((client) => [...client.streams]);
  }

  /** Drops every WS connection without a close frame. */
  dropSockets(): void {
    for (const client of this.wsClients) client.socket.terminate();
    this.wsClients.clear();
  }

  /** Marks an order filled (partly) and pushes its execution report to the fills stream. */
  fill(hash: string, fillBase: string, accBase: string, status: string, price = '3000'): void {
    const order = this.orders.get(hash);
    if (order !== undefined) {
      order.status = status;
      order.filledBase = accBase;
    }
    this.push(this.fillsStream(), this.executionReport(hash, { fillBase, accBase, status, price }));
  }

  executionReport(hash: string, fill: { fillBase: string; accBase: string; status: string; price?: string }): unknown {
    const order = this.orders.get(hash);
    const sell = (order?.body.flags as Record<string, boolean> | undefined)?.is_sell_side ?? false;
    return {
      stream: 'fills',
      client: this.account(),
      pair: { base: 'ETH', quote: 'USDC' },
      result: {
        hash: `0x${hash}`,
        fill_price: fill.price ?? '3000',
        fill_base_qty: fill.fillBase,
        fill_quote_qty: '0',
        acc_base_qty: fill.accBase,
        acc_quote_qty: '0',
        is_sell_side: sell,
        status: fill.status,
        matcher_result: 'OK',
      },
    };
  }

  /** The subscription name of our fills (events themselves say `stream: "fills"`). */
  fillsStream(): string {
    return `fills_${this.account()}`;
  }

  /** The account as the SDKs write it: zero-padded. */
  account(): string {
    return addressToHex(this.#account);
  }

  /**
   * The hash of a POST body as the venue computes it, and whether its signature holds: the
   * fake SHA-256 hash, or (verify mode) the SNIP-12 hash of the parsed request checked against
   * the bound key.
   */
  #hashOf(kind: 'order' | 'cancel' | 'cancel-all' | 'withdraw' | 'nonce', body: Record<string, unknown>): { hash: bigint; signed: boolean } {
    const hasher = this.#hasher;
    if (hasher === undefined) return { hash: fakeHash(body), signed: true };
    const chain = getChain('mainnet');
    let hash: bigint;
    let sign;
    switch (kind) {
      case 'order': {
        const request = parseOrderBody(body, chain);
        ({ sign } = request);
        hash = hasher.order(request);
        break;
      }
      case 'cancel': {
        const request = parseCancelBody(body);
        ({ sign } = request);
        hash = hasher.cancel(request);
        break;
      }
      case 'cancel-all': {
        const request = parseCancelAllBody(body, chain);
        ({ sign } = request);
        hash = hasher.cancelAll(request);
        break;
      }
      case 'withdraw': {
        const request = parseWithdrawBody(body, chain);
        ({ sign } = request);
        hash = hasher.withdraw(request);
        break;
      }
      case 'nonce': {
        const request = parseIncreaseNonceBody(body, chain);
        ({ sign } = request);
        hash = hasher.increaseNonce(request);
        break;
      }
    }
    return { hash, signed: sign !== undefined && verifySignature(hash, sign, this.#starkKey) };
  }

  // ── HTTP ─────────────────────────────────────────────────────────────────────────────────

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    const seen: SeenRequest = { method: req.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body };
    this.requests.push(seen);
    const endpoint = `${seen.method} ${seen.path}`;
    if (this.hang.has(endpoint)) return;
    const scripted = this.script.get(endpoint)?.shift();
    if (scripted !== undefined && scripted.afterApplying !== true) {
      res.writeHead(scripted.status, { 'content-type': 'application/json', ...scripted.headers }).end(scripted.body);
      return;
    }
    const answer = this.#route(seen);
    if (scripted !== undefined) {
      res.writeHead(scripted.status, { 'content-type': 'application/json', ...scripted.headers }).end(scripted.body);
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.json));
  }

  #route(req: SeenRequest): { status: number; json: unknown } {
    const ok = (result: unknown): { status: number; json: unknown } => ({ status: 200, json: { result } });
    const fail = (status: number, error: string): { status: number; json: unknown } => ({ status, json: { code: status, error } });
    if (req.path === '/sign/request_sign_data') return ok('123456789');
    if (req.path === '/sign/auth') {
      const auth = req.body as { msg: string; signature: [string, string] };
      if (this.#hasher !== undefined) {
        const hash = this.#hasher.login(this.#account, BigInt(auth.msg));
        if (!verifySignature(hash, { r: BigInt(auth.signature[0]), s: BigInt(auth.signature[1]) }, this.#starkKey)) return fail(400, 'Invalid signature');
      }
      const jwt = `jwt-${++this.jwtCounter}`;
      this.validJwts.add(jwt);
      return ok(jwt);
    }
    const auth = req.headers.authorization;
    if (typeof auth !== 'string' || !this.validJwts.has(auth)) return fail(401, 'Auth header invalid');
    const body = (req.body ?? {}) as Record<string, unknown>;
    switch (`${req.method} ${req.path}`) {
      case 'GET /gas/price':
        return ok(this.gasPrice);
      case 'GET /book/bbo':
        return ok({ to_ecosystem_book: true, bid: { price: '3000', volume: '1.5', orders: 2 }, ask: {}, pair: 'ETH-USDC' });
      case 'GET /book/snapshot':
        return ok({ to_ecosystem_book: true, levels: this.snapshot, pair: 'ETH-USDC' });
      case 'GET /user/user_info':
        return ok({ nonce: this.nonce, balances: this.balances, fees: [{ base: 'ETH', quote: 'USDC', fee: [200, 1000] }] });
      case 'GET /user/listen_key': {
        this.listenKeyCalls++;
        const key = `lk-${this.listenKeyCalls}`;
        this.listenKeys.add(key);
        return ok(key);
      }
      case 'GET /info/conversion_rate':
        return req.query.token === 'USDC' ? ok(['1', '0.55']) : fail(422, 'WRONG_INPUT');
      case 'GET /info/steps_specifications':
        return ok({ withdraw: 150, swapRouter: 250, swapEcosystem: 150, nonce: 100 });
      case 'GET /info/ticker_specifications':
        return ok(this.tickerSpecs);
      case 'GET /info/router_details':
        return ok({ routerTakerPbips: 100, routerMakerPbips: 50, routerSigner: '0x123', routerFeeRecipient: '0x456' });
      case 'GET /user/order':
      case 'GET /user/order_router': {
        const order = this.orders.get(BigInt(req.query.order_hash ?? '0').toString(16));
        const active = req.query.active === '1';
        if (order === undefined || (active && !isLive(order.status))) return fail(404, `Order ${req.query.order_hash} not found`);
        return ok(this.#orderJson(order));
      }
      case 'GET /user/orders': {
        const active = req.query.active === 'true';
        const all = [...this.orders.values()].filter((o) => isLive(o.status) === active).reverse();
        const offset = Number(req.query.offset ?? 0);
        const limit = Number(req.query.limit ?? 20);
        return ok({ data: all.slice(offset, offset + limit).map((o) => this.#orderJson(o)), cursor: null });
      }
      case 'POST /place_order': {
        const checked = this.#hashOf('order', body);
        if (!checked.signed) return fail(422, 'FAILED_SIGN_CHECK');
        const hash = checked.hash.toString(16);
        if (this.orders.has(hash)) return fail(422, 'ORDER_ALREADY_IN_PROGRESS');
        const constraints = body.constraints as Record<string, unknown> | undefined;
        if (constraints?.nonce !== undefined && Number(constraints.nonce) < this.nonce) return fail(422, 'WRONG_NONCE');
        this.orders.set(hash, { hash, body, status: 'OPEN', filledBase: '0', filledQuote: '0' });
        return ok(`0x${hash}`);
      }
      case 'POST /router/sign_external_order':
        return ok(['0x1', '0x2']);
      case 'POST /cancel_order': {
        const checked = this.#hashOf('cancel', body);
        if (!checked.signed) return fail(422, 'FAILED_SIGN_CHECK');
        const order = this.orders.get(BigInt(String(body.order_hash)).toString(16));
        if (order === undefined) return fail(422, 'NO_ORDERS_WITH_THIS_ID');
        order.status = 'CANCELLED';
        return ok(`0x${checked.hash.toString(16)}`);
      }
      case 'POST /cancel_all': {
        const checked = this.#hashOf('cancel-all', body);
        if (!checked.signed) return fail(422, 'FAILED_SIGN_CHECK');
        for (const order of this.orders.values()) if (isLive(order.status)) order.status = 'CANCELLED';
        return ok(`0x${checked.hash.toString(16)}`);
      }
      case 'POST /withdraw': {
        const checked = this.#hashOf('withdraw', body);
        return checked.signed ? ok(`0x${checked.hash.toString(16)}`) : fail(422, 'FAILED_SIGN_CHECK');
      }
      case 'POST /increase_nonce': {
        const checked = this.#hashOf('nonce', body);
        if (!checked.signed) return fail(422, 'FAILED_SIGN_CHECK');
        this.nonce = Number(body.new_nonce);
        return ok(`0x${checked.hash.toString(16)}`);
      }
      default:
        return fail(404, 'no such endpoint');
    }
  }

  #orderJson(order: StoredOrder): unknown {
    const body = order.body;
    const flags = body.flags as Record<string, boolean>;
    const ticker = body.ticker as [string, string];
    return {
      maker: body.maker,
      hash: `0x${order.hash}`,
      price: body.price,
      qty: body.qty,
      ticker: { base: ticker[0], quote: ticker[1] },
      flags: ['full_fill_only', 'best_level_only', 'post_only', 'is_sell_side', 'is_market_order', 'to_ecosystem_book', 'external_funds'].map((k) => flags[k]),
      constraints: body.constraints,
      salt: body.salt,
      state: { status: order.status, filled_base_amount: order.filledBase, filled_quote_amount: order.filledQuote, failed_base_amount: '0', failed_quote_amount: '0' },
    };
  }

  // ── WS ───────────────────────────────────────────────────────────────────────────────────

  #onSocket(socket: WebSocket): void {
    const client = { socket, streams: new Set<string>() };
    this.wsClients.add(client);
    socket.on('close', () => this.wsClients.delete(client));
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { action: string; id: number; stream: string; ticker?: { base: string; quote: string; ecosystem_book: boolean } };
      const name = message.ticker === undefined ? message.stream : `${message.stream}:${message.ticker.base}-${message.ticker.quote}:${message.ticker.ecosystem_book ? 'eco' : 'router'}`;
      if (this.silentAcks) return;
      if (this.refuseStreams.has(message.stream)) {
        socket.send(JSON.stringify({ id: message.id, error: 'not allowed' }));
        return;
      }
      if (message.action === 'subscribe') client.streams.add(name);
      else client.streams.delete(name);
      socket.send(JSON.stringify({ id: message.id, result: 'OK' }));
    });
  }
}

function isLive(status: string): boolean {
  return status === 'ACC' || status === 'OPEN' || status === 'PARTIALLY_FILLED' || status === 'SCHEDULED_TO_CANCEL';
}
