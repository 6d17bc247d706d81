/**
 * `akira-mm account status|setup|approve|deposit|bind|grant-executor|withdraw`: from a funded
 * Starknet wallet to an account ready to quote, and back out, through starknet.js's `Account` and
 * `Contract` (src/exchange/chain/owner-account.ts). Every sending sub-command shows the calls and
 * the fee estimate, asks before sending unless `--yes`, prints the calls as a wallet or starkli
 * takes them with `--dry-run` (sending nothing), waits for inclusion and ends with the transaction
 * hash and its receipt's status. Whatever the chain's state makes impossible is refused before
 * anything is sent, with the reason (./account-plan.ts).
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { Call } from 'starknet';
import { LiveClock, createLogger, createRng, getChain, getToken, parseUnits, withContracts, type ChainInfo, type TokenInfo } from '../core/index.ts';
import type { PairConfig } from '../config/index.ts';
import { ExchangeError, OwnerAccount, checkSettlement, createLiveVenue, readAccountTrades, type AccountChainState, type ChainTrade, type OurFill, type SentTransaction, type SettlementFinding } from '../exchange/index.ts';
import { existsSync } from 'node:fs';
import { readJournalFills } from './settlement-fills.ts';
import { createMessageHasher, starkKeyOf, parsePrivateKey } from '../exchange/signer/index.ts';
import { addressToHex } from '../exchange/wire/fields.ts';
import type { WithdrawRequest } from '../exchange/wire/requests.ts';
import { parseFlags, selectSubcommand, type FlagSpecs } from './args.ts';
import { openOwnerKey } from './account-owner.ts';
import { PlanRefused, amountText, checkBinding, checkChain, planDeposit, planSetup, todo, withdrawWait, type PlanStep } from './account-plan.ts';
import { INSECURE_PERMISSIONS_FLAG, pairFileOptions } from './file-permissions.ts';
import { UsageError, type CliIo, type CommandRunner } from './io.ts';
import { liveVenueConfig, remoteSignerDeps } from './live.ts';
import { loadPairFile } from './pair-config.ts';
import { isInteractive, promptHidden } from './secret-input.ts';
import { loginSignerOf, openSigner } from './signer-setup.ts';

const COMMON = '--env FILE [--rpc URL] [--json] [--insecure-permissions]';
const SENDING = '[--yes] [--dry-run] [--poll-ms N]';

const SUBCOMMANDS = [
  { name: 'status', usage: `akira-mm account status ${COMMON}`, summary: 'wallet, allowance and exchange balances per token, the bound signer, executor access, nonces, pending withdrawals and what is left to do' },
  { name: 'setup', usage: `akira-mm account setup [--deposit SYMBOL=AMOUNT]… ${COMMON} ${SENDING}`, summary: 'bind the trading signer, approve and deposit up to each target, grant the executor: one transaction, each step already done left out (a second run sends nothing)' },
  { name: 'approve', usage: `akira-mm account approve --token SYMBOL --amount X ${COMMON} ${SENDING}`, summary: 'let the core contract take X of the wallet (ERC-20 approve)' },
  { name: 'deposit', usage: `akira-mm account deposit --token SYMBOL --amount X ${COMMON} ${SENDING}`, summary: 'move X from the wallet to the exchange balance (core deposit; approve first)' },
  { name: 'bind', usage: `akira-mm account bind ${COMMON} ${SENDING}`, summary: 'bind the pair file\'s trading signer to the account (once per account)' },
  { name: 'grant-executor', usage: `akira-mm account grant-executor ${COMMON} ${SENDING}`, summary: 'let the exchange\'s executor settle the account\'s trades' },
  {
    name: 'withdraw',
    usage: `akira-mm account withdraw --token SYMBOL --amount X [--receiver 0x…] [--onchain request|apply] ${COMMON} ${SENDING}`,
    summary: 'off-chain through the exchange API (signed by the trading key), or on chain: request, then apply once get_withdraw_delay_params has passed',
  },
  {
    name: 'settlement',
    usage: `akira-mm account settlement --journal FILE [--since TIME] [--deadline-s N] ${COMMON}`,
    summary: 'match every fill of the journal to a Trade event on chain (order hash, amounts, side): settled with its lag, failed, altered, missing (unsettled past the deadline) and foreign trades; exit 1 unless clean',
  },
] as const;

type SubcommandName = (typeof SUBCOMMANDS)[number]['name'];

const BASE_OPTIONS = {
  env: { type: 'string', value: 'FILE', required: true, doc: 'the pair\'s env file (CHAIN, TRADING_ACCOUNT, STARKNET_RPC_URL, the trading signer)' },
  rpc: { type: 'string', value: 'URL', default: 'STARKNET_RPC_URL of the pair file', doc: 'Starknet JSON-RPC node' },
  json: { type: 'boolean', doc: 'one JSON object instead of lines' },
  ...INSECURE_PERMISSIONS_FLAG,
} as const;

const SEND_OPTIONS = {
  yes: { type: 'boolean', doc: 'send without asking' },
  'dry-run': { type: 'boolean', doc: 'print the calls (as starkli and a wallet take them) and the fee estimate; send nothing' },
  'poll-ms': { type: 'string', value: 'N', unit: 'ms', default: 2000, doc: 'between two status polls while waiting for inclusion' },
} as const;

const TOKEN_OPTIONS = {
  token: { type: 'string', value: 'SYMBOL', required: true, doc: 'token symbol of the chain (USDC, ETH, STRK…)' },
  amount: { type: 'string', value: 'X', required: true, doc: 'amount in whole tokens (decimal)' },
} as const;

const OPTIONS: Readonly<Record<SubcommandName, FlagSpecs>> = {
  status: BASE_OPTIONS,
  setup: { ...BASE_OPTIONS, ...SEND_OPTIONS, deposit: { type: 'string', value: 'SYMBOL=AMOUNT', multiple: true, doc: 'bring the exchange balance of SYMBOL up to AMOUNT (whole tokens) from the wallet' } },
  approve: { ...BASE_OPTIONS, ...SEND_OPTIONS, ...TOKEN_OPTIONS },
  deposit: { ...BASE_OPTIONS, ...SEND_OPTIONS, ...TOKEN_OPTIONS },
  bind: { ...BASE_OPTIONS, ...SEND_OPTIONS },
  'grant-executor': { ...BASE_OPTIONS, ...SEND_OPTIONS },
  settlement: {
    ...BASE_OPTIONS,
    journal: { type: 'string', value: 'FILE', required: true, doc: 'the daemon\'s journal (`run --journal FILE`, or <state dir>/<venue id>/<account>.journal)' },
    since: { type: 'string', value: 'TIME', default: 'the whole journal', doc: 'only fills from this time on: ISO 8601 or ms since the epoch' },
    'deadline-s': { type: 'string', value: 'N', unit: 's', default: 120, doc: 'a fill with no Trade event after this long is unsettled (younger: pending)' },
  },
  withdraw: {
    ...BASE_OPTIONS,
    ...SEND_OPTIONS,
    ...TOKEN_OPTIONS,
    receiver: { type: 'string', value: '0x…', default: 'the account', doc: 'who receives the tokens' },
    onchain: { type: 'string', value: 'request|apply', default: 'off-chain through the API', doc: 'the on-chain path: request it, then apply it after the delay' },
  },
};

interface Flags {
  readonly env?: string;
  readonly rpc?: string;
  readonly json?: boolean;
  readonly yes?: boolean;
  readonly 'dry-run'?: boolean;
  readonly 'poll-ms'?: string;
  readonly token?: string;
  readonly amount?: string;
  readonly receiver?: string;
  readonly onchain?: string;
  readonly deposit?: readonly string[];
  readonly journal?: string;
  readonly since?: string;
  readonly 'deadline-s'?: string;
  readonly 'insecure-permissions'?: boolean;
}

/** The context every sub-command runs in. */
interface Context {
  readonly io: CliIo;
  readonly flags: Flags;
  readonly config: PairConfig;
  readonly chain: ChainInfo;
  readonly address: bigint;
  readonly client: OwnerAccount;
  readonly say: (line: string) => void;
}

