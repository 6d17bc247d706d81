/**
 * starknet.js, loaded on first use. The daemon's hot paths never touch it (orders are hashed and
 * signed by our own signer); only rare paths do: reading the core contract over JSON-RPC
 * (`STARKNET_RPC_URL`), the fast-sign login (`FAST_CANCEL=on`), a Poseidon withdraw hash, the
 * sim's RPC answers. Importing it statically cost every daemon ~4 MB of V8 heap and its
 * dependency graph (@noble/curves, the starknet-types packages, lossless-json) for the life of
 * the process (RELIABILITY.md "Lean daemon"), so it is `require`d the first time one of those
 * paths runs: synchronously, so the callers keep their signatures.
 */
import { createRequire } from 'node:module';
import type * as StarknetJs from 'starknet';

let loaded: typeof StarknetJs | undefined;

/** The starknet.js module (its CommonJS build), loaded on the first call. */
export function starknetJs(): typeof StarknetJs {
  loaded ??= createRequire(import.meta.url)('starknet') as typeof StarknetJs;
  return loaded;
}
