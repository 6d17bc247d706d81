/**
 * The signing policy: what the key holder agrees to sign for a market maker, checked on the very
 * request values it then hashes (never on a caller's description of them):
 * - orders: our account as maker, a pair on the allowed list (token addresses and decimals as
 *   hashed), a notional within that pair's limit (RISK_MAX_ORDER_NOTIONAL), no router or
 *   integrator fee and no router signer, the trade fee paid to the chain's exchange recipient;
 * - cancels: our account as maker (a CancelOrder's typed data names no pair; cancelling only
 *   ever reduces risk); cancel-all for an allowed pair;
 * - nonce increases (the on-chain kill) and the login message: our account;
 * - withdrawals: only to a receiver on WITHDRAW_ALLOWED_RECEIVERS (none by default: the bot never
 *   withdraws).
 * The chain is fixed by the signer itself: its SNIP-12 domain, executor and core addresses and
 * token table are the configured chain's, so nothing it signs is valid on another chain.
 */
import { formatUnits, getChain, getToken, withContracts, type ChainInfo, type ChainName, type ContractOverrides, type TokenInfo } from '../../core/index.ts';
import { feltToHex } from '../wire/fields.ts';
import type { CancelAllRequest, CancelRequest, IncreaseNonceRequest, OrderRequest, WithdrawRequest } from '../wire/requests.ts';
import type { SigningAudit } from './audit.ts';
import { SignerError } from './errors.ts';
import type { Refusal, RefusalKind, SignedKind } from './refusal.ts';

/** One pair the policy signs for. */
export interface AllowedPairSpec {
  readonly base: string;
  readonly quote: string;
  /** Largest notional of one order in quote base units; undefined = no limit. */
  readonly maxOrderNotionalUnits?: bigint;
}

/** The policy as plain data (structured-cloneable, so worker threads and the remote signer share it). */
export interface SigningPolicySpec {
  readonly chain: ChainName;
  /** The trading account: maker of every request and the login account. */
  readonly account: bigint;
  readonly pairs: readonly AllowedPairSpec[];
  /** Addresses a withdrawal may pay; empty = never withdraw. */
  readonly withdrawReceivers: readonly bigint[];
  /** The pair files' contract addresses where they replace the chain's (EXCHANGE_ADDRESS, FEE_RECIPIENT, …). */
  readonly contracts?: ContractOverrides;
}

/** A refused request. `kind` is the refusal's kind; the message never holds a secret. */
export class SigningRefusedError extends SignerError {
  readonly kind: RefusalKind;
  readonly reason: string;

  constructor(refusal: Refusal) {
    super('SIGNER_REFUSED', `signing refused (${refusal.kind}): ${refusal.reason}`);
    this.name = 'SigningRefusedError';
    this.kind = refusal.kind;
    this.reason = refusal.reason;
  }
}

interface AllowedPair {
  readonly base: TokenInfo;
  readonly quote: TokenInfo;
  readonly maxOrderNotionalUnits: bigint | undefined;
}

const pairKey = (base: string, quote: string): string => `${BigInt(base)}/${BigInt(quote)}`;

/**
 * The policy with its tokens resolved, and the audit that logs and counts refusals.
 * @throws MmError `CORE_UNKNOWN_TOKEN` when a pair names a token the chain does not have.
 */
export class SigningPolicy {
  readonly spec: SigningPolicySpec;
  readonly chain: ChainInfo;
  readonly #pairs: ReadonlyMap<string, AllowedPair>;
  readonly #receivers: ReadonlySet<bigint>;
  readonly #feeRecipient: bigint;
  readonly #audit: SigningAudit | undefined;

  constructor(spec: SigningPolicySpec, audit?: SigningAudit) {
    this.spec = spec;
    this.chain = withContracts(getChain(spec.chain), spec.contracts);
    const pairs = new Map<string, AllowedPair>();
    for (const pair of spec.pairs) {
      const base = getToken(this.chain, pair.base);
      const quote = getToken(this.chain, pair.quote);
      pairs.set(pairKey(base.address, quote.address), { base, quote, maxOrderNotionalUnits: pair.maxOrderNotionalUnits });
    }
    this.#pairs = pairs;
    this.#receivers = new Set(spec.withdrawReceivers);
    this.#feeRecipient = BigInt(this.chain.feeRecipient);
    this.#audit = audit;
  }

