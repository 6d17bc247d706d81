/**
 * The REST half of the preflight: reachability and latency, login (which proves the chain id and
 * the signer binding the venue uses), the contract constants over Starknet RPC when configured,
 * the pair's ticker rules, gas, and our balances against what the bot would quote.
 */
import { formatUnits, type TickerRules } from '../../core/index.ts';
import { ExchangeError, UndiciTransport, type RestClient, type StepsSpec } from '../client/index.ts';
import { contractMismatches, describeMismatch, readCoreContract, type ContractMismatch } from '../chain/index.ts';
import { checkAccountOnChain } from './chain-checks.ts';
import { maxGasPrice } from '../gas/index.ts';
import { resolvePairSetup } from '../venue/pair-setup.ts';
import { addressToHex } from '../wire/fields.ts';
import type { CheckResult, PreflightDeps, PreflightTarget } from './types.ts';

/** What the later checks need from these ones. */
export interface VenueFacts {
  readonly loggedIn: boolean;
  readonly rules: TickerRules | undefined;
  /** Mid of the pair's book, quote units per base token (undefined on an empty side). */
  readonly midUnits: bigint | undefined;
  readonly bestBidUnits: bigint | undefined;
  readonly bestAskUnits: bigint | undefined;
}

type Report = (result: CheckResult) => void;

