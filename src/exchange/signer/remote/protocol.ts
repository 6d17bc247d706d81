/**
 * The remote signer's wire protocol: one JSON object per line over a Unix socket, requests
 * carrying an `id` the answer repeats, so many requests share one connection and a pre-signing
 * batch never holds up an order signed in the hot path.
 *
 *   → {"id":1,"op":"hello","version":1,"chain":"mainnet","account":"0x…"}
 *   ← {"id":1,"ok":{"version":1,"chain":"mainnet","account":"0x…","starkKey":"0x…","policy":{…}}}
 *   → {"id":2,"op":"order","body":{…the /place_order body…}}
 *   ← {"id":2,"ok":{"hash":"0x…","sign":["0x…","0x…"]}}
 *   → {"id":3,"op":"orders","bodies":[…]}          ← {"id":3,"ok":{"signed":[{"hash","sign"},…]}}
 *   → {"id":4,"op":"login","challenge":"0x…"}       (also cancel, cancel-all, withdraw, increase-nonce)
 *   → {"id":6,"op":"fast-sign","challenge":{"msg":"…","expiration_ts":…}}
 *   ← {"id":5,"error":{"code":"SIGNER_REFUSED","kind":"pair","message":"…"}}
 *
 * Requests travel as the exact JSON bodies the venue receives (`src/exchange/wire/requests.ts`),
 * and the signer parses them with the venue's own parsers, then checks and hashes the parsed
 * values: what it signs is what the venue will read from the same body.
 */
import { CHAIN_NAMES, type ChainName, type ContractOverrides } from '../../../core/index.ts';
// The line framing is shared with the daemon's control socket (`src/core/line-socket.ts`).
export { MAX_LINE_BYTES, onLines } from '../../../core/index.ts';
import { feltToHex, type StarkSignature } from '../../wire/fields.ts';
import type { SigningPolicySpec } from '../policy.ts';
import { REFUSAL_KINDS, type RefusalKind } from '../refusal.ts';

export const PROTOCOL_VERSION = 1;

/** Request kinds that carry one venue body. */
export type BodyOp = 'order' | 'cancel' | 'cancel-all' | 'withdraw' | 'increase-nonce';
export const BODY_OPS: readonly BodyOp[] = ['order', 'cancel', 'cancel-all', 'withdraw', 'increase-nonce'];

/** A request without its id. */
export type RemoteCall =
  | {
      readonly op: 'hello';
      readonly version: number;
      readonly chain: string;
      readonly account: string;
      /** The client's contract constants: the signer refuses a client that would hash others. */
      readonly contracts: { readonly executorAddress: string; readonly coreAddress: string; readonly feeRecipient: string };
    }
  | { readonly op: 'login'; readonly challenge: string }
  | { readonly op: 'fast-sign'; readonly challenge: { readonly msg: string; readonly expiration_ts: number } }
  | { readonly op: BodyOp; readonly body: Record<string, unknown> }
  | { readonly op: 'orders'; readonly bodies: readonly Record<string, unknown>[] };

export type RemoteRequest = RemoteCall & { readonly id: number };

/** A signature and the hash it signs, as hex. */
export interface SignedWire {
  readonly hash: string;
  readonly sign: readonly [string, string];
}

/** The policy as JSON (bigints as decimal strings). */
export interface PolicyWire {
  readonly chain: string;
  readonly account: string;
  readonly pairs: readonly { readonly base: string; readonly quote: string; readonly maxOrderNotionalUnits: string | null }[];
  readonly withdrawReceivers: readonly string[];
  readonly contracts?: ContractOverrides;
}

export interface HelloAnswer {
  readonly version: number;
  readonly chain: string;
  readonly account: string;
  readonly starkKey: string;
  readonly policy: PolicyWire;
}

/** An error answer; for a refusal (`SIGNER_REFUSED`) `kind` is set and `message` is the reason. */
export interface RemoteErrorWire {
  readonly code: string;
  readonly kind?: RefusalKind;
  readonly message: string;
}

export type RemoteResponse = { readonly id: number; readonly ok: unknown } | { readonly id: number | null; readonly error: RemoteErrorWire };

/** One message as a line. */
export function encodeLine(message: RemoteRequest | RemoteResponse): string {
  return `${JSON.stringify(message)}\n`;
}

export function encodeSigned(hash: bigint, sign: StarkSignature | undefined): SignedWire {
  return { hash: feltToHex(hash), sign: [feltToHex(sign?.r ?? 0n), feltToHex(sign?.s ?? 0n)] };
}

/** @throws Error when the answer is not a signed hash. */
export function decodeSigned(value: unknown): { hash: bigint; sign: StarkSignature } {
  const wire = value as Partial<SignedWire> | null;
  const hexes = [wire?.hash, wire?.sign?.[0], wire?.sign?.[1]];
  if (!hexes.every((text) => typeof text === 'string' && /^0x[0-9a-f]{1,64}$/.test(text))) throw new Error('malformed signature in the answer');
  const [hash, r, s] = hexes.map((text) => BigInt(text as string)) as [bigint, bigint, bigint];
  return { hash, sign: { r, s } };
}

export function encodePolicy(spec: SigningPolicySpec): PolicyWire {
  return {
    chain: spec.chain,
    account: feltToHex(spec.account),
    pairs: spec.pairs.map((pair) => ({ base: pair.base, quote: pair.quote, maxOrderNotionalUnits: pair.maxOrderNotionalUnits?.toString() ?? null })),
    withdrawReceivers: spec.withdrawReceivers.map(feltToHex),
    ...(spec.contracts === undefined ? {} : { contracts: spec.contracts }),
  };
}

/** @throws Error naming what is malformed. */
export function decodePolicy(wire: PolicyWire): SigningPolicySpec {
  if (!(CHAIN_NAMES as readonly string[]).includes(wire.chain)) throw new Error(`unknown chain ${JSON.stringify(wire.chain)} in the policy`);
  return {
    chain: wire.chain as ChainName,
    account: BigInt(wire.account),
    pairs: wire.pairs.map((pair) => ({
      base: pair.base,
      quote: pair.quote,
      ...(pair.maxOrderNotionalUnits === null ? {} : { maxOrderNotionalUnits: BigInt(pair.maxOrderNotionalUnits) }),
    })),
    withdrawReceivers: wire.withdrawReceivers.map((receiver) => BigInt(receiver)),
    ...(wire.contracts === undefined ? {} : { contracts: wire.contracts }),
  };
}

/** The refusal kind of an error answer, when it names a known one. */
export function refusalKindOf(error: RemoteErrorWire): RefusalKind | undefined {
  return error.kind !== undefined && REFUSAL_KINDS.includes(error.kind) ? error.kind : undefined;
}