function tokensOf(config: PairConfig, chain: ChainInfo): TokenInfo[] {
  const symbols = new Set([config.base, config.quote, chain.nativeGasToken]);
  return [...symbols].map((symbol) => getToken(chain, symbol));
}

function tokenFlag(chain: ChainInfo, symbol: string | undefined): TokenInfo {
  const token = symbol === undefined ? undefined : chain.tokens.get(symbol);
  if (token === undefined) throw new UsageError(`--token ${symbol ?? ''}: not a token of ${chain.name}; allowed: ${[...chain.tokens.keys()].join(', ')}`);
  return token;
}

function amountFlag(flag: string, text: string | undefined, token: TokenInfo): bigint {
  let amount: bigint;
  try {
    amount = parseUnits(text ?? '', token.decimals);
  } catch (error) {
    throw new UsageError(`--${flag} ${text ?? ''}: ${error instanceof Error ? error.message : String(error)} (a decimal amount of ${token.symbol}, at most ${token.decimals} decimals)`);
  }
  if (amount <= 0n) throw new UsageError(`--${flag} ${text ?? ''}: must be above 0`);
  return amount;
}

/** The account's state, once the node is known to be on the pair file's chain (contracts differ between chains). */
async function readChecked(context: Context, tokens: readonly TokenInfo[]): Promise<AccountChainState> {
  checkChain({ chainId: await context.client.readChainId() }, context.chain);
  const state = await context.client.readState(tokens);
  checkChain(state, context.chain);
  return state;
}

