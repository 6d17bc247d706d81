/**
 * Trading accounts of the embedded exchange: read from a user's file
 * (`[{address, publicKey, balances: {SYMBOL: "decimal"}}]`, publicKey = the Stark key as
 * starknet.js `getStarkKey` prints it) or derived from a seed like starknet-devnet's predeployed
 * accounts. Dev accounts know their private key so the CLI can print it; nothing else reads it.
 */
import { formatUnits, parseUnits, pow10, type ChainInfo } from '../core/index.ts';
import { WireError, parseFelt } from '../exchange/wire/fields.ts';

/** One account the venue knows. Balances in base units by token symbol. */
export interface SimAccount {
  readonly address: bigint;
  /** Stark key (x coordinate) of the signer bound to the account. */
  readonly publicKey: bigint;
  readonly balances: ReadonlyMap<string, bigint>;
  /** Only for derived dev accounts. Never logged. */
  readonly privateKey?: bigint;
}

/** Whole-token balances each dev account starts with (tokens the chain lacks are skipped). */
// Worth about the same at the reference prices (ETH 3000, STRK 0.5): a bot with the default 50 %
// inventory target starts balanced and quotes both sides instead of skewing to one.
export const DEV_BALANCES: Readonly<Record<string, string>> = {
  ETH: '100',
  STRK: '600000',
  USDC: '300000',
  USDT: '300000',
  AETH: '100',
  AUSDC: '300000',
  AUSDT: '300000',
};

/**
 * Parses the accounts file. Every problem names the entry and field.
 * @throws WireError e.g. `accounts[1].balances.ETH: "1.2.3" is not a plain decimal number`.
 */
export function parseAccountsFile(text: string, chain: ChainInfo): SimAccount[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new WireError('accounts', `not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!Array.isArray(json) || json.length === 0) throw new WireError('accounts', 'expected a non-empty JSON array');
  const seen = new Set<bigint>();
  return (json as unknown[]).map((entry, index) => {
    const path = `accounts[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new WireError(path, 'expected an object');
    const record = entry as Record<string, unknown>;
    const address = parseFelt(record['address'], `${path}.address`);
    if (seen.has(address)) throw new WireError(`${path}.address`, 'listed twice');
    seen.add(address);
    const publicKey = parseFelt(record['publicKey'], `${path}.publicKey`);
    const rawBalances = record['balances'] ?? {};
    if (typeof rawBalances !== 'object' || rawBalances === null || Array.isArray(rawBalances)) {
      throw new WireError(`${path}.balances`, 'expected an object of SYMBOL: "decimal"');
    }
    const balances = new Map<string, bigint>();
    for (const [symbol, value] of Object.entries(rawBalances as Record<string, unknown>)) {
      const token = chain.tokens.get(symbol);
      const field = `${path}.balances.${symbol}`;
      if (token === undefined) throw new WireError(field, `unknown token on ${chain.name}; allowed: ${[...chain.tokens.keys()].join(', ')}`);
      if (typeof value !== 'string' && typeof value !== 'number') throw new WireError(field, 'expected a decimal string');
      try {
        balances.set(symbol, parseUnits(String(value), token.decimals));
      } catch (error) {
        throw new WireError(field, error instanceof Error ? error.message : String(error));
      }
    }
    return { address, publicKey, balances };
  });
}

/** A key pair and address of the signer's development accounts (`devAccounts` in the signer). */
export interface DevKeys {
  readonly address: bigint;
  readonly privateKey: bigint;
  readonly starkKey: bigint;
}

/**
 * Funds the signer's deterministic dev accounts with {@link DEV_BALANCES} (the shipped pair files
 * name account 0 of seed 0, so `akira-mm sim` and the bot meet without setup).
 */
export function fundDevAccounts(keys: readonly DevKeys[], chain: ChainInfo): SimAccount[] {
  return keys.map((key) => {
    const balances = new Map<string, bigint>();
    for (const [symbol, amount] of Object.entries(DEV_BALANCES)) {
      const token = chain.tokens.get(symbol);
      if (token !== undefined) balances.set(symbol, parseUnits(amount, token.decimals));
    }
    return { address: key.address, publicKey: key.starkKey, balances, privateKey: key.privateKey };
  });
}

/** A devnet-style listing of accounts for the terminal (the only place a dev private key is shown). */
export function describeAccounts(accounts: readonly SimAccount[], chain: ChainInfo): string {
  const lines: string[] = [];
  accounts.forEach((account, index) => {
    lines.push(`| Account #${index}`);
    lines.push(`| Address:     0x${account.address.toString(16)}`);
    if (account.privateKey !== undefined) lines.push(`| Private key: 0x${account.privateKey.toString(16)}`);
    lines.push(`| Public key:  0x${account.publicKey.toString(16)}`);
    const balances = [...account.balances].map(([symbol, amount]) => `${formatUnits(amount, chain.tokens.get(symbol)?.decimals ?? 18)} ${symbol}`);
    lines.push(`| Balances:    ${balances.join(', ')}`);
    lines.push('');
  });
  return lines.join('\n');
}

/** A large balance for internal flow agents (they must never run dry). */
export function flowBalance(decimals: number): bigint {
  return 1_000_000_000n * pow10(decimals);
}

/** The dev accounts' Starknet wallets for the terminal: address and owner key (`ACCOUNT_PRIVATE_KEY` of `akira-mm account`). */
export function describeWallets(wallets: readonly { readonly address: bigint; readonly ownerPrivateKey: bigint; readonly ownerPublicKey: bigint }[]): string {
  return wallets
    .map((wallet, index) => [`| Wallet #${index}`, `| Address:     0x${wallet.address.toString(16)}`, `| Owner key:   0x${wallet.ownerPrivateKey.toString(16)}`, `| Owner pub:   0x${wallet.ownerPublicKey.toString(16)}`, ''].join('\n'))
    .join('\n');
}
