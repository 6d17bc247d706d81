/**
 * The trading accounts `akira-mm feed --accounts FILE` serves, as JSON:
 *
 *   {"accounts": [
 *     {"apiKey": "…", "secretKey": "…",                          // an HMAC key
 *      "balances": {"ETH": "10", "USDT": "30000"}, "takerCommission": "0.001"},
 *     {"apiKey": "…", "ed25519PublicKey": "-----BEGIN PUBLIC KEY-----…",   // an Ed25519 key
 *      "balances": {…}}
 *   ]}
 *
 * Balances are decimal text (8 places at most), commission a fraction (default 0.001, Binance's
 * standard spot taker rate). Parsed once, every problem named with its account and field.
 */
import { readFileSync } from 'node:fs';
import { createPublicKey, type KeyObject } from 'node:crypto';
import { parseUnits } from '../../../core/index.ts';
import { BinanceError } from '../errors.ts';
import { BINANCE_DECIMALS } from '../trading/rules.ts';

/** One account as configured. */
export interface AccountSpec {
  readonly apiKey: string;
  /** HMAC secret, or the Ed25519 public key the requests are verified with. */
  readonly secretKey: string | undefined;
  readonly publicKey: KeyObject | undefined;
  /** Starting free balances by asset, 8-decimal units. */
  readonly balances: ReadonlyMap<string, bigint>;
  /** Taker commission, parts per 10^8 (0.001 = 100 000). */
  readonly takerCommissionE8: bigint;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Parses the accounts document.
 * @throws BinanceError `BINANCE_MALFORMED` naming the account and field at fault.
 */
export function parseAccounts(document: unknown, source = 'accounts'): AccountSpec[] {
  const fail = (what: string): never => {
    throw new BinanceError('BINANCE_MALFORMED', `${source}: ${what}`);
  };
  const list = isObject(document) && Array.isArray(document['accounts']) ? (document['accounts'] as unknown[]) : fail('expected {"accounts": [ … ]}');
  const seen = new Set<string>();
  return list.map((item, index): AccountSpec => {
    const where = `accounts[${index}]`;
    if (!isObject(item)) return fail(`${where} is not an object`);
    const apiKey = item['apiKey'];
    if (typeof apiKey !== 'string' || !/^[A-Za-z0-9]{8,128}$/.test(apiKey)) return fail(`${where}.apiKey must be 8–128 letters or digits`);
    if (seen.has(apiKey)) return fail(`${where}.apiKey is used twice`);
    seen.add(apiKey);
    const secret = item['secretKey'];
    const pem = item['ed25519PublicKey'];
    if ((secret === undefined) === (pem === undefined)) return fail(`${where}: give exactly one of secretKey (HMAC) and ed25519PublicKey (PEM)`);
    if (secret !== undefined && (typeof secret !== 'string' || secret.length < 8)) return fail(`${where}.secretKey must be a string of at least 8 characters`);
    let publicKey: KeyObject | undefined;
    if (pem !== undefined) {
      try {
        publicKey = createPublicKey(String(pem));
      } catch {
        return fail(`${where}.ed25519PublicKey is not a PEM public key`);
      }
      if (publicKey.asymmetricKeyType !== 'ed25519') return fail(`${where}.ed25519PublicKey is not an Ed25519 key`);
    }
    const balances = new Map<string, bigint>();
    const rawBalances = item['balances'];
    if (rawBalances !== undefined && !isObject(rawBalances)) return fail(`${where}.balances must be {"ASSET": "amount"}`);
    for (const [asset, amount] of Object.entries(rawBalances ?? {})) {
      if (!/^[A-Z0-9]{1,20}$/.test(asset)) return fail(`${where}.balances: ${asset} is not an asset name`);
      try {
        balances.set(asset, parseUnits(String(amount), BINANCE_DECIMALS));
      } catch {
        return fail(`${where}.balances.${asset}=${String(amount)} is not a decimal with at most 8 places`);
      }
    }
    const commission = item['takerCommission'] ?? '0.001';
    let takerCommissionE8: bigint;
    try {
      takerCommissionE8 = parseUnits(String(commission), BINANCE_DECIMALS);
    } catch {
      return fail(`${where}.takerCommission=${String(commission)} is not a fraction like 0.001`);
    }
    if (takerCommissionE8 >= 10n ** BigInt(BINANCE_DECIMALS)) return fail(`${where}.takerCommission must be below 1`);
    return { apiKey, secretKey: typeof secret === 'string' ? secret : undefined, publicKey, balances, takerCommissionE8 };
  });
}

/**
 * Reads and parses an accounts file.
 * @throws BinanceError `BINANCE_MALFORMED` for an unreadable file or a bad entry.
 */
export function readAccountsFile(path: string): AccountSpec[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new BinanceError('BINANCE_MALFORMED', `cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new BinanceError('BINANCE_MALFORMED', `${path} is not JSON`);
  }
  return parseAccounts(document, path);
}
