/**
 * Per-chain constants of LayerAkira: chain id, contract addresses, fee recipient and the token
 * table. The exchange never serves token decimals or addresses (REFERENCE §0), so clients, the
 * signer and the embedded exchange all read them from here. Sources (docs/venue.md §6):
 * - mainnet contracts: Mirong1707/withdraw-script-for-LayerAkira `config.toml` @5b8f84b (a
 *   user's script, not LayerAkira's own);
 * - Sepolia contracts and the fee recipient: NikitaMishin/akiraSampleInteraction
 *   `src/constants.ts` @87bbec2 (the SDK author's sample);
 * - the mainnet fee recipient has no public source: it is the Sepolia one. Pair files override
 *   every address (EXCHANGE_ADDRESS, CORE_ADDRESS, ROUTER_ADDRESS, FEE_RECIPIENT) and, with
 *   STARKNET_RPC_URL, the bot checks the fee recipient against the core contract at start.
 */
import { MmError } from './errors.ts';

/** Chains the bot can target. */
export type ChainName = 'mainnet' | 'sepolia';

/** All chain names, for validation messages. */
export const CHAIN_NAMES: readonly ChainName[] = ['mainnet', 'sepolia'];

/** One ERC-20 token the exchange trades. `address` is a lowercase 0x-hex felt. */
export interface TokenInfo {
  readonly symbol: string;
  readonly address: string;
  readonly decimals: number;
}

/** Everything chain-specific that a hash, a request or the embedded exchange needs. */
export interface ChainInfo {
  readonly name: ChainName;
  /** SNIP-12 domain chain id as a 0x-hex felt (short string "SN_MAIN" / "SN_SEPOLIA"). */
  readonly chainId: string;
  /** Core contract: `exchange` field of Withdraw typed data. */
  readonly coreAddress: string;
  /** Executor contract: `exchange` field of Order typed data. */
  readonly executorAddress: string;
  readonly routerAddress: string;
  /** The exchange's trade-fee recipient; no endpoint serves it (SPEC §5). */
  readonly feeRecipient: string;
  /** The token gas is priced in (REFERENCE §5: STRK, 18 decimals). */
  readonly nativeGasToken: string;
  readonly tokens: ReadonlyMap<string, TokenInfo>;
}

const FEE_RECIPIENT = '0x051d992db2a0b33c0a39cc821823f672b9c981cdba429be91380de9b84a85d4d';

const SHARED_TOKENS: readonly TokenInfo[] = [
  { symbol: 'ETH', address: '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7', decimals: 18 },
  { symbol: 'STRK', address: '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d', decimals: 18 },
  { symbol: 'USDC', address: '0x053c91253bc9682c04929ca02ed00b3e423f6710d2ee7e0d5ebb06f3ecf368a8', decimals: 6 },
  { symbol: 'USDT', address: '0x068f5c6a61780768455de69077e07e89787839bf8166decfbf92b645209c0fb8', decimals: 6 },
];

const MAINNET_ONLY_TOKENS: readonly TokenInfo[] = [
  { symbol: 'DOG', address: '0x040e81cfeb176bfdbc5047bbc55eb471cfab20a6b221f38d8fda134e1bfffca4', decimals: 5 },
];

/** Sepolia test tokens (EX constants.ts); the others of that list are not published with addresses. */
const SEPOLIA_TEST_TOKENS: readonly TokenInfo[] = [
  { symbol: 'AETH', address: '0x008a5529010b5dbf1cc6cfe457f3ea1964e6325838878af99f79fb62c0e19d73', decimals: 18 },
  { symbol: 'AUSDC', address: '0x060c1efa7d195d3b2c14c65fd5a2ada075a7c54ff4bc3fda9cc7bead527b3054', decimals: 6 },
  { symbol: 'AUSDT', address: '0x00d01adf56d9bf6c65617bc03127561d89807e5e8eb37f3fb8d0dc4c5116ea61', decimals: 6 },
];