/** The trading signer's public key (what `bind` binds). */
async function tradingKey(context: Context): Promise<bigint> {
  const logger = createLogger({ level: 'silent' });
  const opened = await openSigner(context.config, { io: context.io, logger, clock: new LiveClock(), permissions: pairFileOptions(context.io, context.flags) });
  if (opened.kind === 'remote') {
    const key = opened.remote.starkKey;
    await opened.remote.close();
    return key;
  }
  return starkKeyOf(parsePrivateKey(opened.privateKey));
}

function describeStep(step: PlanStep, chain: ChainInfo): string {
  switch (step.kind) {
    case 'bind':
      return `bind_to_signer(${addressToHex(step.signer)}) on the core ${chain.coreAddress}`;
    case 'approve':
      return `approve(core, ${amountText(step.amount, step.token)}) on ${step.token.symbol} ${step.token.address}`;
    case 'deposit':
      return `deposit(account, ${step.token.symbol}, ${amountText(step.amount, step.token)}) on the core`;
    case 'grant':
      return `grant_access_to_executor(${chain.executorAddress}) on the core`;
  }
}

function callOf(step: PlanStep, client: OwnerAccount): Call {
  switch (step.kind) {
    case 'bind':
      return client.bindCall(step.signer);
    case 'approve':
      return client.approveCall(step.token, step.amount);
    case 'deposit':
      return client.depositCall(step.token, step.amount);
    case 'grant':
      return client.grantCall();
  }
}

function starkliForm(calls: readonly Call[]): string {
  return `starkli invoke ${calls.map((call) => `${call.contractAddress} ${call.entrypoint} ${(call.calldata as string[]).map((item) => addressToHex(BigInt(item))).join(' ')}`.trim()).join(' / ')}`;
}

function plainCalls(calls: readonly Call[]): unknown[] {
  return calls.map((call) => ({ contractAddress: call.contractAddress, entrypoint: call.entrypoint, calldata: (call.calldata as string[]).map((item) => addressToHex(BigInt(item))) }));
}

async function confirm(context: Context): Promise<void> {
  if (context.flags.yes === true) return;
  if (!isInteractive(context.io)) throw new UsageError('not sent: add --yes to send without being asked (no terminal to ask on), or --dry-run to see the calls');
  const answer = await promptHidden(context.io, 'Send it? Type yes: ');
  if (answer.trim().toLowerCase() !== 'yes') throw new UsageError('not sent: not confirmed');
}

/**
 * Shows, estimates, confirms, sends and waits: the one path of every sending sub-command.
 * @returns the exit code (0 included and succeeded, 1 reverted).
 */
