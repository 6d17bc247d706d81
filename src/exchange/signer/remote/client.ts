/**
 * The daemon's side of the remote signer (`SIGNER_REMOTE=unix:PATH`): the same calls as the
 * in-process signer, answered by `akira-mm signer serve` over its Unix socket, so the daemon
 * holds no key at all. Requests are pipelined on one connection; a batch (pre-signing) is one
 * request the signer spreads over its own worker threads. A lost connection fails the requests
 * in flight (`SIGNER_UNAVAILABLE`) and the next request reconnects; a signer that comes back
 * with another key is refused. The socket keeps the process alive only while a request waits
 * for its answer (like an idle keep-alive connection, it never holds a finished command open).
 *
 * The signer sends its policy in the greeting; the local copy only lets pre-signing skip orders
 * the signer would refuse (a speculative order is not a security event). It enforces nothing:
 * the signer does.
 */
import { createConnection, type Socket } from 'node:net';
import { type ChainInfo, type Clock, type Logger } from '../../../core/index.ts';
import type { FastSignChallenge } from '../../client/fast-sign.ts';
import { feltToHex, type StarkSignature } from '../../wire/fields.ts';
import {
  formatCancelAllBody,
  formatCancelBody,
  formatIncreaseNonceBody,
  formatOrderBody,
  formatWithdrawBody,
  type CancelAllRequest,
  type CancelRequest,
  type IncreaseNonceRequest,
  type OrderRequest,
  type WithdrawRequest,
} from '../../wire/requests.ts';
import type { SigningAudit } from '../audit.ts';
import { SignerError } from '../errors.ts';
import { SigningPolicy, SigningRefusedError } from '../policy.ts';
import type { Signed } from '../signer.ts';
import {
  PROTOCOL_VERSION,
  decodePolicy,
  decodeSigned,
  encodeLine,
  onLines,
  refusalKindOf,
  type BodyOp,
  type HelloAnswer,
  type RemoteCall,
  type RemoteResponse,
} from './protocol.ts';

/** Options of {@link RemoteSigner.connect}. */
export interface RemoteSignerOptions {
  /** The signer's socket (the path of `SIGNER_REMOTE=unix:PATH`). */
  readonly socketPath: string;
  /** The pair's chain and trading account: the signer refuses a client for another. */
  readonly chain: ChainInfo;
  readonly account: bigint;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Counts refusals the signer reports, for the daemon's metric. */
  readonly audit?: SigningAudit;
  /** How long one answer (or the connection) may take, ms. Default 5 000. */
  readonly timeoutMs?: number;
}

interface Pending {
  readonly op: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  cancelTimer(): void;
}

interface Connection {
  readonly socket: Socket;
  readonly pending: Map<number, Pending>;
  /** Set on the first error or close: the next request opens a new connection. */
  isBroken: boolean;
}

type Unsigned = { readonly sign?: StarkSignature };

/** A signer in another process, reached over a Unix socket. */
export class RemoteSigner {
  readonly account: bigint;
  readonly starkKey: bigint;
  /** The signer's policy as it announced it (for {@link allows} only). */
  readonly policy: SigningPolicy;
  readonly #options: RemoteSignerOptions;
  #connection: Promise<Connection> | undefined;
  #nextId = 1;
  #closed = false;

  private constructor(options: RemoteSignerOptions, hello: HelloAnswer, connection: Connection) {
    this.#options = options;
    this.account = options.account;
    this.starkKey = BigInt(hello.starkKey);
    this.policy = new SigningPolicy(decodePolicy(hello.policy));
    this.#connection = this.#track(Promise.resolve(connection));
  }

  /**
   * Connects and greets the signer.
   * @throws SignerError `SIGNER_UNAVAILABLE` when nothing answers on the socket;
   *   SigningRefusedError when the signer is for another chain or account.
   */
  static async connect(options: RemoteSignerOptions): Promise<RemoteSigner> {
    const { connection, hello } = await openConnection(options, undefined);
    return new RemoteSigner(options, hello, connection);
  }

  /** True when the signer's policy would sign this order. */
  allows(order: OrderRequest): boolean {
    return this.policy.allowsOrder(order);
  }

