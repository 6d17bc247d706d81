/**
 * The remote signer's server (`akira-mm signer serve`): holds the key in its own process, listens
 * on a Unix socket and signs only what its {@link SigningPolicy} allows. Every request is parsed
 * with the venue's own body parsers and checked on those values; a request it cannot parse is
 * refused as kind `request`. Refusals are logged as security events and counted by the audit.
 *
 * Who may connect: the socket file is created with mode 0600 (0660 on request, for a daemon
 * running as another user in the signer's group); `listenOwnerOnly` (src/core/line-socket.ts,
 * shared with the daemon's control socket) says why that is the peer authentication.
 */
import type { Server, Socket } from 'node:net';
import { listenOwnerOnly, type Logger } from '../../../core/index.ts';
import { fastSignMessageHash, parseFastSignChallenge } from '../../client/fast-sign.ts';
import { WireError, feltToHex } from '../../wire/fields.ts';
import {
  parseCancelAllBody,
  parseCancelBody,
  parseIncreaseNonceBody,
  parseOrderBody,
  parseWithdrawBody,
} from '../../wire/requests.ts';
import type { SigningAudit } from '../audit.ts';
import type { SigningPool } from '../pool.ts';
import { SigningRefusedError } from '../policy.ts';
import type { Refusal } from '../refusal.ts';
import type { Signer } from '../signer.ts';
import {
  BODY_OPS,
  PROTOCOL_VERSION,
  encodeLine,
  encodePolicy,
  encodeSigned,
  onLines,
  type BodyOp,
  type HelloAnswer,
  type RemoteResponse,
  type SignedWire,
} from './protocol.ts';

/** Options of {@link SignerServer.start}. */
export interface SignerServerOptions {
  readonly socketPath: string;
  /** The key holder; must carry a policy (a remote signer without one would sign anything). */
  readonly signer: Signer;
  /** Worker threads for batches (pre-signing); without one, batches are signed inline. */
  readonly pool?: SigningPool;
  /** Counts and logs refusals, including unparseable requests (the policy's own audit). */
  readonly audit: SigningAudit;
  readonly logger: Logger;
  /** 0o600 (default: the signer's user only) or 0o660 (its group too). */
  readonly socketMode?: 0o600 | 0o660;
}

class RequestRefused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.reason);
  }
}

/** A listening remote signer. */
export class SignerServer {
  readonly socketPath: string;
  readonly #server: Server;
  readonly #options: SignerServerOptions;
  readonly #sockets = new Set<Socket>();
  #stopped = false;

  private constructor(server: Server, options: SignerServerOptions) {
    this.#server = server;
    this.#options = options;
    this.socketPath = options.socketPath;
  }

  /**
   * Listens on the socket path (a stale socket file left by a crash is replaced; a live one is not).
   * @throws Error when the signer has no policy, the path is in use or cannot be created.
   */
  static async start(options: SignerServerOptions): Promise<SignerServer> {
    if (options.signer.policy === undefined) throw new Error('a remote signer needs a signing policy');
    // No connection is read before the instance exists to answer it.
    let accept = (socket: Socket): void => void socket.destroy();
    const server = await listenOwnerOnly({ socketPath: options.socketPath, mode: options.socketMode ?? 0o600, what: 'signer', onConnection: (socket) => accept(socket) });
    const instance = new SignerServer(server, options);
    accept = (socket) => instance.#accept(socket);
    return instance;
  }

  /** Open client connections. */
  get connections(): number {
    return this.#sockets.size;
  }

