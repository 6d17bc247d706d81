/**
 * A Starknet account contract on the double: an OpenZeppelin-style account whose owner is one Stark
 * key. It holds the account's transaction nonce and answers `is_valid_signature` (SNIP-6), which
 * the core contract's `account` sign scheme calls. Invokes are validated by the double's
 * transaction code against `publicKey`, as the account's `__validate__` would.
 */
import { Revert, type DoubleContract, type EntryPoint } from './double-chain.ts';
import { entries, feltAt, shortString } from './felts.ts';
import { verifySignature } from '../../exchange/signer/index.ts';

/** The class hash the double reports for every account (OpenZeppelin account v0.x's, as on mainnet). */
export const ACCOUNT_CLASS_HASH = 0x61dac032f228abef9c6626f995015233097ae253a7f72d68552db02f2971b8fn;

/**
 * The account class as `starknet_getClassAt` returns it: a Sierra class whose ABI has an interface
 * entry, which is how starknet.js tells a Cairo 1 account (`getContractVersion`) from a Cairo 0 one.
 */
export const ACCOUNT_CLASS = {
  sierra_program: ['0x1', '0x6', '0x0'],
  contract_class_version: '0.1.0',
  entry_points_by_type: { CONSTRUCTOR: [], EXTERNAL: [], L1_HANDLER: [] },
  abi: JSON.stringify([
    { type: 'impl', name: 'AccountImpl', interface_name: 'openzeppelin::account::interface::ISRC6' },
    {
      type: 'interface',
      name: 'openzeppelin::account::interface::ISRC6',
      items: [
        {
          type: 'function',
          name: 'is_valid_signature',
          inputs: [
            { name: 'hash', type: 'core::felt252' },
            { name: 'signature', type: 'core::array::Array::<core::felt252>' },
          ],
          outputs: [{ type: 'core::felt252' }],
          state_mutability: 'view',
        },
      ],
    },
  ]),
} as const;

/** One account contract. */
export class AccountContract implements DoubleContract {
  readonly classHash = ACCOUNT_CLASS_HASH;
  nonce = 0n;
  private readonly table: Map<bigint, EntryPoint>;

  constructor(
    readonly address: bigint,
    readonly publicKey: bigint,
  ) {
    const valid: EntryPoint = (_scope, data) => {
      const hash = feltAt(data, 0, 'hash');
      const length = Number(feltAt(data, 1, 'signature.len'));
      if (length !== 2) return [0n];
      return [this.verifies(hash, feltAt(data, 2, 'signature[0]'), feltAt(data, 3, 'signature[1]')) ? shortString('VALID') : 0n];
    };
    this.table = entries<EntryPoint>({
      is_valid_signature: valid,
      isValidSignature: valid,
      get_public_key: () => [publicKey],
      getPublicKey: () => [publicKey],
      __execute__: () => {
        throw new Revert('Account: __execute__ is only called by the sequencer (send an invoke transaction)');
      },
    });
  }

  entry(selector: bigint): EntryPoint | undefined {
    return this.table.get(selector);
  }

  snapshot(): () => void {
    return () => undefined;
  }

  /** The owner's ECDSA signature over `hash`. */
  verifies(hash: bigint, r: bigint, s: bigint): boolean {
    try {
      return verifySignature(hash, { r, s }, this.publicKey);
    } catch {
      return false;
    }
  }
}
