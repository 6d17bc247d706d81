/**
 * A real `akira-mm signer serve` process for the benchmarks: a keystore (cheap scrypt), its
 * password file and a pair file for ETH/USDC in a temporary folder, the signer started on a
 * socket there, stopped with SIGTERM; the folder (a keystore and its password) is removed when
 * the process has exited, or at once when it fails to start.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { encryptStarkKeystore } from '../src/exchange/signer/index.ts';
import { feltToHex } from '../src/exchange/wire/fields.ts';

const BIN = new URL('../bin/akira-mm.js', import.meta.url).pathname;

/** A running signer process and its socket. */
export interface SignerProcess {
  readonly socketPath: string;
  stop(): Promise<void>;
}

/**
 * Starts `akira-mm signer serve` for `account` with `privateKey`; resolves once it listens, and
 * with `settle` (the default) two seconds later, once its threads' tables are built.
 */
export async function spawnSigner(options: { privateKey: bigint; account: bigint; workers: number; settle?: boolean }): Promise<SignerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'akira-bench-signer-'));
  const password = 'bench-password';
  writeFileSync(join(dir, 'key.json'), await encryptStarkKeystore(options.privateKey, password, { scrypt: { n: 1024, r: 8, p: 1 }, randomBytes }), { mode: 0o600 });
  writeFileSync(join(dir, 'password'), password, { mode: 0o600 });
  writeFileSync(join(dir, 'pair.env'), [`TRADING_ACCOUNT=${feltToHex(options.account)}`, 'BASE=ETH', 'QUOTE=USDC'].join('\n'), { mode: 0o600 });
  const socketPath = join(dir, 'signer.sock');
  const child = spawn(
    process.execPath,
    [BIN, 'signer', 'serve', '--keystore', 'key.json', '--password-file', 'password', '--env', 'pair.env', '--socket', socketPath, '--workers', String(options.workers), '--log-level', 'warn'],
    { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const removeDir = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    await new Promise<void>((resolve, reject) => {
      let output = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('signer serving')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`signer exited (${code}): ${output}`)));
    });
  } catch (error) {
    removeDir();
    throw error;
  }
  // Its worker threads build their tables in the first second or two: measuring before then
  // would time the build. A quick run measures nothing worth quoting and skips the wait.
  if (options.settle !== false) await new Promise((resolve) => setTimeout(resolve, 2_000));
  return {
    socketPath,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      removeDir();
    },
  };
}