async function sendPlanned(context: Context, what: string, lines: readonly string[], calls: readonly Call[], extra: Record<string, unknown> = {}): Promise<number> {
  const { say, flags, chain } = context;
  const strk = getToken(chain, chain.nativeGasToken);
  if (calls.length === 0) {
    if (flags.json === true) context.io.stdout.write(`${JSON.stringify({ action: what, calls: [], sent: false, reason: 'nothing to do', ...extra })}\n`);
    else say(`nothing to do: ${what} is already done; nothing sent`);
    return 0;
  }
  say(`${what}: one transaction with ${calls.length} call${calls.length === 1 ? '' : 's'}:`);
  lines.forEach((line, index) => say(`  ${index + 1}. ${line}`));
  const fee = await context.client.estimate(calls);
  say(`fee estimate: ${amountText(fee, strk)} (${fee} fri)`);
  if (flags['dry-run'] === true) {
    if (flags.json === true) context.io.stdout.write(`${JSON.stringify({ action: what, calls: plainCalls(calls), feeEstimateFri: fee.toString(), sent: false, ...extra })}\n`);
    else {
      say('dry run, nothing sent. As starkli takes them:');
      say(`  ${starkliForm(calls)}`);
      say(`As a wallet takes them (starknet.js / get-starknet \`execute\`):`);
      say(`  ${JSON.stringify(plainCalls(calls))}`);
    }
    return 0;
  }
  await confirm(context);
  const sent: SentTransaction = await context.client.send(calls, (_stage, hash) => say(`sent ${hash}; waiting for inclusion…`));
  if (flags.json === true) {
    context.io.stdout.write(
      `${JSON.stringify({ action: what, calls: plainCalls(calls), feeEstimateFri: fee.toString(), sent: true, transactionHash: sent.hash, status: sent.status, blockNumber: sent.blockNumber, feeFri: sent.feeFri.toString(), ...(sent.revertReason === undefined ? {} : { revertReason: sent.revertReason }), ...extra })}\n`,
    );
  } else {
    say(`included in block ${sent.blockNumber}: ${sent.status} (fee ${amountText(sent.feeFri, strk)})`);
    if (sent.revertReason !== undefined) say(`reverted: ${sent.revertReason}`);
    say(`transaction ${sent.hash}`);
  }
  return sent.status === 'SUCCEEDED' ? 0 : 1;
}

