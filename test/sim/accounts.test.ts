import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { devAccounts } from '../../src/exchange/signer/index.ts';
import { DEV_BALANCES, fundDevAccounts, parseAccountsFile } from '../../src/sim/index.ts';
import { CHAIN, units } from './fixtures.ts';

describe('accounts', () => {
  it('funds the signer’s dev accounts of seed 0, the ones the shipped pair files trade with', () => {
    const [first] = fundDevAccounts(devAccounts(0, 2), CHAIN);
    const env = readFileSync('config/ETH-USDC.env', 'utf8');
    const account = /^TRADING_ACCOUNT=(0x[0-9a-f]+)$/m.exec(env)?.[1];
    expect(first?.address).toBe(BigInt(account ?? '0'));
    expect(first?.balances.get('USDC')).toBe(units('USDC', DEV_BALANCES['USDC'] ?? ''));
  });

  it('reads an accounts file with decimal balances per symbol', () => {
    const [account] = parseAccountsFile(JSON.stringify([{ address: '0x123', publicKey: '0x456', balances: { ETH: '1.5', USDC: '10' } }]), CHAIN);
    expect(account).toMatchObject({ address: 0x123n, publicKey: 0x456n });
    expect(account?.balances.get('ETH')).toBe(units('ETH', '1.5'));
  });

  it('names the entry and field of every problem in an accounts file', () => {
    expect(() => parseAccountsFile('[', CHAIN)).toThrow(/accounts: not valid JSON/);
    expect(() => parseAccountsFile('[]', CHAIN)).toThrow(/non-empty/);
    expect(() => parseAccountsFile(JSON.stringify([{ address: '0x1', publicKey: 'zz' }]), CHAIN)).toThrow(/accounts\[0\]\.publicKey/);
    expect(() => parseAccountsFile(JSON.stringify([{ address: '0x1', publicKey: '0x2', balances: { XYZ: '1' } }]), CHAIN)).toThrow(/accounts\[0\]\.balances\.XYZ/);
    expect(() => parseAccountsFile(JSON.stringify([{ address: '0x1', publicKey: '0x2' }, { address: '0x01', publicKey: '0x3' }]), CHAIN)).toThrow(/accounts\[1\]\.address: listed twice/);
    expect(() => parseAccountsFile(JSON.stringify([{ address: '0x1', publicKey: '0x2', balances: { USDC: '0.0000001' } }]), CHAIN)).toThrow(/accounts\[0\]\.balances\.USDC/);
  });
});
