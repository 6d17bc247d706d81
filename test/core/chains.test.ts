import { describe, expect, it } from 'vitest';
import { findTokenByAddress, getChain, getToken } from '../../src/core/index.ts';

describe('chain table', () => {
  it('carries the published chain ids and the executor and core addresses', () => {
    expect(getChain('mainnet').chainId).toBe('0x534e5f4d41494e');
    expect(getChain('sepolia').chainId).toBe('0x534e5f5345504f4c4941');
    expect(getChain('mainnet').executorAddress).toBe('0x7e684cf1d9b3e511cbc36bd75805726e11430607859f205930dbfa910a04e16');
    expect(getChain('sepolia').coreAddress).toBe('0x3593d9c41f3afda55fbffd73506937023870c9213d166ab36e5ca56c25c42bf');
  });

  it('has ETH, STRK, USDC and USDT with their decimals on both chains and the test tokens on sepolia', () => {
    for (const name of ['mainnet', 'sepolia'] as const) {
      const chain = getChain(name);
      expect(getToken(chain, 'ETH').decimals).toBe(18);
      expect(getToken(chain, 'STRK').decimals).toBe(18);
      expect(getToken(chain, 'USDC').decimals).toBe(6);
      expect(getToken(chain, 'USDT').decimals).toBe(6);
    }
    expect(getToken(getChain('sepolia'), 'AUSDC').decimals).toBe(6);
    expect(() => getToken(getChain('mainnet'), 'AUSDC')).toThrow(/unknown token "AUSDC" on mainnet; allowed: ETH, STRK/);
  });

  it('finds tokens by address whatever the zero padding', () => {
    const chain = getChain('mainnet');
    expect(findTokenByAddress(chain, '0x49d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7')?.symbol).toBe('ETH');
    expect(findTokenByAddress(chain, '0x1')).toBeUndefined();
    expect(findTokenByAddress(chain, 'not hex')).toBeUndefined();
  });
});
