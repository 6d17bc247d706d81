/**
 * `akira-mm preflight --env FILE [--order-test]`: checks a live setup before real money, one line
 * per check with ✔ (passed), ✖ (failed, with the fix) or – (could not apply, with how to make it
 * apply), and exits 0 only when nothing failed. `--order-test` adds a post-only order far from the
 * touch, its cancel and the round-trip times.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { ENGINE_KEYS, LiveClock, createLogger, createRng, getChain, getToken, parseUnits, settingsOf, withContracts } from '../core/index.ts';
import type { PairConfig } from '../config/index.ts';
import { RestClient, createLiveVenue } from '../exchange/index.ts';
import { DEFAULT_PREFLIGHT_LIMITS, runPreflight, type CheckResult, type PreflightLimits, type QuotePlan } from '../exchange/preflight/index.ts';
import { getStrategyDefinition } from '../../strategies/index.ts';
import { integerFlag, parseFlags, type CommandHelp } from './args.ts';
import { UsageError, type CommandRunner } from './io.ts';
import { INSECURE_PERMISSIONS_FLAG, pairFileOptions } from './file-permissions.ts';
import { liveVenueConfig, remoteSignerDeps } from './live.ts';
import { loadPairFile } from './pair-config.ts';
import { loginSignerOf, openSigner } from './signer-setup.ts';

const USAGE = 'akira-mm preflight --env FILE [--order-test] [--timeout-ms N] [--max-skew-ms N] [--json] [--insecure-permissions]';

const HELP: CommandHelp = {
  usage: USAGE,
  summary:
    'Checks a live setup before real money: REST and WS reachability and latency, login (chain id and signer binding), the contract constants on chain (STARKNET_RPC_URL), the pair\'s ticker rules, gas, balances against the configured sizes and caps, the WS streams\' first frames and the clock skew. One line per check: ✔ passed, ✖ failed (with the fix), – could not apply. Exit 0 only when no check failed; 1 when one did; 2 for bad usage or an invalid env file.',
};

const OPTIONS = {
  env: { type: 'string', value: 'FILE', required: true, doc: 'the pair\'s env file' },
  'order-test': { type: 'boolean', doc: 'also place a post-only bid far below the touch (the pair\'s minimum size), cancel it, and time both round trips; needs the funds for it' },
  'timeout-ms': { type: 'string', value: 'N', unit: 'ms', default: DEFAULT_PREFLIGHT_LIMITS.firstFrameTimeoutMs, doc: 'wait for the first book frame and for each order-test report' },
  'max-skew-ms': { type: 'string', value: 'N', unit: 'ms', default: DEFAULT_PREFLIGHT_LIMITS.maxClockSkewMs, doc: 'largest accepted gap between our clock and the venue\'s timestamps' },
  json: { type: 'boolean', doc: 'one JSON object per check instead of lines' },
  ...INSECURE_PERMISSIONS_FLAG,
} as const;

const SYMBOLS: Readonly<Record<CheckResult['status'], string>> = { pass: '✔', fail: '✖', skip: '–' };

/** One report line: symbol, check, detail and, when it failed or could not apply, the fix. */
export function formatCheck(result: CheckResult): string {
  const fix = result.fix === undefined || result.status === 'pass' ? '' : `\n    fix: ${result.fix}`;
  return `${SYMBOLS[result.status]} ${result.name}: ${result.detail}${fix}\n`;
}

