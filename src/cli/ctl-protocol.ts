/**
 * The control socket's protocol (`akira-mm ctl` ↔ the daemon): one JSON object per line over the
 * owner-only Unix socket in the state directory (`controlSocketPath`), framed like the remote
 * signer's (src/core/line-socket.ts). One request per connection; the answer repeats its id.
 *
 *   → {"id":1,"op":"pause","pair":"ETH/USDC","by":{"uid":1000,"user":"ops","pid":4242}}
 *   ← {"id":1,"ok":{"pairs":[{"pair":"ETH/USDC","done":true,"state":"paused","reason":"paused"}]}}
 *   → {"id":2,"op":"set","key":"LADDER_BID_SPREAD_BPS","value":"8","by":{…}}
 *   ← {"id":2,"error":{"code":"CTL_REFUSED","message":"FAIR_PRICE needs a restart: …"}}
 *
 * `pair` absent = every pair of the account. Answers are the `--json` output of `ctl`, so their
 * keys are a contract: add, never rename.
 */

/** What `ctl` asks. */
export const CTL_OPS = ['status', 'pause', 'resume', 'cancel-all', 'set', 'reload'] as const;
export type CtlOp = (typeof CTL_OPS)[number];

/** Who asks, as the client reports it (Node reads no SO_PEERCRED; the socket's mode admits its owner only). */
export interface CtlCaller {
  readonly uid: number | null;
  readonly user: string | null;
  readonly pid: number;
}

/** One request. */
export interface CtlRequest {
  readonly id: number;
  readonly op: CtlOp;
  /** `BASE/QUOTE`; absent: every pair. */
  readonly pair?: string;
  /** `set` only. */
  readonly key?: string;
  readonly value?: string;
  readonly by: CtlCaller;
}

/** A pair's state as `ctl` shows it after a command. */
export interface CtlPairState {
  readonly pair: string;
  readonly state: string;
  /** The halt reason, else the pause reasons, else null. */
  readonly reason: string | null;
}

/** `ctl status`: every pair's state, position, quotes and PnL, and the status line's rows. */
export interface CtlStatus {
  readonly pairs: readonly (CtlPairState & {
    readonly strategy: string;
    readonly mid: number | null;
    readonly fair: number | null;
    /** Base held minus the inventory target, base tokens; and the cap (0 = none). */
    readonly position: number;
    readonly inventoryCap: number;
    readonly bids: readonly { readonly price: number; readonly size: number }[];
    readonly asks: readonly { readonly price: number; readonly size: number }[];
    readonly pnl: { readonly total: number; readonly realized: number; readonly fills: number };
  })[];
  readonly account: { readonly state: 'ok' | 'halted'; readonly reason: string | null };
  /** The rows the TTY status line shows. */
  readonly rows: readonly string[];
}

/** `ctl pause|resume`: per pair, whether it did anything, and the state after. */
export interface CtlSwitched {
  readonly pairs: readonly (CtlPairState & { readonly done: boolean })[];
}

/** `ctl cancel-all`: per pair, whether the venue confirmed that nothing of ours rests. */
export interface CtlCancelled {
  readonly pairs: readonly (CtlPairState & { readonly confirmed: boolean })[];
}

/** One key whose value changed (or would have): texts as written, the default where the file sets none. */
export interface CtlKeyChange {
  readonly key: string;
  readonly old: string;
  readonly new: string;
  /** Set when the key is another strategy's: applied, but this pair's strategy does not read it. */
  readonly unread?: string;
}

/** A key a running daemon did not take, and why. */
export interface CtlRefusedKey {
  readonly key: string;
  readonly reason: string;
}

/** `ctl set|reload`: per pair, what changed and what needs a restart. */
export interface CtlChanged {
  readonly pairs: readonly { readonly pair: string; readonly applied: readonly CtlKeyChange[]; readonly refused: readonly CtlRefusedKey[] }[];
}

/** Codes of a refused request: `CTL_REFUSED` (the daemon will not do it), `CTL_BAD_REQUEST` (malformed), `CTL_FAILED` (it broke). */
export type CtlErrorCode = 'CTL_REFUSED' | 'CTL_BAD_REQUEST' | 'CTL_FAILED';

export type CtlResponse = { readonly id: number; readonly ok: unknown } | { readonly id: number | null; readonly error: { readonly code: CtlErrorCode; readonly message: string } };

/** A request the daemon will not carry out; its message goes back to `ctl` as it is. */
export class CtlRefusal extends Error {
  constructor(
    readonly code: CtlErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CtlRefusal';
  }
}

/**
 * Reads one request line.
 * @throws CtlRefusal `CTL_BAD_REQUEST` naming the field that is missing or malformed.
 */
export function parseCtlRequest(line: string): CtlRequest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw new CtlRefusal('CTL_BAD_REQUEST', 'the request is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new CtlRefusal('CTL_BAD_REQUEST', 'the request is not a JSON object');
  const request = parsed as Record<string, unknown>;
  const bad = (field: string, allowed: string): CtlRefusal => new CtlRefusal('CTL_BAD_REQUEST', `${field}=${JSON.stringify(request[field]) ?? 'undefined'}: ${allowed}`);
  const { id, op, pair, key, value, by } = request;
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw bad('id', 'an integer');
  if (typeof op !== 'string' || !(CTL_OPS as readonly string[]).includes(op)) throw bad('op', `one of ${CTL_OPS.join(', ')}`);
  if (pair !== undefined && (typeof pair !== 'string' || !/^[A-Z0-9]+\/[A-Z0-9]+$/.test(pair))) throw bad('pair', 'BASE/QUOTE, e.g. ETH/USDC');
  if (op === 'set') {
    if (typeof key !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(key)) throw bad('key', 'an env key in capitals, e.g. LADDER_BID_SPREAD_BPS');
    if (typeof value !== 'string') throw bad('value', 'a string');
  }
  const caller = typeof by === 'object' && by !== null ? (by as Record<string, unknown>) : undefined;
  if (caller === undefined || typeof caller['pid'] !== 'number') throw bad('by', 'the caller: {"uid","user","pid"}');
  return {
    id,
    op: op as CtlOp,
    ...(pair === undefined ? {} : { pair: pair as string }),
    ...(op === 'set' ? { key: key as string, value: value as string } : {}),
    by: { uid: typeof caller['uid'] === 'number' ? caller['uid'] : null, user: typeof caller['user'] === 'string' ? caller['user'] : null, pid: caller['pid'] },
  };
}

/** One message as a line. */
export function encodeCtlLine(message: CtlRequest | CtlResponse): string {
  return `${JSON.stringify(message)}\n`;
}