async function runStatus(context: Context): Promise<number> {
  const { config, chain, flags, io } = context;
  const state = await readChecked(context, tokensOf(config, chain));
  let ours: bigint | undefined;
  try {
    ours = config.signer === undefined ? undefined : await tradingKey(context);
  } catch {
    ours = undefined;
  }
  const left = todo(state, ours);
  // Free and locked as the venue splits them (the chain holds the sum): only once bound to our key.
  const split = ours !== undefined && state.boundSigner === ours ? await venueBalances(context) : undefined;
  if (flags.json === true) {
    io.stdout.write(`${JSON.stringify(statusJson(state, ours, left, split))}\n`);
    return 0;
  }
  const say = context.say;
  say(`block ${state.blockNumber}, account nonce ${state.accountNonce}, exchange nonce ${state.exchangeNonce}`);
  say(`bound signer: ${state.boundSigner === 0n ? 'none' : addressToHex(state.boundSigner)}${ours === undefined ? '' : state.boundSigner === ours ? ' (this pair file\'s signer)' : ` (this pair file's signer is ${addressToHex(ours)})`}`);
  say(`executor access: ${state.executorApproved ? 'granted' : 'not granted'} (${chain.executorAddress})`);
  for (const holding of state.holdings) {
    const token = holding.token;
    const venue = split?.get(token.symbol);
    const parts = venue === undefined ? '' : ` (venue: free ${amountText(venue.balance - venue.locked, token)}, locked ${amountText(venue.locked, token)})`;
    say(`${token.symbol}: wallet ${amountText(holding.wallet, token)}, allowance ${amountText(holding.allowance, token)}, exchange ${amountText(holding.exchange, token)}${parts}`);
    const wait = withdrawWait(state, holding);
    if (holding.pendingWithdraw !== undefined && wait !== undefined) {
      say(`  pending on-chain withdrawal of ${amountText(holding.pendingWithdraw.amount, token)} to ${addressToHex(holding.pendingWithdraw.receiver)}: ${wait.blocks === 0 && wait.seconds === 0 ? 'may be applied now' : `about ${wait.blocks} blocks and ${wait.seconds} s to wait`}`);
    }
  }
  say(left.length === 0 ? 'ready to quote' : `left to do: ${left.join('; ')}`);
  return 0;
}

/** The venue's balances (free and locked) through its API, logged in with the trading key; undefined when it cannot be asked. */
async function venueBalances(context: Context): Promise<ReadonlyMap<string, { readonly balance: bigint; readonly locked: bigint }> | undefined> {
  const { RestClient } = await import('../exchange/index.ts');
  const logger = createLogger({ level: 'silent' });
  const clock = new LiveClock();
  try {
    const opened = await openSigner(context.config, { io: context.io, logger, clock, permissions: pairFileOptions(context.io, context.flags) });
    const signer = loginSignerOf(opened, context.config);
    try {
      const rest = new RestClient({ baseUrl: context.config.exchangeHttpUrl, chain: context.chain, account: context.address, signer, clock, rng: createRng(randomBytes(4).readUInt32LE(0)), logger, retry: { getAttempts: 1, rateLimitRetries: 1 } });
      return (await rest.userInfo()).balances;
    } finally {
      await signer.close();
    }
  } catch {
    return undefined;
  }
}

function statusJson(state: AccountChainState, ours: bigint | undefined, left: readonly string[], split?: ReadonlyMap<string, { readonly balance: bigint; readonly locked: bigint }>): Record<string, unknown> {
  return {
    chainId: addressToHex(state.chainId),
    blockNumber: state.blockNumber,
    accountNonce: state.accountNonce.toString(),
    exchangeNonce: state.exchangeNonce.toString(),
    boundSigner: addressToHex(state.boundSigner),
    signerMatches: ours === undefined ? null : state.boundSigner === ours,
    executorApproved: state.executorApproved,
    withdrawDelay: state.withdrawDelay,
    tokens: state.holdings.map((holding) => ({
      symbol: holding.token.symbol,
      wallet: holding.wallet.toString(),
      allowance: holding.allowance.toString(),
      exchange: holding.exchange.toString(),
      ...(split?.get(holding.token.symbol) === undefined ? {} : { venueFree: (split.get(holding.token.symbol)!.balance - split.get(holding.token.symbol)!.locked).toString(), venueLocked: split.get(holding.token.symbol)!.locked.toString() }),
      ...(holding.pendingWithdraw === undefined ? {} : { pendingWithdraw: { amount: holding.pendingWithdraw.amount.toString(), receiver: addressToHex(holding.pendingWithdraw.receiver), requestedBlock: holding.pendingWithdraw.requestedBlock } }),
    })),
    todo: left,
    ready: left.length === 0,
  };
}

async function runSteps(context: Context, what: string, plan: (state: AccountChainState, ours: bigint) => PlanStep[], needsSigner: boolean): Promise<number> {
  const { client, config, chain } = context;
  const state = await readChecked(context, tokensOf(config, chain));
  const ours = needsSigner ? await tradingKey(context) : 0n;
  const steps = plan(state, ours);
  return sendPlanned(
    context,
    what,
    steps.map((step) => describeStep(step, chain)),
    steps.map((step) => callOf(step, client)),
  );
}

function parseTargets(chain: ChainInfo, entries: readonly string[]): { token: TokenInfo; amount: bigint }[] {
  return entries.map((entry) => {
    const [symbol, amount] = entry.split('=', 2) as [string, string | undefined];
    if (amount === undefined) throw new UsageError(`--deposit ${entry}: expected SYMBOL=AMOUNT (e.g. USDC=1000)`);
    const token = chain.tokens.get(symbol);
    if (token === undefined) throw new UsageError(`--deposit ${entry}: ${symbol} is not a token of ${chain.name}; allowed: ${[...chain.tokens.keys()].join(', ')}`);
    return { token, amount: amountFlag('deposit', amount, token) };
  });
}

async function runWithdraw(context: Context): Promise<number> {
  const { client, config, chain, flags, address } = context;
  const token = tokenFlag(chain, flags.token);
  const amount = amountFlag('amount', flags.amount, token);
  const receiver = flags.receiver === undefined ? address : parseAddress(flags.receiver);
  const mode = flags.onchain;
  if (mode !== undefined && mode !== 'request' && mode !== 'apply') throw new UsageError(`--onchain ${mode}: expected request or apply`);
  const state = await readChecked(context, [token, getToken(chain, chain.nativeGasToken)]);
  const holding = state.holdings[0]!;
  if (mode === 'apply') {
    const pending = holding.pendingWithdraw;
    if (pending === undefined) throw new PlanRefused(`no pending on-chain withdrawal of ${token.symbol}: request one first (--onchain request)`);
    const key = createMessageHasher(chain, { withdrawHash: config.withdrawHash }).withdraw(pending.withdraw);
    return sendPlanned(context, 'apply the on-chain withdrawal', [`apply_onchain_withdraw(${token.symbol}, ${addressToHex(key)}) on the core: pays ${amountText(pending.amount, token)} to ${addressToHex(pending.receiver)}`], [client.applyWithdrawCall(token, key)]);
  }
  if (mode === 'request') {
    if (amount > holding.exchange) throw new PlanRefused(`the withdrawal of ${amountText(amount, token)} is larger than the exchange balance of ${amountText(holding.exchange, token)}`);
    // REFERENCE §2.6: gas_per_action = get_withdraw_steps(), fee token STRK, about 2× the gas price.
    const gasPrice = await gasPriceOf(context);
    const withdraw: WithdrawRequest = {
      maker: address,
      token,
      amount,
      salt: BigInt(`0x${randomBytes(16).toString('hex')}`),
      gasFee: { gasPerAction: state.withdrawSteps, feeToken: getToken(chain, chain.nativeGasToken), maxGasPrice: gasPrice * 2n, conversionRate: [1n, 1n] },
      receiver,
      signScheme: '',
    };
    return sendPlanned(context, 'request an on-chain withdrawal', [`request_onchain_withdraw(${amountText(amount, token)} to ${addressToHex(receiver)}) on the core; apply it after ${state.withdrawDelay.blocks} blocks and ${state.withdrawDelay.seconds} s`], [client.requestWithdrawCall(withdraw)]);
  }
  return withdrawOffchain(context, token, amount, receiver);
}

function parseAddress(text: string): bigint {
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(text)) throw new UsageError(`--receiver ${text}: expected a 0x-hex address`);
  return BigInt(text);
}

/** The venue's gas price (fri per step) through its API, logged in with the trading signer. */
async function gasPriceOf(context: Context): Promise<bigint> {
  const { RestClient } = await import('../exchange/index.ts');
  const logger = createLogger({ level: 'silent' });
  const clock = new LiveClock();
  const opened = await openSigner(context.config, { io: context.io, logger, clock, permissions: pairFileOptions(context.io, context.flags) });
  const signer = loginSignerOf(opened, context.config);
  const rest = new RestClient({ baseUrl: context.config.exchangeHttpUrl, chain: context.chain, account: context.address, signer, clock, rng: createRng(randomBytes(4).readUInt32LE(0)), logger });
  try {
    return await rest.gasPrice();
  } catch (error) {
    throw new PlanRefused(`the exchange's gas price is unknown (${context.config.exchangeHttpUrl}): ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await signer.close();
  }
}

/** The off-chain path: a withdraw signed by the trading key, sent to the API, confirmed by the venue. */
async function withdrawOffchain(context: Context, token: TokenInfo, amount: bigint, receiver: bigint): Promise<number> {
  const { config, flags, say, io } = context;
  // The trading key signs the withdraw under the pair's policy: refuse here, before any login, what it would refuse.
  if (!config.withdrawAllowedReceivers.some((allowed) => BigInt(allowed) === receiver)) {
    throw new PlanRefused(`the receiver ${addressToHex(receiver)} is not in WITHDRAW_ALLOWED_RECEIVERS (${config.withdrawAllowedReceivers.join(', ') || 'empty'}): the signing policy refuses withdrawals elsewhere; add it to the pair file`);
  }
  const logger = createLogger({ level: 'silent' });
  const clock = new LiveClock();
  const opened = await openSigner(config, { io, logger, clock, permissions: pairFileOptions(io, flags) });
  const venue = createLiveVenue(liveVenueConfig(config, opened, 0), { clock, rng: createRng(randomBytes(4).readUInt32LE(0)), logger, ...remoteSignerDeps(opened, { presign: false }) });
  await venue.start({ onTopOfBook: () => undefined, onTrade: () => undefined, onOrderReport: () => undefined, onGasQuote: () => undefined, onResync: () => undefined, onFeedStatus: () => undefined });
  try {
    const balance = (await venue.fetchAccount()).balances.get(token.symbol);
    const free = balance === undefined ? 0n : balance.total - balance.locked;
    if (amount > free) throw new PlanRefused(`the withdrawal of ${amountText(amount, token)} is larger than the free exchange balance of ${amountText(free, token)} (locked funds back open orders)`);
    say(`withdraw ${amountText(amount, token)} to ${addressToHex(receiver)} through ${config.exchangeHttpUrl} (signed by the trading key; gas in ${config.engine.FEE_TOKEN})`);
    if (flags['dry-run'] === true) {
      say('dry run, nothing sent');
      return 0;
    }
    await confirm(context);
    const outcome = await venue.withdraw(token.symbol, amount, receiver);
    if (flags.json === true) io.stdout.write(`${JSON.stringify({ action: 'withdraw', path: 'offchain', ...outcome })}\n`);
    else say(`withdraw ${outcome.kind === 'accepted' ? 'paid out' : outcome.kind}${outcome.requestHash === undefined ? '' : ` (request ${outcome.requestHash})`}${'reason' in outcome ? `: ${outcome.reason}` : ''}`);
    return outcome.kind === 'accepted' ? 0 : 1;
  } finally {
    await venue.stop();
    if (opened.kind === 'remote') await opened.remote.close();
  }
}

export const runAccount: CommandRunner = async (args, io) => {
  const { subcommand, rest } = selectSubcommand('account', args, SUBCOMMANDS);
  const { values, positionals } = parseFlags(rest, OPTIONS[subcommand.name], { usage: subcommand.usage, summary: subcommand.summary });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"\nusage: ${subcommand.usage}`);
  const flags = values as Flags;
  if (flags.env === undefined) throw new UsageError(`--env FILE is required\nusage: ${subcommand.usage}`);
  const config = loadPairFile(resolve(io.cwd, flags.env), {}, pairFileOptions(io, flags));
  const chain = withContracts(getChain(config.chain), config.contracts);
  const rpcUrl = flags.rpc ?? config.starknetRpcUrl;
  if (rpcUrl === undefined) throw new UsageError('no Starknet node: set STARKNET_RPC_URL in the pair file or pass --rpc URL');
  const pollMs = flags['poll-ms'] === undefined ? 2_000 : Number(flags['poll-ms']);
  if (!Number.isInteger(pollMs) || pollMs < 0 || pollMs > 60_000) throw new UsageError(`--poll-ms ${flags['poll-ms']}: expected an integer in 0..60000`);
  const address = BigInt(config.tradingAccount);
  // Messages go to stderr with --json so stdout holds one JSON object.
  const say = (line: string): void => void (flags.json === true ? io.stderr : io.stdout).write(`${line}\n`);
  if (subcommand.name === 'settlement') return runSettlement(io, flags, config, chain, rpcUrl, address, say);
  const ownerKey = await openOwnerKey(io, pairFileOptions(io, flags));
  const client = new OwnerAccount({ rpcUrl, chain, account: address, ownerKey, pollMs });
  const context: Context = { io, flags, config, chain, address, client, say };
  say(`akira-mm account ${subcommand.name}: account ${config.tradingAccount} on ${chain.name}, node ${rpcUrl}`);
  try {
    switch (subcommand.name) {
      case 'status':
        return await runStatus(context);
      case 'setup': {
        const targets = parseTargets(chain, flags.deposit ?? []);
        return await runSteps(context, 'setup', (state, ours) => planSetup(state, chain, ours, targets), true);
      }
      case 'approve': {
        const token = tokenFlag(chain, flags.token);
        const amount = amountFlag('amount', flags.amount, token);
        return await runSteps(context, 'approve', () => [{ kind: 'approve', token, amount }], false);
      }
      case 'deposit': {
        const token = tokenFlag(chain, flags.token);
        const amount = amountFlag('amount', flags.amount, token);
        return await runSteps(context, 'deposit', (state) => planDeposit(state, chain, token, amount), false);
      }
      case 'bind':
        return await runSteps(context, 'bind', (state, ours) => (checkBinding(state, ours), state.boundSigner === ours ? [] : [{ kind: 'bind', signer: ours }]), true);
      case 'grant-executor':
        return await runSteps(context, 'grant-executor', (state) => (state.executorApproved ? [] : [{ kind: 'grant' }]), false);
      case 'withdraw':
        return await runWithdraw(context);
    }
  } catch (error) {
    if (error instanceof PlanRefused) throw new UsageError(error.message);
    if (error instanceof ExchangeError) throw new UsageError(error.message);
    throw error;
  }
};


function parseSince(text: string | undefined): number {
  if (text === undefined) return 0;
  if (/^\d+$/.test(text)) return Number(text);
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new UsageError(`--since ${text}: expected ISO 8601 (2026-12-02T08:00:00Z) or ms since the epoch`);
  return ms;
}

/** Our fills from the journal (every pair's), from `sinceMs` on. */
function journalFills(path: string, sinceMs: number): OurFill[] {
  if (!existsSync(path)) throw new UsageError(`--journal ${path}: no such file`);
  try {
    return readJournalFills(path, sinceMs);
  } catch (error) {
    throw new UsageError(`--journal ${path}: cannot read (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** `account settlement`: reads only (no owner key needed). */
async function runSettlement(io: CliIo, flags: Flags, config: PairConfig, chain: ChainInfo, rpcUrl: string, address: bigint, say: (line: string) => void): Promise<number> {
  if (flags.journal === undefined) throw new UsageError('--journal FILE is required');
  const deadlineS = flags['deadline-s'] === undefined ? 120 : Number(flags['deadline-s']);
  if (!Number.isInteger(deadlineS) || deadlineS < 0) throw new UsageError(`--deadline-s ${flags['deadline-s']}: expected a whole number of seconds`);
  const sinceMs = parseSince(flags.since);
  const fills = journalFills(resolve(io.cwd, flags.journal), sinceMs);
  let trades: ChainTrade[];
  try {
    trades = (await readAccountTrades(rpcUrl, chain, address)).filter((trade) => trade.blockTimestampSec * 1000 >= sinceMs - deadlineS * 1000);
  } catch (error) {
    if (error instanceof ExchangeError) throw new UsageError(error.message);
    throw error;
  }
  const report = checkSettlement(address, fills, trades, new LiveClock().nowMs(), deadlineS * 1000);
  if (flags.json === true) {
    io.stdout.write(`${JSON.stringify({ account: config.tradingAccount, fills: fills.length, trades: trades.length, counts: report.counts, maxLagMs: report.maxLagMs, clean: report.clean, findings: report.findings.filter((finding) => finding.kind !== 'settled').map(findingJson) })}\n`);
  } else {
    say(`${fills.length} fills in the journal, ${trades.length} Trade events of the account on chain`);
    const c = report.counts;
    say(`settled ${c.settled} (lag up to ${(report.maxLagMs / 1000).toFixed(1)} s), pending ${c.pending}, unsettled ${c.unsettled}, failed ${c.failed}, altered ${c.altered}, foreign ${c.foreign}`);
    for (const finding of report.findings) if (finding.kind !== 'settled' && finding.kind !== 'pending') say(`  ${describeFinding(finding)}`);
    say(report.clean ? 'clean: every fill settled on chain as reported' : 'NOT clean: see above');
  }
  return report.clean ? 0 : 1;
}

function describeFinding(finding: SettlementFinding): string {
  switch (finding.kind) {
    case 'foreign':
      return `foreign: Trade in ${finding.trade.transactionHash} names the account (maker order ${addressToHex(finding.trade.makerHash)}, taker order ${addressToHex(finding.trade.takerHash)}) but no fill of ours`;
    case 'failed':
      return `failed rollup: order ${addressToHex(finding.fill.orderHash)} ${finding.fill.side} ${finding.fill.baseUnits}: Trade in ${finding.trade.transactionHash} is_failed`;
    case 'altered':
      return `altered: order ${addressToHex(finding.fill.orderHash)}: ${finding.why} (${finding.trade.transactionHash})`;
    case 'unsettled':
      return `missing: order ${addressToHex(finding.fill.orderHash)} ${finding.fill.side} ${finding.fill.baseUnits}: no Trade event after ${Math.round(finding.ageMs / 1000)} s`;
    case 'pending':
      return `pending: order ${addressToHex(finding.fill.orderHash)}`;
    case 'settled':
      return `settled: order ${addressToHex(finding.fill.orderHash)} in ${finding.trade.transactionHash}`;
  }
}

function findingJson(finding: SettlementFinding): Record<string, unknown> {
  return {
    kind: finding.kind,
    ...('fill' in finding ? { orderHash: addressToHex(finding.fill.orderHash), side: finding.fill.side, base: finding.fill.baseUnits.toString(), quote: finding.fill.quoteUnits.toString(), timeMs: finding.fill.timeMs } : {}),
    ...('trade' in finding ? { transactionHash: finding.trade.transactionHash, makerHash: addressToHex(finding.trade.makerHash), takerHash: addressToHex(finding.trade.takerHash) } : {}),
    ...(finding.kind === 'altered' ? { why: finding.why } : {}),
    ...(finding.kind === 'unsettled' || finding.kind === 'pending' ? { ageMs: finding.ageMs } : {}),
  };
}
