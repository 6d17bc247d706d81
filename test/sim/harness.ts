/**
 * A running sim plus a tiny client written from REFERENCE.md (fetch + ws), for the HTTP and WS
 * tests. Each dev account gets a Signer; logins and orders are signed with the real signer.
 */
import WebSocket from 'ws';
import { ManualClock, Secret, type Clock } from '../../src/core/index.ts';
import { Signer } from '../../src/exchange/signer/index.ts';
import { addressToHex } from '../../src/exchange/wire/fields.ts';
import { formatOrderBody, type OrderRequest } from '../../src/exchange/wire/requests.ts';
import { startSim, type SimHandle, type SimOptions } from '../../src/sim/index.ts';
import { CHAIN, START_MS, order, type OrderSpec } from './fixtures.ts';

export interface Reply {
  readonly status: number;
  readonly body: Record<string, unknown> & { result?: unknown; code?: number; error?: string };
}

export interface TestAccount {
  readonly address: bigint;
  readonly signer: Signer;
  jwt: string;
}

export interface TestSim {
  readonly sim: SimHandle;
  readonly clock: ManualClock;
  readonly accounts: TestAccount[];
  get(path: string, query?: Record<string, string | number>, jwt?: string): Promise<Reply>;
  post(path: string, body: unknown, jwt?: string): Promise<Reply>;
  login(index: number): Promise<string>;
  /** Signs and places an order built from a spec for account `index`; returns the reply and the hash. */
  place(index: number, spec?: OrderSpec): Promise<{ reply: Reply; hash: bigint; request: OrderRequest }>;
  /** A socket on the account's listen key that records every frame. */
  connect(index: number): Promise<TestSocket>;
  stop(): Promise<void>;
}

export class TestSocket {
  readonly frames: Array<Record<string, unknown>> = [];
  private waiters: Array<() => void> = [];
  closed: { code: number } | undefined;
  private nextId = 1;

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()) as Record<string, unknown>);
      this.wake();
    });
    socket.on('close', (code) => {
      this.closed = { code };
      this.wake();
    });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves with the first frame (from the start) matching, waiting for I/O only. */
  async waitFor(match: (frame: Record<string, unknown>) => boolean, what = 'frame'): Promise<Record<string, unknown>> {
    for (let i = 0; i < 200; i++) {
      const found = this.frames.find(match);
      if (found !== undefined) return found;
      if (this.closed !== undefined) throw new Error(`socket closed (${this.closed.code}) before ${what}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    throw new Error(`no ${what} in ${JSON.stringify(this.frames).slice(0, 2000)}`);
  }

  async waitClosed(): Promise<number> {
    for (let i = 0; i < 100 && this.closed === undefined; i++) {
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    if (this.closed === undefined) throw new Error('socket still open');
    return this.closed.code;
  }

  /** Subscribes and waits for the ack. */
  async subscribe(stream: string, ticker?: { base: string; quote: string; ecosystem_book: boolean }): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ action: 'subscribe', id, stream, ...(ticker === undefined ? {} : { ticker }) }));
    return this.waitFor((frame) => frame['id'] === id, `ack ${id}`);
  }

  close(): void {
    this.socket.close();
  }
}

/** Starts a sim on 127.0.0.1:0 with a manual clock, no flow, inline signature checks. */
export async function startTestSim(options: SimOptions = {}): Promise<TestSim> {
  const clock = (options.clock as ManualClock | undefined) ?? new ManualClock(START_MS);
  const sim = await startSim({ flow: false, signatureWorkers: 0, seed: 7, devAccounts: 2, ...options, clock: clock as Clock });
  const accounts: TestAccount[] = sim.accounts.map((account) => ({
    address: account.address,
    signer: new Signer({ privateKey: new Secret(`0x${(account.privateKey ?? 1n).toString(16)}`), account: account.address, chain: CHAIN }),
    jwt: '',
  }));
  const sockets: TestSocket[] = [];

  async function request(method: string, path: string, body: unknown, jwt: string | undefined, query?: Record<string, string | number>): Promise<Reply> {
    const url = new URL(path, sim.httpUrl);
    for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (jwt !== undefined) headers['authorization'] = jwt;
    const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) });
    const text = await response.text();
    let parsed: Reply['body'];
    try {
      parsed = JSON.parse(text) as Reply['body'];
    } catch {
      parsed = { raw: text };
    }
    return { status: response.status, body: parsed };
  }

  const harness: TestSim = {
    sim,
    clock,
    accounts,
    get: (path, query, jwt) => request('GET', path, undefined, jwt, query),
    post: (path, body, jwt) => request('POST', path, body, jwt),
    async login(index) {
      const account = accounts[index] as TestAccount;
      const challenge = await harness.get('/sign/request_sign_data', { user: addressToHex(account.signer.starkKey), account: addressToHex(account.address) });
      if (challenge.status !== 200) throw new Error(`challenge: ${JSON.stringify(challenge.body)}`);
      const { signature } = account.signer.signLogin(BigInt(challenge.body.result as string));
      const auth = await harness.post('/sign/auth', { msg: challenge.body.result, signature: [addressToHex(signature.r), addressToHex(signature.s)] });
      if (auth.status !== 200) throw new Error(`auth: ${JSON.stringify(auth.body)}`);
      account.jwt = auth.body.result as string;
      return account.jwt;
    },
    async place(index, spec = {}) {
      const account = accounts[index] as TestAccount;
      const signed = account.signer.signOrder(order({ maker: account.address, ...spec }));
      const reply = await harness.post('/place_order', formatOrderBody(signed.request), account.jwt);
      return { reply, hash: signed.hash, request: signed.request };
    },
    async connect(index) {
      const account = accounts[index] as TestAccount;
      const key = await harness.get('/user/listen_key', {}, account.jwt);
      const socket = new WebSocket(`${sim.wsUrl}?listenKey=${String(key.body.result)}&signer=${addressToHex(account.signer.starkKey)}`);
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
      });
      const wrapped = new TestSocket(socket);
      sockets.push(wrapped);
      return wrapped;
    },
    async stop() {
      for (const socket of sockets) socket.socket.terminate();
      await sim.stop();
    },
  };
  return harness;
}

/** Waits for the venue's queue (microtasks) after an accepted POST. */
export async function settle(test: TestSim): Promise<void> {
  await test.sim.idle();
}
