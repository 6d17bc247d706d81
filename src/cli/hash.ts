/**
 * `akira-mm hash <kind> --chain <mainnet|sepolia> [FILE|-]`: prints the SNIP-12 message hash of a
 * POST body, the hash the venue computes and checks the signature against. Users reach for it
 * when the venue answers FAILED_SIGN_CHECK, so a bad body names the field that is wrong.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { getChain, isChainName, CHAIN_NAMES, type ChainInfo } from '../core/index.ts';
import { WireError } from '../exchange/wire/fields.ts';
import {
  REQUEST_KINDS,
  parseCancelAllBody,
  parseCancelBody,
  parseIncreaseNonceBody,
  parseOrderBody,
  parseWithdrawBody,
  type RequestKind,
} from '../exchange/wire/requests.ts';
import { WITHDRAW_HASH_SCHEMES, createMessageHasher, type MessageHasher, type WithdrawHashScheme } from '../exchange/signer/index.ts';
import { parseFlags, type CommandHelp } from './args.ts';
import { UnknownNameError, UsageError, type CliIo, type CommandRunner } from './io.ts';

const USAGE = `akira-mm hash <${REQUEST_KINDS.join('|')}> --chain <${CHAIN_NAMES.join('|')}> [--withdraw-hash snip12|poseidon] [FILE|-]`;

const HELP: CommandHelp = {
  usage: USAGE,
  summary: 'Prints the SNIP-12 message hash the venue checks the signature against, for a POST body read from FILE or stdin (`-` or no FILE). Use it when the venue answers FAILED_SIGN_CHECK.',
};

const OPTIONS = {
  chain: { type: 'string', value: `<${CHAIN_NAMES.join('|')}>`, required: true, doc: 'the chain whose domain the hash uses' },
  'withdraw-hash': { type: 'string', value: 'snip12|poseidon', default: 'snip12', doc: 'withdraw hash scheme (poseidon: the legacy one)' },
} as const;

const HASHERS: Readonly<Record<RequestKind, (body: unknown, chain: ChainInfo, hasher: MessageHasher) => bigint>> = {
  order: (body, chain, hasher) => hasher.order(parseOrderBody(body, chain)),
  cancel: (body, _chain, hasher) => hasher.cancel(parseCancelBody(body)),
  'cancel-all': (body, chain, hasher) => hasher.cancelAll(parseCancelAllBody(body, chain)),
  withdraw: (body, chain, hasher) => hasher.withdraw(parseWithdrawBody(body, chain)),
  'increase-nonce': (body, chain, hasher) => hasher.increaseNonce(parseIncreaseNonceBody(body, chain)),
};

async function readInput(source: string | undefined, io: CliIo): Promise<string> {
  if (source === undefined || source === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return await readFile(resolve(io.cwd, source), 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${source}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export const runHash: CommandRunner = async (args, io) => {
  const { values, positionals } = parseFlags(args, OPTIONS, HELP);
  const [kind, source, ...extra] = positionals;
  if (kind === undefined) throw new UsageError(`a request kind is required; allowed: ${REQUEST_KINDS.join(', ')}\nusage: ${USAGE}`);
  if (!(REQUEST_KINDS as readonly string[]).includes(kind)) {
    throw new UnknownNameError('request kind', kind, REQUEST_KINDS, 'akira-mm hash --help');
  }
  if (extra.length > 0) throw new UsageError(`one input file at most, got ${positionals.length - 1}\nusage: ${USAGE}`);
  if (values.chain === undefined || !isChainName(values.chain)) {
    throw new UsageError(`--chain ${values.chain === undefined ? 'is required' : `"${values.chain}" is not allowed`}; allowed: ${CHAIN_NAMES.join(', ')}`);
  }
  const withdrawHash = values['withdraw-hash'] ?? 'snip12';
  if (!(WITHDRAW_HASH_SCHEMES as readonly string[]).includes(withdrawHash)) {
    throw new UsageError(`--withdraw-hash "${withdrawHash}" is not allowed; allowed: ${WITHDRAW_HASH_SCHEMES.join(', ')}`);
  }
  const text = await readInput(source, io);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`body: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const chain = getChain(values.chain);
  const hasher = createMessageHasher(chain, { withdrawHash: withdrawHash as WithdrawHashScheme });
  try {
    const hash = HASHERS[kind as RequestKind](body, chain, hasher);
    io.stdout.write(`0x${hash.toString(16)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof WireError) throw new UsageError(error.message);
    throw error;
  }
};