function tokenMap(tokens: readonly TokenInfo[]): ReadonlyMap<string, TokenInfo> {
  return new Map(tokens.map((token) => [token.symbol, token]));
}

const CHAINS: Readonly<Record<ChainName, ChainInfo>> = {
  mainnet: {
    name: 'mainnet',
    chainId: '0x534e5f4d41494e',
    coreAddress: '0x51c728df04707161676ff0d1fdff99d73e7f9bdd313fdccb9f4f71747aed024',
    executorAddress: '0x7e684cf1d9b3e511cbc36bd75805726e11430607859f205930dbfa910a04e16',
    routerAddress: '0x65b58ddf6222da0bba453b59f472d18cab9d0dbc4839f19c4d4179044257353',
    feeRecipient: FEE_RECIPIENT,
    nativeGasToken: 'STRK',
    tokens: tokenMap([...SHARED_TOKENS, ...MAINNET_ONLY_TOKENS]),
  },
  sepolia: {
    name: 'sepolia',
    chainId: '0x534e5f5345504f4c4941',
    coreAddress: '0x3593d9c41f3afda55fbffd73506937023870c9213d166ab36e5ca56c25c42bf',
    executorAddress: '0x1315a7a8dea9df5f143ec6e1e86e1c13804b6278d12ac71c0741ca4efe139c2',
    routerAddress: '0x32ef0b2ba8212d917409f3f3805c8c750c0252a93ad18be484aa6986c7d2bd4',
    feeRecipient: FEE_RECIPIENT,
    nativeGasToken: 'STRK',
    tokens: tokenMap([...SHARED_TOKENS, ...SEPOLIA_TEST_TOKENS]),
  },
};

/** The constants of one chain. */
export function getChain(name: ChainName): ChainInfo {
  return CHAINS[name];
}

/** Contract addresses that replace a chain's defaults (0x-hex; EXCHANGE_ADDRESS, CORE_ADDRESS, …). */
export interface ContractOverrides {
  readonly executorAddress?: string | undefined;
  readonly coreAddress?: string | undefined;
  readonly routerAddress?: string | undefined;
  readonly feeRecipient?: string | undefined;
}

/**
 * A chain with some contract addresses replaced: what a pair file's EXCHANGE_ADDRESS,
 * CORE_ADDRESS, ROUTER_ADDRESS and FEE_RECIPIENT make of the defaults above, and what the
 * embedded exchange serves when told to play a venue with other contracts.
 */
export function withContracts(chain: ChainInfo, overrides: ContractOverrides = {}): ChainInfo {
  return {
    ...chain,
    executorAddress: overrides.executorAddress ?? chain.executorAddress,
    coreAddress: overrides.coreAddress ?? chain.coreAddress,
    routerAddress: overrides.routerAddress ?? chain.routerAddress,
    feeRecipient: overrides.feeRecipient ?? chain.feeRecipient,
  };
}

/** True when `value` names a supported chain. */
export function isChainName(value: string): value is ChainName {
  return (CHAIN_NAMES as readonly string[]).includes(value);
}

/**
 * The token with this symbol on this chain.
 * @throws MmError `CORE_UNKNOWN_TOKEN` naming the symbol and the symbols allowed.
 */
export function getToken(chain: ChainInfo, symbol: string): TokenInfo {
  const token = chain.tokens.get(symbol);
  if (token === undefined) {
    throw new MmError(
      'CORE_UNKNOWN_TOKEN',
      `unknown token "${symbol}" on ${chain.name}; allowed: ${[...chain.tokens.keys()].join(', ')}`,
    );
  }
  return token;
}

/** The token at this address (compared as numbers, so zero padding does not matter), if any. */
export function findTokenByAddress(chain: ChainInfo, address: string): TokenInfo | undefined {
  let wanted: bigint;
  try {
    wanted = BigInt(address);
  } catch {
    return undefined;
  }
  for (const token of chain.tokens.values()) {
    if (BigInt(token.address) === wanted) return token;
  }
  return undefined;
}
