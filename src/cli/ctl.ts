/**
 * `akira-mm ctl <status|pause|resume|cancel-all|set KEY=VALUE|reload>`: steers a running daemon
 * (`run`, `paper`) from a shell over its control socket, an owner-only Unix socket in the state
 * directory, found the way `run` finds its state: `--env FILE` (its STATE_DIR, venue and account),
 * else the only daemon listening under `--state-dir DIR` (default as `run`), or `--socket PATH`.
 * One pair with `--pair BASE/QUOTE`, else every pair of the account. Human text by default,
 * `--json` for scripts (the daemon's answer as it is). Exit 0 when done, 1 when the daemon refused
 * (or took only part of a reload), 2 for bad usage.
 */
import { readdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { LiveClock, isAnswering, onLines } from '../core/index.ts';
import { parseFlags, type CommandHelp } from './args.ts';
import { CTL_OPS, encodeCtlLine, type CtlCancelled, type CtlCaller, type CtlChanged, type CtlOp, type CtlRequest, type CtlResponse, type CtlStatus, type CtlSwitched } from './ctl-protocol.ts';
import { INSECURE_PERMISSIONS_FLAG, pairFileOptions } from './file-permissions.ts';
import { UnknownNameError, UsageError, type CliIo, type CommandRunner } from './io.ts';
import { accountKey, controlSocketPath, resolveStateDir } from './state-dir.ts';

const USAGE = 'akira-mm ctl <status|pause|resume|cancel-all|set KEY=VALUE|reload> [--pair BASE/QUOTE] [--env FILE | --state-dir DIR | --socket PATH] [--json]';

const HELP: CommandHelp = {
  usage: USAGE,
  summary:
    "Steers a running daemon (run, paper) over its owner-only control socket in the state directory. status: each pair's state, pause or halt reason, position, quotes and PnL. pause: pull every quote and keep the process (/health answers 503, reason paused); resume: quote again. cancel-all: pull every order now, then quote afresh. set KEY=VALUE: change a strategy or risk key live, checked as the pair file's would be (a key that needs a restart is refused, naming it). reload: read the pair file(s) again and take what changed live, naming what needs a restart. Every change is logged and audited in the state directory.",
  notes: [
    'Live keys (ctl set, ctl reload): every strategy key, REQUOTE_*, MIN_EDGE_BPS, PRESIGN_TICKS and the pair\'s RISK_* caps but RISK_MAX_ORDER_NOTIONAL (the signer\'s policy holds it); docs/operations.md lists them.',
    'Exit status: 0 done; 1 refused (an unknown pair, a key that needs a restart, a bad value, a halted pair, no daemon listening) or a reload that left keys for a restart; 2 bad usage.',
  ],
};

const OPTIONS = {
  pair: { type: 'string', value: 'BASE/QUOTE', default: 'every pair of the account', doc: 'the pair to steer' },
  env: { type: 'string', value: 'FILE', doc: "a pair file of the daemon: its STATE_DIR, venue and account find the socket (no secret is read)" },
  'state-dir': {
    type: 'string',
    value: 'DIR',
    default: 'STATE_DIR, else $XDG_STATE_HOME/akira-mm, else ~/.local/state/akira-mm',
    doc: 'the state directory the daemon runs in; without --env, the one daemon listening there',
  },
  socket: { type: 'string', value: 'PATH', doc: 'the control socket itself (<state dir>/<venue>/ctl-<account>.sock)' },
  json: { type: 'boolean', doc: "print the daemon's answer as JSON (for scripts)" },
  timeout: { type: 'string', value: 'S', unit: 's', default: 60, doc: 'give up waiting for the answer after this long (a cancel-all waits for the venue, at most SHUTDOWN_TIMEOUT_MS)' },
  ...INSECURE_PERMISSIONS_FLAG,
} as const;

export const runCtl: CommandRunner = async (args, io) => {
  const { values, positionals } = parseFlags(args, OPTIONS, HELP);
  const [opText, ...rest] = positionals;
  if (opText === undefined) throw new UsageError(`a command is required\nusage: ${USAGE}`);
  if (!(CTL_OPS as readonly string[]).includes(opText)) throw new UnknownNameError('command', opText, [...CTL_OPS], `usage: ${USAGE}`);
  const op = opText as CtlOp;
  const assignment = op === 'set' ? parseAssignment(rest) : undefined;
  if (op !== 'set' && rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"\nusage: ${USAGE}`);
  if (values.pair !== undefined && !/^[A-Z0-9]+\/[A-Z0-9]+$/.test(values.pair)) throw new UsageError(`--pair=${values.pair}: BASE/QUOTE in capitals, e.g. ETH/USDC`);
  const timeoutS = values.timeout === undefined ? 60 : Number(values.timeout);
  if (!Number.isFinite(timeoutS) || timeoutS <= 0 || timeoutS > 3600) throw new UsageError(`--timeout=${values.timeout}: seconds, more than 0 and at most 3600`);
  const socketPath = await findSocket(io, values);
  const request: CtlRequest = { id: 1, op, ...(values.pair === undefined ? {} : { pair: values.pair }), ...(assignment ?? {}), by: caller() };
  let response: CtlResponse;
  try {
    response = await ask(socketPath, request, timeoutS * 1_000);
  } catch (error) {
    io.stderr.write(`akira-mm ctl: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  if ('error' in response) {
    if (values.json === true) io.stdout.write(`${JSON.stringify({ error: response.error })}\n`);
    else io.stderr.write(`akira-mm ctl ${op}: ${response.error.message}\n`);
    return 1;
  }
  if (values.json === true) io.stdout.write(`${JSON.stringify(response.ok, null, 2)}\n`);
  else io.stdout.write(renderCtlAnswer(op, response.ok));
  return isCompleteAnswer(op, response.ok) ? 0 : 1;
};

/** `KEY=VALUE` (the value may hold `=` and may be empty). */
function parseAssignment(rest: readonly string[]): { key: string; value: string } {
  const [assignment, extra] = rest;
  if (assignment === undefined || extra !== undefined) throw new UsageError(`set takes one KEY=VALUE, e.g. ctl set LADDER_BID_SPREAD_BPS=8\nusage: ${USAGE}`);
  const at = assignment.indexOf('=');
  if (at <= 0) throw new UsageError(`set ${assignment}: KEY=VALUE, e.g. LADDER_BID_SPREAD_BPS=8`);
  return { key: assignment.slice(0, at), value: assignment.slice(at + 1) };
}

/** Who asks, as far as this process knows (the daemon records it in its audit file). */
function caller(): CtlCaller {
  let user: string | null = null;
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry (a container's arbitrary uid): the uid says who.
  }
  return { uid: process.getuid?.() ?? null, user, pid: process.pid };
}

/**
 * The daemon's control socket: `--socket`, else the one `--env`'s account has in the state
 * directory, else the one daemon listening there.
 * @throws UsageError when none, or more than one, is found.
 */
async function findSocket(io: CliIo, values: { readonly socket?: string | undefined; readonly env?: string | undefined; readonly 'state-dir'?: string | undefined; readonly 'insecure-permissions'?: boolean | undefined }): Promise<string> {
  if (values.socket !== undefined) return resolve(io.cwd, values.socket);
  const flag = values['state-dir'];
  if (values.env !== undefined) {
    const { loadPairFile } = await import('./pair-config.ts');
    const config = loadPairFile(resolve(io.cwd, values.env), {}, { ...pairFileOptions(io, values), requireSigner: false });
    const stateDir = resolveStateDir({ flag, configured: config.stateDir, env: io.env, cwd: io.cwd });
    return controlSocketPath(stateDir, accountKey(config.exchangeHttpUrl, config.tradingAccount));
  }
  const stateDir = resolveStateDir({ flag, env: io.env, cwd: io.cwd });
  const candidates = socketsUnder(stateDir);
  const answering = (await Promise.all(candidates.map(async (path) => ((await isAnswering(path)) ? path : undefined)))).filter((path): path is string => path !== undefined);
  const [only, another] = answering;
  if (only === undefined) throw new UsageError(`no daemon listens under ${stateDir} (is it running, with this state directory? --env FILE or --socket PATH name it)`);
  if (another !== undefined) throw new UsageError(`several daemons listen under ${stateDir}: ${answering.join(', ')}; name one with --env FILE or --socket PATH`);
  return only;
}

/** Control sockets one level under the state directory (`<venue>/ctl-*.sock`). */
function socketsUnder(stateDir: string): string[] {
  let venues: string[];
  try {
    venues = readdirSync(stateDir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch {
    return [];
  }
  return venues.flatMap((venue) => {
    try {
      return readdirSync(join(stateDir, venue)).filter((name) => /^ctl-[0-9a-f]+\.sock$/.test(name)).map((name) => join(stateDir, venue, name));
    } catch {
      return [];
    }
  });
}

/**
 * Sends one request and waits for its answer.
 * @throws Error when nothing listens, the daemon closes without answering, or `timeoutMs` passes.
 */
export function ask(socketPath: string, request: CtlRequest, timeoutMs: number): Promise<CtlResponse> {
  const clock = new LiveClock();
  return new Promise<CtlResponse>((resolveAnswer, reject) => {
    const socket = createConnection(socketPath);
    let settled = false;
    const timer = clock.setTimeout(() => finish(new Error(`no answer from the daemon on ${socketPath} within ${timeoutMs / 1_000} s`)), timeoutMs);
    const finish = (outcome: CtlResponse | Error): void => {
      if (settled) return;
      settled = true;
      timer.cancel();
      socket.destroy();
      if (outcome instanceof Error) reject(outcome);
      else resolveAnswer(outcome);
    };
    onLines(
      socket,
      (line) => {
        try {
          finish(JSON.parse(line) as CtlResponse);
        } catch {
          finish(new Error(`the daemon on ${socketPath} answered something that is not JSON`));
        }
      },
      (error) => finish(error),
    );
    socket.on('connect', () => socket.write(encodeCtlLine(request)));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish(new Error(error.code === 'ENOENT' || error.code === 'ECONNREFUSED' ? `no daemon listens on ${socketPath} (${error.code})` : `${socketPath}: ${error.message}`)),
    );
    socket.on('close', () => finish(new Error(`the daemon on ${socketPath} closed the connection without answering`)));
  });
}

/** False when the daemon did less than asked: a pause it could not make, a cancel-all not confirmed, keys left for a restart. */
export function isCompleteAnswer(op: CtlOp, answer: unknown): boolean {
  switch (op) {
    case 'pause':
      return (answer as CtlSwitched).pairs.every((pair) => pair.done);
    case 'cancel-all':
      return (answer as CtlCancelled).pairs.every((pair) => pair.confirmed);
    case 'set':
    case 'reload':
      return (answer as CtlChanged).pairs.every((pair) => pair.refused.length === 0);
    case 'status':
    case 'resume':
      return true;
  }
}

/** The daemon's answer as lines for a person. */
export function renderCtlAnswer(op: CtlOp, answer: unknown): string {
  const lines: string[] = [];
  const why = (reason: string | null): string => (reason === null ? '' : ` (${reason})`);
  switch (op) {
    case 'status': {
      const status = answer as CtlStatus;
      lines.push(...status.rows);
      for (const pair of status.pairs) {
        const base = pair.pair.split('/')[0] ?? '';
        lines.push(
          `${pair.pair}: ${pair.state}${why(pair.reason)} · ${pair.strategy} · position ${pair.position.toFixed(6)} ${base} (cap ${pair.inventoryCap === 0 ? 'none' : pair.inventoryCap.toFixed(6)}) · ` +
            `${pair.bids.length} bids, ${pair.asks.length} asks · PnL ${pair.pnl.total.toFixed(6)} (realized ${pair.pnl.realized.toFixed(6)}), ${pair.pnl.fills} fills`,
        );
      }
      if (status.account.state === 'halted') lines.push(`account: HALTED${why(status.account.reason)}`);
      break;
    }
    case 'pause':
    case 'resume':
      for (const pair of (answer as CtlSwitched).pairs) {
        const outcome = pair.done ? (op === 'pause' ? 'paused by the operator' : 'operator pause cleared') : op === 'pause' ? 'not paused' : 'was not paused by the operator';
        lines.push(`${pair.pair}: ${outcome}; now ${pair.state}${why(pair.reason)}`);
      }
      break;
    case 'cancel-all':
      for (const pair of (answer as CtlCancelled).pairs) {
        lines.push(`${pair.pair}: ${pair.confirmed ? 'the venue confirmed nothing of ours rests' : 'NOT confirmed: orders may still rest (see the log)'}; now ${pair.state}${why(pair.reason)}`);
      }
      break;
    case 'set':
    case 'reload':
      for (const pair of (answer as CtlChanged).pairs) {
        if (pair.applied.length === 0 && pair.refused.length === 0) lines.push(`${pair.pair}: nothing changed`);
        for (const change of pair.applied) lines.push(`${pair.pair}: ${change.key} ${change.old} → ${change.new}${change.unread === undefined ? '' : ` (${change.unread})`}`);
        for (const refused of pair.refused) lines.push(`${pair.pair}: not taken: ${refused.reason}`);
      }
      break;
  }
  return lines.map((line) => `${line}\n`).join('');
}
