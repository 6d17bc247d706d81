/**
 * Signing of Binance's SIGNED requests (rest-api.md "SIGNED Endpoint Examples", web-socket-api.md
 * "SIGNED request security"): an HMAC-SHA256 secret signs with a hex digest, an Ed25519 private
 * key (PKCS#8 PEM, as Binance's key generator writes it) with a base64 signature. The payload is
 * the percent-encoded query string (REST) or the request's params sorted by name (WebSocket API).
 * Keys stay in `Secret`s; only this module reveals them.
 */
import { createHmac, createPrivateKey, sign, type KeyObject } from 'node:crypto';
import type { Secret } from '../../../core/index.ts';
import { BinanceError } from '../errors.ts';

/** An API key and how its requests are signed. */
export interface BinanceCredentials {
  readonly apiKey: Secret;
  /** HMAC secret key; exactly one of this and `privateKeyPem`. */
  readonly secretKey?: Secret;
  /** Ed25519 private key, PEM text. */
  readonly privateKeyPem?: Secret;
}

/** Signs payloads with one API key. */
export class BinanceSigner {
  readonly kind: 'hmac' | 'ed25519';
  readonly #apiKey: Secret;
  readonly #hmacKey: Secret | undefined;
  readonly #privateKey: KeyObject | undefined;

  /** @throws BinanceError `BINANCE_AUTH` when neither or both keys are given, or the PEM is not an Ed25519 private key. */
  constructor(credentials: BinanceCredentials) {
    this.#apiKey = credentials.apiKey;
    if ((credentials.secretKey === undefined) === (credentials.privateKeyPem === undefined)) {
      throw new BinanceError('BINANCE_AUTH', 'give exactly one of an HMAC secret key and an Ed25519 private key');
    }
    this.#hmacKey = credentials.secretKey;
    if (credentials.privateKeyPem !== undefined) {
      let key: KeyObject;
      try {
        key = createPrivateKey(credentials.privateKeyPem.reveal());
      } catch {
        // The parser's message may quote the key material: say only what is wrong.
        throw new BinanceError('BINANCE_AUTH', 'the private key file is not a PEM private key');
      }
      if (key.asymmetricKeyType !== 'ed25519') throw new BinanceError('BINANCE_AUTH', `the private key is ${key.asymmetricKeyType ?? 'not asymmetric'}, not Ed25519`);
      this.#privateKey = key;
    }
    this.kind = this.#privateKey === undefined ? 'hmac' : 'ed25519';
  }

  /** The API key (the `X-MBX-APIKEY` header, the `apiKey` param). */
  apiKey(): string {
    return this.#apiKey.reveal();
  }

  /** The signature of `payload` (UTF-8): hex HMAC-SHA256, or base64 Ed25519. */
  sign(payload: string): string {
    if (this.#privateKey !== undefined) return sign(null, Buffer.from(payload, 'utf8'), this.#privateKey).toString('base64');
    return createHmac('sha256', (this.#hmacKey as Secret).reveal()).update(payload, 'utf8').digest('hex');
  }
}

/** `key=value&…` of `params` in the given order, values percent-encoded as URLSearchParams does (the REST payload). */
export function queryString(params: readonly (readonly [string, string])[]): string {
  return new URLSearchParams(params.map(([key, value]): [string, string] => [key, value])).toString();
}

/** The WebSocket API's payload: every param but `signature`, sorted by name, `key=value` joined by `&` (unencoded). */
export function websocketPayload(params: Readonly<Record<string, string | number>>): string {
  return Object.keys(params)
    .filter((key) => key !== 'signature')
    .sort()
    .map((key) => `${key}=${String(params[key])}`)
    .join('&');
}
