/**
 * `akira-mm signer serve --keystore FILE --socket PATH --env FILE…`: the remote signer. It holds
 * the key in its own process (decrypted from the keystore once, at start), listens on a Unix
 * socket, and signs only what the pair files' policy allows: their pairs (each with its
 * RISK_MAX_ORDER_NOTIONAL), their one account and chain, withdrawals only to their
 * WITHDRAW_ALLOWED_RECEIVERS. Daemons set `SIGNER_REMOTE=unix:PATH` and hold no key. Several pair
 * files (several daemons on one account) share one signer. SIGINT/SIGTERM stop it and remove
 * the socket.
 */
import { resolve } from 'node:path';
import type { PairConfig } from '../config/index.ts';
import { createLogger, formatUnits, getChain, getToken } from '../core/index.ts';
import { Signer, SignerServer, SigningAudit, SigningPolicy, SigningPool, type SigningPolicySpec } from '../exchange/signer/index.ts';
import { integerFlag, parseFlags, selectSubcommand } from './args.ts';
import { waitForStopSignal } from './daemon.ts';
import { INSECURE_PERMISSIONS_FLAG, pairFileOptions } from './file-permissions.ts';
import { UsageError, type CliIo, type CommandRunner } from './io.ts';
import { loadPairFile } from './pair-config.ts';
import { readSecretFile, signingPolicyOf, unlockKeystore } from './signer-setup.ts';

const SUBCOMMANDS = [
  {
    name: 'serve',
    usage: 'akira-mm signer serve --keystore FILE --socket PATH --env FILE [--env FILE]… [options]',
    summary: 'Holds the signer key in this process and signs, over a Unix socket, only what the pair files allow. Daemons use it with SIGNER_REMOTE=unix:PATH in their pair file or environment.',
  },
];

export const SIGNER_SERVE_OPTIONS = {
  keystore: { type: 'string', value: 'FILE', required: true, doc: 'encrypted keystore holding the key (chmod 600)' },
  socket: { type: 'string', value: 'PATH', required: true, doc: 'Unix socket to listen on; a stale one left by a crash is replaced' },
  env: {
    type: 'string',
    value: 'FILE',
    multiple: true,
    required: true,
    doc: "a pair file whose pair, account, chain, contracts, RISK_MAX_ORDER_NOTIONAL and WITHDRAW_ALLOWED_RECEIVERS make up the policy; repeat for several pairs of one account",
  },
  'password-file': { type: 'string', value: 'FILE', default: 'asked on the terminal without echo', doc: 'keystore password (chmod 600; trailing newline ignored)' },
  'socket-mode': {
    type: 'string',
    value: '600|660',
    default: 600,
    doc: "who may connect: the signer's user only, or its group too (660: a daemon running as another user in the signer's group, as in docker-compose.yml)",
  },
  workers: { type: 'string', value: 'N', default: '2 (0 signs batches inline)', doc: 'signing threads for pre-signing batches, 0 to 8' },
  'log-level': { type: 'string', value: 'LEVEL', default: 'info', doc: 'fatal, error, warn, info, debug, trace or silent (refusals are logged at error)' },
  ...INSECURE_PERMISSIONS_FLAG,
} as const;