  /** The refusal of an order, or undefined when it may be signed. */
  orderRefusal(order: OrderRequest): Refusal | undefined {
    const maker = this.#makerRefusal(order.maker);
    if (maker !== undefined) return maker;
    const label = `${order.base.symbol}/${order.quote.symbol}`;
    const pair = this.#pairs.get(pairKey(order.base.address, order.quote.address));
    if (pair === undefined || pair.base.decimals !== order.base.decimals || pair.quote.decimals !== order.quote.decimals) {
      return { kind: 'pair', reason: `order for ${label}; allowed: ${this.#pairList()}` };
    }
    const fee = order.fee;
    const extraFee = [fee.routerFee, fee.integratorFee].some((f) => f.makerPbips !== 0 || f.takerPbips !== 0);
    if (extraFee || order.constraints.routerSigner !== 0n) {
      return { kind: 'fee', reason: `order for ${label} pays a router or integrator fee (or names a router signer); the bot never does` };
    }
    if (fee.tradeFee.recipient !== this.#feeRecipient) {
      return { kind: 'fee', reason: `order for ${label} pays its trade fee to ${feltToHex(fee.tradeFee.recipient)}, not the exchange's ${feltToHex(this.#feeRecipient)}` };
    }
    const limit = pair.maxOrderNotionalUnits;
    if (limit !== undefined && exceedsNotional(order, limit)) {
      const shown = `${formatUnits(order.baseQty, order.base.decimals)} ${order.base.symbol} at ${formatUnits(order.price, order.quote.decimals)}`;
      return { kind: 'notional', reason: `order of ${shown} is over the ${formatUnits(limit, order.quote.decimals)} ${order.quote.symbol} notional limit` };
    }
    return undefined;
  }

  cancelRefusal(cancel: CancelRequest): Refusal | undefined {
    return this.#makerRefusal(cancel.maker);
  }

  cancelAllRefusal(cancel: CancelAllRequest): Refusal | undefined {
    const maker = this.#makerRefusal(cancel.maker);
    if (maker !== undefined) return maker;
    if (!this.#pairs.has(pairKey(cancel.base.address, cancel.quote.address))) {
      return { kind: 'pair', reason: `cancel-all for ${cancel.base.symbol}/${cancel.quote.symbol}; allowed: ${this.#pairList()}` };
    }
    return undefined;
  }

  increaseNonceRefusal(request: IncreaseNonceRequest): Refusal | undefined {
    return this.#makerRefusal(request.maker);
  }

  withdrawRefusal(withdraw: WithdrawRequest): Refusal | undefined {
    const maker = this.#makerRefusal(withdraw.maker);
    if (maker !== undefined) return maker;
    if (!this.#receivers.has(withdraw.receiver)) {
      const allowed = this.#receivers.size === 0 ? 'none (WITHDRAW_ALLOWED_RECEIVERS is empty)' : [...this.#receivers].map(feltToHex).join(', ');
      return { kind: 'withdraw', reason: `withdrawal to ${feltToHex(withdraw.receiver)}; allowed receivers: ${allowed}` };
    }
    return undefined;
  }

  loginRefusal(account: bigint): Refusal | undefined {
    return this.#makerRefusal(account);
  }

  /** True when the order would be signed (no audit: for speculative pre-signing). */
  allowsOrder(order: OrderRequest): boolean {
    return this.orderRefusal(order) === undefined;
  }

  /**
   * Throws when `refusal` is set, after logging it as a security event and counting it.
   * @throws SigningRefusedError
   */
  enforce(kind: SignedKind, refusal: Refusal | undefined): void {
    if (refusal === undefined) return;
    this.#audit?.refused(kind, refusal);
    throw new SigningRefusedError(refusal);
  }

  #makerRefusal(maker: bigint): Refusal | undefined {
    if (maker === this.spec.account) return undefined;
    return { kind: 'account', reason: `request for account ${feltToHex(maker)}; this signer signs only for ${feltToHex(this.spec.account)}` };
  }

  #pairList(): string {
    return [...this.#pairs.values()].map((pair) => `${pair.base.symbol}/${pair.quote.symbol}`).join(', ') || 'none';
  }
}

/**
 * Whether an order could exchange more than `limit` quote units: price × base quantity when both
 * are set (capped by a non-zero quote quantity), else the quote quantity (0 = unbounded). Exact
 * integer comparison, the same bound the risk guard clips to.
 */
function exceedsNotional(order: OrderRequest, limit: bigint): boolean {
  const scale = 10n ** BigInt(order.base.decimals);
  // A price of 0 bounds nothing (a market order without protection): only the quote quantity can.
  if (order.baseQty > 0n && order.price > 0n) {
    if (order.quoteQty > 0n && order.quoteQty <= limit) return false;
    return order.price * order.baseQty > limit * scale;
  }
  return order.quoteQty === 0n || order.quoteQty > limit;
}
