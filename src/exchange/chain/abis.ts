/**
 * LayerAkira's ABIs (./abi/*.json, sources and commits in ./abi/SOURCES.md), read on first use:
 * `require`d rather than imported, so the daemon, which never sends a transaction, does not parse
 * them, and the compiled copy of the sources (bin/compiled-sources.js copies the JSON files beside
 * the JavaScript) needs no import attributes.
 */
import { createRequire } from 'node:module';
import type { Abi } from 'starknet';

/** The ABIs we ship. */
export type AbiName = 'core' | 'executor' | 'erc20';

const loaded = new Map<AbiName, Abi>();

/** The ABI of `name`, parsed once. */
export function loadAbi(name: AbiName): Abi {
  let abi = loaded.get(name);
  if (abi === undefined) {
    abi = createRequire(import.meta.url)(`./abi/${name}.json`) as Abi;
    loaded.set(name, abi);
  }
  return abi;
}