function describe(error: unknown): string {
  if (error instanceof ExchangeError) return error.venueError ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

/** Median time of `count` unauthenticated GETs; the status does not matter, only an answer. */
async function restLatency(url: string, deps: PreflightDeps, count = 3): Promise<number[]> {
  const transport = new UndiciTransport(url, { connectTimeoutMs: 5_000, headersTimeoutMs: 5_000 });
  try {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = deps.clock.nowMs();
      await transport.send({ method: 'GET', path: '/info/steps_specifications' });
      times.push(deps.clock.nowMs() - started);
    }
    return times;
  } finally {
    await transport.close();
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Runs the REST checks in order, reporting each as it completes. */
export async function checkVenue(target: PreflightTarget, rest: RestClient, deps: PreflightDeps, report: Report): Promise<VenueFacts> {
  const none: VenueFacts = { loggedIn: false, rules: undefined, midUnits: undefined, bestBidUnits: undefined, bestAskUnits: undefined };
  try {
    const times = await restLatency(target.httpUrl, deps);
    report({ name: 'REST', status: 'pass', detail: `${target.httpUrl} answers in ${median(times)} ms (median of ${times.length})` });
  } catch (error) {
    report({ name: 'REST', status: 'fail', detail: `${target.httpUrl} unreachable: ${describe(error)}`, fix: 'check EXCHANGE_HTTP_URL and the network path to the venue' });
    return none;
  }

  const chainLabel = `${target.chain.name} (${target.chain.chainId})`;
  const started = deps.clock.nowMs();
  try {
    await rest.login();
  } catch (error) {
    const text = describe(error);
    const fix = /wrong account|whitelist/i.test(text)
      ? 'SIGNER_PRIVATE_KEY must be the key bound to TRADING_ACCOUNT on the core contract (bind_to_signer), and the account must be one the venue knows'
      : /signature/i.test(text)
        ? `CHAIN must be the venue's chain (the login is signed for ${chainLabel}) and SIGNER_PRIVATE_KEY the account's key`
        : 'check TRADING_ACCOUNT, SIGNER_PRIVATE_KEY and CHAIN';
    report({ name: 'login', status: 'fail', detail: `refused: ${text}`, fix });
    return none;
  }
  report({ name: 'login', status: 'pass', detail: `JWT for ${addressToHex(target.account)} in ${deps.clock.nowMs() - started} ms` });

  await checkChainAndContracts(target, chainLabel, report);
  const rules = await checkRules(target, rest, report);
  const steps = await checkGas(target, rest, report);
  const book = await rest.bbo(target.pair, target.ecosystemBook).catch(() => undefined);
  const bestBidUnits = book?.bid?.price;
  const bestAskUnits = book?.ask?.price;
  const midUnits = bestBidUnits !== undefined && bestAskUnits !== undefined ? (bestBidUnits + bestAskUnits) / 2n : (bestBidUnits ?? bestAskUnits);
  await checkBalances(target, rest, { midUnits, steps }, report);
  await checkAccountOnChain(target, rest, report);
  return { loggedIn: true, rules, midUnits, bestBidUnits, bestAskUnits };
}

/**
 * Chain id, bound signer and fee recipient. Over RPC each is read from the chain; without it the
 * accepted login already proves the first two as the venue sees them (it is signed for our chain
 * id by our key), and the fee recipient cannot be checked.
 */
async function checkChainAndContracts(target: PreflightTarget, chainLabel: string, report: Report): Promise<void> {
  const key = addressToHex(target.signer.starkKey);
  const rpcUrl = target.starknetRpcUrl;
  if (rpcUrl === undefined) {
    report({ name: 'chain id', status: 'pass', detail: `${chainLabel}: the venue accepted a login signed for it` });
    report({ name: 'signer', status: 'pass', detail: `${key} is the key the venue binds to the account (login accepted)` });
    report({
      name: 'contract constants',
      status: 'skip',
      detail: `not checked on chain (STARKNET_RPC_URL unset); signing with fee recipient ${addressToHex(BigInt(target.chain.feeRecipient))}, executor ${target.chain.executorAddress}, core ${target.chain.coreAddress}`,
      fix: 'set STARKNET_RPC_URL to a Starknet node to verify them against the core contract',
    });
    return;
  }
  let mismatches;
  try {
    const view = await readCoreContract(rpcUrl, target.chain, target.account);
    mismatches = contractMismatches(target.chain, target.signer.starkKey, view);
  } catch (error) {
    for (const name of ['chain id', 'signer']) report({ name, status: 'skip', detail: 'not read: the core contract check failed' });
    report({ name: 'contract constants', status: 'fail', detail: describe(error), fix: 'check STARKNET_RPC_URL and CORE_ADDRESS' });
    return;
  }
  const lineOf = (name: string, key: ContractMismatch['key'], ok: string): void => {
    const mismatch = mismatches.find((entry) => entry.key === key);
    if (mismatch === undefined) report({ name, status: 'pass', detail: ok });
    else report({ name, status: 'fail', detail: describeMismatch(mismatch), fix: `set ${mismatch.key} to the chain's value` });
  };
  lineOf('chain id', 'CHAIN', `${chainLabel}, the node's and the venue's login`);
  lineOf('signer', 'SIGNER_PRIVATE_KEY', `${key} is the key the core contract binds to the account`);
  lineOf('contract constants', 'FEE_RECIPIENT', `core ${target.chain.coreAddress}: fee recipient ${addressToHex(BigInt(target.chain.feeRecipient))} is the contract's`);
}

/** A fee as the venue states it (pbips, millionths of the notional) and in basis points (100 pbips = 1 bps). */
function feeText(pbips: number): string {
  return `${pbips} pbips (${pbips / 100} bps)`;
}

async function checkRules(target: PreflightTarget, rest: RestClient, report: Report): Promise<TickerRules | undefined> {
  const { plan, base, quote } = target;
  try {
    const [specs, user] = await Promise.all([rest.tickerSpecifications(), rest.userInfo()]);
    const setup = resolvePairSetup({ specs, user, base, quote, ecosystemBook: target.ecosystemBook });
    const { rules } = setup;
    const rulesText = `tick ${formatUnits(rules.priceTick, quote.decimals)} ${quote.symbol}, step ${formatUnits(rules.qtyStep, base.decimals)} ${base.symbol}, min ${formatUnits(rules.minQty, base.decimals)} ${base.symbol}; fees maker ${feeText(setup.makerPbips)}, taker ${feeText(setup.takerPbips)}`;
    const orderSize = plan.orderSize;
    // A notional becomes a multiple of the step at quote time; a base size must be one already.
    if (orderSize.kind === 'base' && (orderSize.qtyUnits < rules.minQty || orderSize.qtyUnits % rules.qtyStep !== 0n)) {
      const size = formatUnits(orderSize.qtyUnits, base.decimals);
      report({ name: 'ticker rules', status: 'fail', detail: `${rulesText}; ${plan.orderSizeKey}=${size} is not a multiple of the step at or above the minimum`, fix: `set ${plan.orderSizeKey} to a multiple of ${formatUnits(rules.qtyStep, base.decimals)} of at least ${formatUnits(rules.minQty, base.decimals)}` });
    } else {
      report({ name: 'ticker rules', status: 'pass', detail: `${base.symbol}/${quote.symbol} ${target.ecosystemBook ? 'ecosystem' : 'router'} book: ${rulesText}` });
    }
    return rules;
  } catch (error) {
    report({ name: 'ticker rules', status: 'fail', detail: describe(error), fix: 'check BASE, QUOTE and ECOSYSTEM_BOOK against the pairs the venue lists' });
    return undefined;
  }
}

async function checkGas(target: PreflightTarget, rest: RestClient, report: Report): Promise<StepsSpec | undefined> {
  try {
    const [price, steps] = await Promise.all([rest.gasPrice(), rest.stepsSpecifications()]);
    let rate = '';
    if (target.feeToken.symbol !== 'STRK') {
      const venueRate = await rest.conversionRate(target.feeToken.symbol);
      if (venueRate === undefined) {
        report({ name: 'gas', status: 'fail', detail: `no conversion rate for FEE_TOKEN=${target.feeToken.symbol}`, fix: 'use FEE_TOKEN=STRK, or a token the venue prices' });
        return steps;
      }
      rate = `; 1 STRK = ${formatUnits((venueRate[1] * 10n ** 18n) / venueRate[0], target.feeToken.decimals)} ${target.feeToken.symbol}`;
    }
    const max = maxGasPrice(price, target.gasPriceMultiplier);
    report({
      name: 'gas',
      status: price > 0n ? 'pass' : 'fail',
      detail: `price ${formatUnits(price, 18)} STRK/step, we sign at most ${formatUnits(max, 18)} (×${target.gasPriceMultiplier}); steps: trade ${target.ecosystemBook ? steps.swapEcosystem : steps.swapRouter}, nonce ${steps.nonce}, withdraw ${steps.withdraw}${rate}`,
      ...(price > 0n ? {} : { fix: 'the venue serves no gas price; try again later' }),
    });
    return steps;
  } catch (error) {
    report({ name: 'gas', status: 'fail', detail: describe(error), fix: 'the venue must serve /gas/price and /info/steps_specifications' });
    return undefined;
  }
}

async function checkBalances(target: PreflightTarget, rest: RestClient, context: { midUnits: bigint | undefined; steps: StepsSpec | undefined }, report: Report): Promise<void> {
  const { plan, base, quote } = target;
  let user;
  try {
    user = await rest.userInfo();
  } catch (error) {
    report({ name: 'balances', status: 'fail', detail: describe(error), fix: 'check TRADING_ACCOUNT' });
    return;
  }
  const free = (symbol: string): bigint => {
    const balance = user.balances.get(symbol);
    return balance === undefined ? 0n : balance.balance - balance.locked;
  };
  const levels = BigInt(plan.levels);
  const scale = 10n ** BigInt(base.decimals);
  const { orderSize } = plan;
  // A notional's base size needs a price: the mid now (the bot converts at its fair price when it quotes).
  const orderQtyUnits = orderSize.kind === 'base' ? orderSize.qtyUnits : context.midUnits === undefined || context.midUnits <= 0n ? undefined : (orderSize.quoteUnits * scale) / context.midUnits;
  const problems: string[] = [];
  const fixes: string[] = [];
  const needBase = orderQtyUnits === undefined ? undefined : orderQtyUnits * levels;
  if (needBase !== undefined && free(base.symbol) < needBase) {
    problems.push(`${formatUnits(free(base.symbol), base.decimals)} ${base.symbol} free, asks need ${formatUnits(needBase, base.decimals)}`);
    fixes.push(`deposit ${formatUnits(needBase - free(base.symbol), base.decimals)} ${base.symbol}`);
  }
  const orderNotional =
    orderSize.kind === 'notional' ? orderSize.quoteUnits : context.midUnits === undefined ? undefined : (orderSize.qtyUnits * context.midUnits) / scale;
  if (orderNotional !== undefined) {
    const needQuote = orderNotional * levels;
    if (free(quote.symbol) < needQuote) {
      problems.push(`${formatUnits(free(quote.symbol), quote.decimals)} ${quote.symbol} free, bids need ${formatUnits(needQuote, quote.decimals)}`);
      fixes.push(`deposit ${formatUnits(needQuote - free(quote.symbol), quote.decimals)} ${quote.symbol}`);
    }
    if (plan.maxOrderNotionalUnits > 0n && orderNotional > plan.maxOrderNotionalUnits) {
      problems.push(`one order is ${formatUnits(orderNotional, quote.decimals)} ${quote.symbol}, above RISK_MAX_ORDER_NOTIONAL ${formatUnits(plan.maxOrderNotionalUnits, quote.decimals)}: nothing would be quoted`);
      fixes.push(`lower ${plan.orderSizeKey} or raise RISK_MAX_ORDER_NOTIONAL`);
    }
    if (plan.maxTotalNotionalUnits > 0n && orderNotional > plan.maxTotalNotionalUnits) {
      problems.push(`one order is above RISK_MAX_TOTAL_NOTIONAL ${formatUnits(plan.maxTotalNotionalUnits, quote.decimals)}: nothing would be quoted`);
      fixes.push(`lower ${plan.orderSizeKey} or raise RISK_MAX_TOTAL_NOTIONAL`);
    }
  }
  if (plan.onchainKill && context.steps !== undefined && target.feeToken.symbol === 'STRK') {
    const price = await rest.gasPrice().catch(() => 0n);
    const killCost = maxGasPrice(price, target.gasPriceMultiplier) * BigInt(context.steps.nonce);
    if (free('STRK') < killCost) {
      problems.push(`${formatUnits(free('STRK'), 18)} STRK free, the on-chain kill (RISK_ONCHAIN_KILL) needs ${formatUnits(killCost, 18)}`);
      fixes.push(`deposit ${formatUnits(killCost - free('STRK'), 18)} STRK`);
    }
  }
  const held = `${formatUnits(free(base.symbol), base.decimals)} ${base.symbol}, ${formatUnits(free(quote.symbol), quote.decimals)} ${quote.symbol} free`;
  if (problems.length > 0) {
    report({ name: 'balances', status: 'fail', detail: problems.join('; '), fix: `${fixes.join(', ')} (core contract \`deposit\`), or lower ${plan.orderSizeKey}` });
    return;
  }
  const sizing =
    orderNotional === undefined || orderQtyUnits === undefined
      ? 'no mid to price bids (empty book side)'
      : `${plan.levels} × ${formatUnits(orderQtyUnits, base.decimals)} ${base.symbol} a side ≈ ${formatUnits(orderNotional * levels, quote.decimals)} ${quote.symbol}`;
  report({ name: 'balances', status: 'pass', detail: `${held}; quoting ${sizing}; nonce ${user.nonce}` });
}