/** What the bot would quote: the strategy's order size and levels, and the notional caps. */
function quotePlan(config: PairConfig): QuotePlan {
  const chain = getChain(config.chain);
  const base = getToken(chain, config.base);
  const quote = getToken(chain, config.quote);
  const risk = settingsOf(ENGINE_KEYS, 'risk', config.keys, { baseDecimals: base.decimals, quoteDecimals: quote.decimals });
  const definition = getStrategyDefinition(config.strategy);
  const sizeKey = definition?.keys.find((key) => key.key.endsWith('_ORDER_SIZE'));
  const sizeText = sizeKey === undefined ? '0' : (config.raw[sizeKey.key] ?? sizeKey.default);
  // The strategy's notional key, when the file sizes orders by notional instead (the two are exclusive).
  const notionalKey = definition?.keys.find((key) => key.key.endsWith('_ORDER_NOTIONAL'));
  const notionalText = notionalKey === undefined ? undefined : config.raw[notionalKey.key];
  const byNotional = notionalKey !== undefined && notionalText !== undefined && notionalText.trim().toLowerCase() !== 'off';
  const levelsKey = definition?.keys.find((key) => key.key.endsWith('_LEVELS'));
  const levels = levelsKey === undefined ? 1 : Number(config.raw[levelsKey.key] ?? levelsKey.default);
  return {
    orderSize: byNotional
      ? { kind: 'notional', quoteUnits: parseUnits(notionalText.trim(), quote.decimals, { rounding: 'down' }) }
      : { kind: 'base', qtyUnits: parseUnits(sizeText, base.decimals, { rounding: 'down' }) },
    levels: Number.isInteger(levels) && levels > 0 ? levels : 1,
    maxOrderNotionalUnits: risk.maxOrderNotionalUnits,
    // `auto` is resolved at the first fair price: no fixed cap to check here.
    maxTotalNotionalUnits: risk.maxTotalNotionalUnits === 'auto' ? 0n : risk.maxTotalNotionalUnits,
    onchainKill: config.engine.RISK_ONCHAIN_KILL,
    orderSizeKey: byNotional ? notionalKey.key : (sizeKey?.key ?? 'ORDER_SIZE'),
  };
}

export const runPreflightCommand: CommandRunner = async (args, io) => {
  const { values, positionals } = parseFlags(args, OPTIONS, HELP);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"\nusage: ${USAGE}`);
  if (values.env === undefined) throw new UsageError(`--env FILE is required\nusage: ${USAGE}`);
  const timeoutMs = integerFlag('timeout-ms', values['timeout-ms'], DEFAULT_PREFLIGHT_LIMITS.firstFrameTimeoutMs, 100, 600_000);
  const limits: PreflightLimits = {
    firstFrameTimeoutMs: timeoutMs,
    orderTestTimeoutMs: timeoutMs,
    maxClockSkewMs: integerFlag('max-skew-ms', values['max-skew-ms'], DEFAULT_PREFLIGHT_LIMITS.maxClockSkewMs, 1, 3_600_000),
  };
  const permissions = pairFileOptions(io, values);
  const config = loadPairFile(resolve(io.cwd, values.env), {}, permissions);
  const chain = withContracts(getChain(config.chain), config.contracts);
  const account = BigInt(config.tradingAccount);
  const clock = new LiveClock();
  const rng = createRng(randomBytes(4).readUInt32LE(0));
  // The checks print their own lines; the clients' logs only add noise (and never carry the key).
  const logger = createLogger({ level: 'silent' });
  // The pair's signer: its key (file, keystore) under the pair's policy, or `signer serve`.
  const opened = await openSigner(config, { io, logger, clock, permissions });
  const signer = loginSignerOf(opened, config);
  const rest = new RestClient({ baseUrl: config.exchangeHttpUrl, chain, account, signer, clock, rng: rng.fork('rest'), logger, retry: { getAttempts: 1, rateLimitRetries: 1 } });
  if (values.json !== true) io.stdout.write(`akira-mm preflight: ${config.base}/${config.quote} on ${config.chain}, account ${config.tradingAccount}, venue ${config.exchangeHttpUrl}\n`);
  const results = await runPreflight(
    {
      target: {
        httpUrl: config.exchangeHttpUrl,
        wsUrl: config.exchangeWsUrl,
        chain,
        account,
        signer,
        pair: { base: config.base, quote: config.quote },
        base: getToken(chain, config.base),
        quote: getToken(chain, config.quote),
        ecosystemBook: config.ecosystemBook,
        feeToken: getToken(chain, config.engine.FEE_TOKEN),
        gasPriceMultiplier: config.gasPriceMultiplier.value,
        starknetRpcUrl: config.starknetRpcUrl,
        plan: quotePlan(config),
      },
      limits,
      deps: { clock, rng, logger },
      rest,
      ...(values['order-test'] === true
        ? { orderTestVenue: () => createLiveVenue(liveVenueConfig(config, opened, 0), { clock, rng: rng.fork('order-test'), logger, ...remoteSignerDeps(opened, { presign: false }) }) }
        : {}),
    },
    (result) => io.stdout.write(values.json === true ? `${JSON.stringify(result)}\n` : formatCheck(result)),
  );
  // A remote signer's connection must not outlive the command.
  await signer.close();
  const failed = results.filter((result) => result.status === 'fail').length;
  if (values.json !== true) io.stdout.write(failed === 0 ? 'ready: every check passed\n' : `not ready: ${failed} check${failed === 1 ? '' : 's'} failed\n`);
  return failed === 0 ? 0 : 1;
};
