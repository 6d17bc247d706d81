import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { main } from '../../src/cli.ts';
import type { CliIo } from '../../src/cli/io.ts';

/** Runs the CLI in-process and captures what it printed. */
export async function runCli(args: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: Readable.from([stdin]),
    env: {},
    cwd: process.cwd(),
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

/** What a finished process printed and its exit code. */
export interface ProcessOutcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const BIN = new URL('../../bin/akira-mm.js', import.meta.url).pathname;
const ROOT = new URL('../..', import.meta.url).pathname;

/** Runs `command args…` from the repository's root as a real process, stdin closed. */
export function runProcess(command: string, args: readonly string[]): Promise<ProcessOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs `akira-mm args…` as a user does: `node bin/akira-mm.js`, a process of its own. */
export function runCliProcess(args: readonly string[]): Promise<ProcessOutcome> {
  return runProcess(process.execPath, [BIN, ...args]);
}
