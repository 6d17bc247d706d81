/**
 * What `akira-mm account` would send, decided from the chain's state before anything is sent: the
 * calls of one transaction, or a refusal that names the problem (wrong chain, bound to another
 * signer, too little in the wallet, an allowance short of a deposit, a withdrawal beyond the
 * balance, a delay not yet passed). Pure functions over {@link AccountChainState}.
 */
import { formatUnits, type ChainInfo, type TokenInfo } from '../core/index.ts';
import type { AccountChainState, TokenHolding } from '../exchange/index.ts';
import { addressToHex } from '../exchange/wire/fields.ts';

/** One step of a plan, in words and as the call to send. */
export type PlanStep =
  | { readonly kind: 'bind'; readonly signer: bigint }
  | { readonly kind: 'approve'; readonly token: TokenInfo; readonly amount: bigint }
  | { readonly kind: 'deposit'; readonly token: TokenInfo; readonly amount: bigint }
  | { readonly kind: 'grant' };

/** A refusal: nothing is sent. */
export class PlanRefused extends Error {
  constructor(message: string) {
    super(`${message}; nothing sent`);
    this.name = 'PlanRefused';
  }
}

/** Human amount of a token. */
export function amountText(amount: bigint, token: TokenInfo): string {
  return `${formatUnits(amount, token.decimals)} ${token.symbol}`;
}

/**
 * @throws PlanRefused when the node's chain id is not the pair file's.
 */
export function checkChain(state: Pick<AccountChainState, 'chainId'>, chain: ChainInfo): void {
  if (state.chainId !== BigInt(chain.chainId)) {
    throw new PlanRefused(`wrong chain: the node answers chain id 0x${state.chainId.toString(16)}, CHAIN=${chain.name} is ${chain.chainId} (fix STARKNET_RPC_URL or CHAIN)`);
  }
}

/**
 * @throws PlanRefused when the account is bound to a signer other than ours (the core contract
 *   binds once per account: SignerComponent `bind_to_signer` asserts "ALREADY BINDED").
 */
export function checkBinding(state: AccountChainState, ours: bigint): void {
  if (state.boundSigner !== 0n && state.boundSigner !== ours) {
    throw new PlanRefused(
      `the account is bound to signer ${addressToHex(state.boundSigner)}, not to this pair file's ${addressToHex(ours)}: a binding cannot be changed (kurosawa_akira SignerComponent "ALREADY BINDED"); use the bound signer's key (SIGNER_*)`,
    );
  }
}

function holdingOf(state: AccountChainState, token: TokenInfo): TokenHolding {
  const holding = state.holdings.find((item) => item.token.symbol === token.symbol);
  if (holding === undefined) throw new Error(`no holding of ${token.symbol} was read`);
  return holding;
}

/**
 * The steps of `setup`: bind (unless bound to ours), for each deposit target the approve and
 * deposit that bring the exchange balance up to it, grant (unless granted). Steps already done
 * are left out, so a second run plans nothing.
 * @throws PlanRefused for another signer, or a wallet that cannot pay a deposit.
 */
export function planSetup(state: AccountChainState, chain: ChainInfo, ours: bigint, targets: readonly { readonly token: TokenInfo; readonly amount: bigint }[]): PlanStep[] {
  checkChain(state, chain);
  checkBinding(state, ours);
  const steps: PlanStep[] = [];
  if (state.boundSigner === 0n) steps.push({ kind: 'bind', signer: ours });
  for (const target of targets) {
    const holding = holdingOf(state, target.token);
    const missing = target.amount - holding.exchange;
    if (missing <= 0n) continue;
    if (holding.wallet < missing) {
      throw new PlanRefused(`too little ${target.token.symbol} in the wallet: ${amountText(holding.wallet, target.token)} held, ${amountText(missing, target.token)} needed to bring the exchange balance from ${amountText(holding.exchange, target.token)} to ${amountText(target.amount, target.token)}`);
    }
    if (holding.allowance < missing) steps.push({ kind: 'approve', token: target.token, amount: missing });
    steps.push({ kind: 'deposit', token: target.token, amount: missing });
  }
  if (!state.executorApproved) steps.push({ kind: 'grant' });
  return steps;
}

/**
 * A deposit of `amount` from the wallet.
 * @throws PlanRefused when the wallet holds less, or the allowance is short (approve first).
 */
export function planDeposit(state: AccountChainState, chain: ChainInfo, token: TokenInfo, amount: bigint): PlanStep[] {
  checkChain(state, chain);
  const holding = holdingOf(state, token);
  if (holding.wallet < amount) throw new PlanRefused(`too little ${token.symbol} in the wallet: ${amountText(holding.wallet, token)} held, ${amountText(amount, token)} to deposit`);
  if (holding.allowance < amount) {
    throw new PlanRefused(`the core contract may take ${amountText(holding.allowance, token)} of the wallet, less than ${amountText(amount, token)}: run \`akira-mm account approve --token ${token.symbol} --amount ${formatUnits(amount, token.decimals)}\` first (or \`account setup\`)`);
  }
  return [{ kind: 'deposit', token, amount }];
}

/** How long an on-chain withdrawal still waits: blocks and seconds (0 and 0 when it may be applied). */
export function withdrawWait(state: AccountChainState, holding: TokenHolding): { readonly blocks: number; readonly seconds: number } | undefined {
  const pending = holding.pendingWithdraw;
  if (pending === undefined) return undefined;
  return {
    blocks: Math.max(0, pending.requestedBlock + state.withdrawDelay.blocks - (state.blockNumber + 1)),
    seconds: Math.max(0, pending.requestedTs + state.withdrawDelay.seconds - state.blockTimestampSec),
  };
}

/** What is left to do before the account can quote, in words (empty: ready). */
export function todo(state: AccountChainState, ours: bigint | undefined): string[] {
  const left: string[] = [];
  if (state.boundSigner === 0n) left.push('bind the trading signer (account bind, or account setup)');
  else if (ours !== undefined && state.boundSigner !== ours) left.push(`the account is bound to ${addressToHex(state.boundSigner)}, not to this pair file's signer: use that key`);
  if (!state.executorApproved) left.push('grant the executor access (account grant-executor, or account setup)');
  if (state.holdings.every((holding) => holding.exchange === 0n)) left.push('deposit funds (account setup --deposit SYMBOL=AMOUNT)');
  return left;
}