export const runSigner: CommandRunner = async (args, io) => {
  const { subcommand: serve, rest } = selectSubcommand('signer', args, SUBCOMMANDS);
  const { values, positionals } = parseFlags(rest, SIGNER_SERVE_OPTIONS, { usage: serve.usage, summary: serve.summary });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"\nusage: ${serve.usage}`);
  if (values.keystore === undefined || values.socket === undefined || values.env === undefined || values.env.length === 0) {
    throw new UsageError(`--keystore, --socket and --env are required\nusage: ${serve.usage} (--help lists every option)`);
  }
  const socketMode = values['socket-mode'] ?? '600';
  if (socketMode !== '600' && socketMode !== '660') throw new UsageError(`--socket-mode=${socketMode}: allowed 600 or 660`);
  const workers = integerFlag('workers', values.workers, 2, 0, 8);
  const permissions = pairFileOptions(io, values);
  const configs = values.env.map((path) => loadPairFile(resolve(io.cwd, path), {}, { ...permissions, requireSigner: false }));
  const spec = mergePolicies(configs, values.env);

  const password = values['password-file'] === undefined ? undefined : readSecretFile(resolve(io.cwd, values['password-file']), 'password file', permissions);
  const privateKey = await unlockKeystore(resolve(io.cwd, values.keystore), password, io, permissions);
  const logger = createLogger({ level: values['log-level'] ?? 'info', base: { component: 'signer' } });
  const audit = new SigningAudit(logger);
  const policy = new SigningPolicy(spec, audit);
  // The policy's chain carries the pair files' contract addresses: the hashes use them too.
  const signerOptions = { privateKey, account: spec.account, chain: policy.chain, policy };
  const pool = workers > 0 ? new SigningPool({ ...signerOptions, size: workers }) : undefined;
  const socketPath = resolve(io.cwd, values.socket);
  let server: SignerServer;
  try {
    server = await SignerServer.start({
      socketPath,
      signer: pool?.signer ?? new Signer(signerOptions),
      ...(pool === undefined ? {} : { pool }),
      audit,
      logger,
      socketMode: socketMode === '660' ? 0o660 : 0o600,
    });
  } catch (error) {
    await pool?.close();
    throw new UsageError(`cannot listen on ${socketPath}: ${error instanceof Error ? error.message : String(error)}`);
  }
  describePolicy(io, spec, server);
  const signal = await waitForStopSignal();
  logger.info({ signal }, 'signer stopping');
  await server.stop();
  logger.flush();
  return 0;
};

/**
 * One policy for several pair files of one account: the union of their pairs (the lower order
 * limit where two name the same pair) and of their withdrawal receivers.
 * @throws UsageError when the files disagree on the account or the chain.
 */
export function mergePolicies(configs: readonly PairConfig[], paths: readonly string[]): SigningPolicySpec {
  const specs = configs.map(signingPolicyOf);
  const first = specs[0];
  if (first === undefined) throw new UsageError('--env FILE is required');
  specs.forEach((spec, index) => {
    if (spec.chain !== first.chain || spec.account !== first.account) {
      throw new UsageError(`${paths[index]} is for account 0x${spec.account.toString(16)} on ${spec.chain}, ${paths[0]} for 0x${first.account.toString(16)} on ${first.chain}: one signer, one account`);
    }
    if (JSON.stringify(spec.contracts ?? {}) !== JSON.stringify(first.contracts ?? {})) {
      throw new UsageError(`${paths[index]} and ${paths[0]} name different contract addresses (EXCHANGE_ADDRESS, CORE_ADDRESS, ROUTER_ADDRESS, FEE_RECIPIENT): one signer hashes with one set`);
    }
  });
  const pairs = new Map<string, SigningPolicySpec['pairs'][number]>();
  for (const pair of specs.flatMap((spec) => spec.pairs)) {
    const key = `${pair.base}/${pair.quote}`;
    const known = pairs.get(key);
    const limits = [known?.maxOrderNotionalUnits, pair.maxOrderNotionalUnits].filter((limit): limit is bigint => limit !== undefined);
    const lowest = limits.reduce<bigint | undefined>((low, limit) => (low === undefined || limit < low ? limit : low), undefined);
    pairs.set(key, { base: pair.base, quote: pair.quote, ...(lowest === undefined ? {} : { maxOrderNotionalUnits: lowest }) });
  }
  const receivers = [...new Set(specs.flatMap((spec) => spec.withdrawReceivers))];
  return { chain: first.chain, account: first.account, pairs: [...pairs.values()], withdrawReceivers: receivers, ...(first.contracts === undefined ? {} : { contracts: first.contracts }) };
}

function describePolicy(io: CliIo, spec: SigningPolicySpec, server: SignerServer): void {
  const chain = getChain(spec.chain);
  const limit = (pair: SigningPolicySpec['pairs'][number]): string =>
    pair.maxOrderNotionalUnits === undefined ? '' : ` (orders up to ${formatUnits(pair.maxOrderNotionalUnits, getToken(chain, pair.quote).decimals)} ${pair.quote})`;
  const pairs = spec.pairs.map((pair) => `${pair.base}/${pair.quote}${limit(pair)}`).join(', ');
  const receivers = spec.withdrawReceivers.length === 0 ? 'none' : spec.withdrawReceivers.map((r) => `0x${r.toString(16)}`).join(', ');
  io.stderr.write(
    `signer serving unix:${server.socketPath} for account 0x${spec.account.toString(16)} on ${spec.chain}\n` +
      `pairs: ${pairs}; withdrawals to: ${receivers}; Ctrl-C or SIGTERM stops it\n`,
  );
}