  /** Stops listening, drops connections and removes the socket file. Idempotent. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
    await this.#options.pool?.close();
  }

  #accept(socket: Socket): void {
    const { logger } = this.#options;
    this.#sockets.add(socket);
    logger.info({ connections: this.#sockets.size }, 'signer client connected');
    onLines(
      socket,
      (line) => void this.#answer(line).then((response) => socket.writable && socket.write(encodeLine(response))),
      (error) => {
        this.#refuse('unknown', { kind: 'request', reason: error.message });
        socket.destroy();
      },
    );
    socket.on('error', (error) => logger.warn({ err: describe(error) }, 'signer client connection failed'));
    socket.on('close', () => {
      this.#sockets.delete(socket);
      logger.info({ connections: this.#sockets.size }, 'signer client disconnected');
    });
  }

  async #answer(line: string): Promise<RemoteResponse> {
    let id: number | null = null;
    let op = 'unknown';
    try {
      const request = JSON.parse(line) as Record<string, unknown>;
      id = typeof request['id'] === 'number' ? request['id'] : null;
      op = typeof request['op'] === 'string' ? request['op'] : 'unknown';
      if (id === null) throw new RequestRefused({ kind: 'request', reason: 'a request without a numeric id' });
      return { id, ok: await this.#handle(op, request) };
    } catch (error) {
      return { id, error: this.#errorOf(op, error) };
    }
  }

  async #handle(op: string, request: Record<string, unknown>): Promise<unknown> {
    const { signer, pool } = this.#options;
    const chain = signer.hasher.chain;
    if (op === 'hello') return this.#hello(request);
    if (op === 'login') {
      const challenge = parseWire(() => BigInt(String(request['challenge'])), 'challenge');
      const { hash, signature } = signer.signLogin(challenge);
      return encodeSigned(hash, signature);
    }
    if (op === 'fast-sign') {
      const challenge = parseWire(() => parseFastSignChallenge(request['challenge']), 'challenge');
      return encodeSigned(fastSignMessageHash(chain, signer.account, challenge), signer.signFastSign(challenge));
    }
    if (op === 'orders') {
      const bodies = request['bodies'];
      if (!Array.isArray(bodies)) throw new RequestRefused({ kind: 'request', reason: 'orders: bodies must be an array' });
      const orders = bodies.map((body, index) => parseWire(() => parseOrderBody(body, chain), `bodies[${index}]`));
      const signed = pool === undefined ? signer.signOrders(orders) : await pool.signOrders(orders);
      return { signed: signed.map((entry): SignedWire => encodeSigned(entry.hash, entry.request.sign)) };
    }
    if (!(BODY_OPS as readonly string[]).includes(op)) throw new RequestRefused({ kind: 'request', reason: `unknown request ${JSON.stringify(op)}` });
    const body = request['body'];
    const signed = signBody(signer, op as BodyOp, body);
    return encodeSigned(signed.hash, signed.sign);
  }

  #hello(request: Record<string, unknown>): HelloAnswer {
    const { signer } = this.#options;
    const policy = signer.policy;
    if (policy === undefined) throw new Error('a remote signer needs a signing policy');
    if (request['version'] !== PROTOCOL_VERSION) {
      throw new RequestRefused({ kind: 'request', reason: `protocol version ${String(request['version'])}; this signer speaks ${PROTOCOL_VERSION}` });
    }
    if (request['chain'] !== policy.chain.name) {
      throw new RequestRefused({ kind: 'chain', reason: `client on ${String(request['chain'])}; this signer signs for ${policy.chain.name} only` });
    }
    const contracts = request['contracts'] as Partial<Record<'executorAddress' | 'coreAddress' | 'feeRecipient', unknown>> | undefined;
    const sameContracts = (['executorAddress', 'coreAddress', 'feeRecipient'] as const).every(
      (key) => typeof contracts?.[key] === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(contracts[key]) && BigInt(contracts[key]) === BigInt(policy.chain[key]),
    );
    if (!sameContracts) {
      const ours = `executor ${policy.chain.executorAddress}, core ${policy.chain.coreAddress}, fee recipient ${policy.chain.feeRecipient}`;
      throw new RequestRefused({ kind: 'chain', reason: `client with other contract addresses (${JSON.stringify(contracts)}); this signer hashes ${ours}` });
    }
    const account = parseWire(() => BigInt(String(request['account'])), 'account');
    if (account !== policy.spec.account) {
      throw new RequestRefused({ kind: 'account', reason: `client for account ${feltToHex(account)}; this signer signs for ${feltToHex(policy.spec.account)} only` });
    }
    return { version: PROTOCOL_VERSION, chain: policy.chain.name, account: feltToHex(signer.account), starkKey: feltToHex(signer.starkKey), policy: encodePolicy(policy.spec) };
  }

  #errorOf(op: string, error: unknown): { code: string; kind?: Refusal['kind']; message: string } {
    if (error instanceof SigningRefusedError) return { code: error.code, kind: error.kind, message: error.reason };
    if (error instanceof RequestRefused || error instanceof SyntaxError) {
      const refusal = error instanceof RequestRefused ? error.refusal : { kind: 'request' as const, reason: 'the line is not JSON' };
      this.#refuse(op, refusal);
      return { code: 'SIGNER_REFUSED', kind: refusal.kind, message: refusal.reason };
    }
    this.#options.logger.error({ err: describe(error), op }, 'signer failed');
    return { code: 'SIGNER_UNAVAILABLE', message: `signer failed: ${describe(error)}` };
  }

  #refuse(op: string, refusal: Refusal): void {
    this.#options.audit.refused(op, refusal);
  }
}

function signBody(signer: Signer, op: BodyOp, body: unknown): { hash: bigint; sign: { r: bigint; s: bigint } | undefined } {
  const chain = signer.hasher.chain;
  const parsed = <T>(parse: () => T): T => parseWire(parse, 'body');
  switch (op) {
    case 'order': {
      const signed = signer.signOrder(parsed(() => parseOrderBody(body, chain)));
      return { hash: signed.hash, sign: signed.request.sign };
    }
    case 'cancel': {
      const signed = signer.signCancel(parsed(() => parseCancelBody(body)));
      return { hash: signed.hash, sign: signed.request.sign };
    }
    case 'cancel-all': {
      const signed = signer.signCancelAll(parsed(() => parseCancelAllBody(body, chain)));
      return { hash: signed.hash, sign: signed.request.sign };
    }
    case 'withdraw': {
      const signed = signer.signWithdraw(parsed(() => parseWithdrawBody(body, chain)));
      return { hash: signed.hash, sign: signed.request.sign };
    }
    case 'increase-nonce': {
      const signed = signer.signIncreaseNonce(parsed(() => parseIncreaseNonceBody(body, chain)));
      return { hash: signed.hash, sign: signed.request.sign };
    }
  }
}

/** Runs a parser; a malformed value becomes a `request` refusal naming the field. */
function parseWire<T>(parse: () => T, field: string): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof WireError) throw new RequestRefused({ kind: 'request', reason: error.message });
    if (error instanceof SyntaxError || error instanceof TypeError || error instanceof RangeError) {
      throw new RequestRefused({ kind: 'request', reason: `${field}: ${error.message}` });
    }
    throw error;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