  signOrder(order: OrderRequest): Promise<Signed<OrderRequest>> {
    return this.#signBody('order', order, formatOrderBody(order));
  }

  /** Signs a batch in one request (the signer uses its worker threads). */
  async signOrders(orders: readonly OrderRequest[]): Promise<Signed<OrderRequest>[]> {
    const answer = (await this.#call('orders', { op: 'orders', bodies: orders.map(formatOrderBody) })) as { signed?: unknown };
    const signed = answer.signed;
    if (!Array.isArray(signed) || signed.length !== orders.length) throw unavailable('the signer answered a batch with the wrong number of signatures');
    return orders.map((order, index) => withSignature(order, signed[index]));
  }

  signCancel(cancel: CancelRequest): Promise<Signed<CancelRequest>> {
    return this.#signBody('cancel', cancel, formatCancelBody(cancel));
  }

  signCancelAll(cancel: CancelAllRequest): Promise<Signed<CancelAllRequest>> {
    return this.#signBody('cancel-all', cancel, formatCancelAllBody(cancel));
  }

  signWithdraw(withdraw: WithdrawRequest): Promise<Signed<WithdrawRequest>> {
    return this.#signBody('withdraw', withdraw, formatWithdrawBody(withdraw));
  }

  signIncreaseNonce(request: IncreaseNonceRequest): Promise<Signed<IncreaseNonceRequest>> {
    return this.#signBody('increase-nonce', request, formatIncreaseNonceBody(request));
  }

  /** Signs a fast-sign challenge (FAST_CANCEL): the key it buys can only cancel. */
  async signFastSign(challenge: FastSignChallenge): Promise<StarkSignature> {
    return decodeSigned(await this.#call('fast-sign', { op: 'fast-sign', challenge: { msg: challenge.msg, expiration_ts: challenge.expirationTs } })).sign;
  }

  /** Signs the login challenge (the signer signs the login message for its own account only). */
  async signLogin(challenge: bigint): Promise<{ hash: bigint; signature: StarkSignature }> {
    const { hash, sign } = decodeSigned(await this.#call('login', { op: 'login', challenge: feltToHex(challenge) }));
    return { hash, signature: sign };
  }

  /** Closes the connection; requests in flight fail. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    const connection = await this.#connection?.catch(() => undefined);
    this.#connection = undefined;
    connection?.socket.destroy();
  }

  toString(): string {
    return `RemoteSigner(${this.#options.socketPath}, account ${feltToHex(this.account)})`;
  }

  async #signBody<Request extends Unsigned>(op: BodyOp, request: Request, body: Record<string, unknown>): Promise<Signed<Request>> {
    return withSignature(request, await this.#call(op, { op, body }));
  }

  async #call(op: string, message: RemoteCall): Promise<unknown> {
    if (this.#closed) throw unavailable('the remote signer connection is closed');
    const connection = await this.#connect();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = this.#options.clock.setTimeout(() => {
        connection.pending.delete(id);
        if (connection.pending.size === 0) connection.socket.unref();
        reject(unavailable(`no answer from the signer within ${this.#timeoutMs()} ms (${op})`));
      }, this.#timeoutMs(), { unref: true });
      connection.pending.set(id, { op, resolve, reject, cancelTimer: () => timer.cancel() });
      connection.socket.ref();
      connection.socket.write(encodeLine({ id, ...message }));
    });
  }

  /** The live connection, reconnecting (and checking the key did not change) after a loss. */
  async #connect(): Promise<Connection> {
    const known = this.#connection;
    const current = await known?.catch(() => undefined);
    if (current !== undefined && !current.isBroken) return current;
    // Another request started reconnecting while this one waited: share its connection.
    if (this.#connection !== known && this.#connection !== undefined) return this.#connect();
    this.#connection = this.#track(openConnection(this.#options, this.starkKey).then(({ connection }) => connection));
    return this.#connection;
  }

  /** Forgets a connection that could not be opened, so the next request tries again. */
  #track(opening: Promise<Connection>): Promise<Connection> {
    const tracked: Promise<Connection> = opening.catch((error: unknown) => {
      if (this.#connection === tracked) this.#connection = undefined;
      throw error;
    });
    return tracked;
  }

  #timeoutMs(): number {
    return this.#options.timeoutMs ?? 5_000;
  }
}

/** Opens a connection, greets the signer and routes its answers. */
async function openConnection(options: RemoteSignerOptions, expectedKey: bigint | undefined): Promise<{ connection: Connection; hello: HelloAnswer }> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const socket = createConnection(options.socketPath);
  const connection: Connection = { socket, pending: new Map(), isBroken: false };
  const fail = (error: Error): void => {
    connection.isBroken = true;
    for (const pending of connection.pending.values()) {
      pending.cancelTimer();
      pending.reject(error);
    }
    connection.pending.clear();
  };
  onLines(socket, (line) => deliver(options, connection, line), (error) => socket.destroy(error));
  socket.on('error', (error) => fail(unavailable(`signer socket ${options.socketPath}: ${error.message}`)));
  socket.on('close', () => fail(unavailable(`the signer closed the connection on ${options.socketPath}`)));

  // Ids are per connection; the greeting is always 0 and the signer's requests count from 1.
  const id = 0;
  const hello = await new Promise<HelloAnswer>((resolve, reject) => {
    const timer = options.clock.setTimeout(() => {
      socket.destroy();
      reject(unavailable(`no answer from the signer on ${options.socketPath} within ${timeoutMs} ms`));
    }, timeoutMs, { unref: true });
    connection.pending.set(id, { op: 'hello', resolve: (value) => resolve(value as HelloAnswer), reject, cancelTimer: () => timer.cancel() });
    const { executorAddress, coreAddress, feeRecipient } = options.chain;
    socket.write(encodeLine({ id, op: 'hello', version: PROTOCOL_VERSION, chain: options.chain.name, account: feltToHex(options.account), contracts: { executorAddress, coreAddress, feeRecipient } }));
  });
  const starkKey = BigInt(hello.starkKey);
  if (expectedKey !== undefined && starkKey !== expectedKey) {
    socket.destroy();
    throw unavailable(`the signer on ${options.socketPath} now holds another key (${feltToHex(starkKey)}); restart the daemon to accept it`);
  }
  if (hello.chain !== options.chain.name) {
    socket.destroy();
    throw unavailable(`the signer answered for chain ${hello.chain}`);
  }
  options.logger.info({ socket: options.socketPath, starkKey: feltToHex(starkKey) }, 'connected to the remote signer');
  socket.unref();
  return { connection, hello };
}

function deliver(options: RemoteSignerOptions, connection: Connection, line: string): void {
  let response: RemoteResponse;
  try {
    response = JSON.parse(line) as RemoteResponse;
  } catch {
    options.logger.warn('the signer sent a line that is not JSON; ignored');
    return;
  }
  const pending = typeof response.id === 'number' ? connection.pending.get(response.id) : undefined;
  if (pending === undefined || response.id === null) return;
  connection.pending.delete(response.id);
  pending.cancelTimer();
  if (connection.pending.size === 0) connection.socket.unref();
  if ('ok' in response) {
    pending.resolve(response.ok);
    return;
  }
  const kind = refusalKindOf(response.error);
  if (response.error.code === 'SIGNER_REFUSED' && kind !== undefined) {
    const refusal = { kind, reason: response.error.message };
    options.audit?.refused(pending.op, refusal);
    pending.reject(new SigningRefusedError(refusal));
    return;
  }
  pending.reject(unavailable(`the signer failed: ${response.error.message}`));
}

function withSignature<Request extends Unsigned>(request: Request, answer: unknown): Signed<Request> {
  let decoded: { hash: bigint; sign: StarkSignature };
  try {
    decoded = decodeSigned(answer);
  } catch (error) {
    throw unavailable(error instanceof Error ? error.message : String(error));
  }
  return { hash: decoded.hash, request: { ...request, sign: decoded.sign } };
}

function unavailable(message: string): SignerError {
  return new SignerError('SIGNER_UNAVAILABLE', message);
}
