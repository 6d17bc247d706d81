/**
 * Fast-sign keys (REFERENCE §2.1, docs/venue.md "fast cancels"): `GET /sign/request_fast_sign_key`
 * returns `{msg, expiration_ts}`; the signer signs a SNIP-12 rev 0 message built from it and
 * `POST /sign/issue_fast_sign_key {msg, signature}` returns a key. Cancels and cancel-alls then
 * carry `fast_sign_key` and a zero signature, so no Stark signature is computed on the way out and
 * none is verified by the venue.
 *
 * The typed data is python_akira HttpClient.py `get_fast_sign_typed_data` (d8df017) and akira-js
 * `getTypedDataForFastCancel` (branch features/webLimitOrders, 286eb4d): the login domain,
 * `Message(welcome, to, exchange, warning, expiration)`, all `string`. It is hashed once per key
 * with starknet.js's reference `typedData` (not the fast order hasher: this is not a hot path).
 */
import type { TypedData } from 'starknet';
import type { ChainInfo } from '../../core/index.ts';
import { starknetJs } from '../chain/starknet-js.ts';
import { FieldReader, WireError } from '../wire/fields.ts';

/** What `/sign/request_fast_sign_key` answers. */
export interface FastSignChallenge {
  /** The challenge, a string of digits (so rev 0 encodes it as that integer, like the login's). */
  readonly msg: string;
  /** When the key will stop working, epoch seconds. */
  readonly expirationTs: number;
}

/** How long the SDKs declare a key valid in the signed text ("valid for 1 h"). */
export const FAST_SIGN_VALID_HOURS = 1;

/** The typed data a signer signs to obtain a fast-sign key. */
export function fastSignTypedData(chain: ChainInfo, challenge: FastSignChallenge): TypedData {
  return {
    domain: { name: 'LayerAkira Exchange', version: '0.0.1', chainId: chain.chainId },
    types: {
      StarkNetDomain: [
        { name: 'name', type: 'felt' },
        { name: 'version', type: 'felt' },
        { name: 'chainId', type: 'felt' },
      ],
      Message: [
        { name: 'welcome', type: 'string' },
        { name: 'to', type: 'string' },
        { name: 'exchange', type: 'string' },
        { name: 'warning', type: 'string' },
        { name: 'expiration', type: 'string' },
      ],
    },
    primaryType: 'Message',
    message: {
      welcome: 'Fast sign LayerAkira',
      to: '\tChallenge:',
      exchange: challenge.msg,
      warning: `valid for ${FAST_SIGN_VALID_HOURS} h`,
      expiration: `expiration ts ${challenge.expirationTs}`,
    },
  };
}

/** The message hash (account = the trading account, as for the login). */
export function fastSignMessageHash(chain: ChainInfo, account: bigint, challenge: FastSignChallenge): bigint {
  return BigInt(starknetJs().typedData.getMessageHash(fastSignTypedData(chain, challenge), account));
}

/** Parses `{msg, expiration_ts}`; `msg` may come as digits or a JSON number. @throws WireError */
export function parseFastSignChallenge(result: unknown): FastSignChallenge {
  const reader = FieldReader.root(result, 'result');
  const raw = reader.raw('msg');
  const msg = typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : raw;
  if (typeof msg !== 'string' || !/^\d{1,76}$/.test(msg)) throw new WireError('result.msg', `expected a string of digits, got ${JSON.stringify(raw)}`);
  return { msg, expirationTs: reader.uint('expiration_ts', 53) };
}
