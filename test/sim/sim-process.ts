/**
 * `akira-mm sim` as a user starts it: a child process, ready once it logs its `sim listening` line
 * (its URLs); what it printed so far, and a SIGTERM stop that resolves with its exit code.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface SimProcess {
  readonly child: ChildProcess;
  /** The `sim listening` log line, parsed. */
  readonly line: Record<string, unknown>;
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

export async function spawnSim(args: readonly string[]): Promise<SimProcess> {
  const child = spawn(process.execPath, ['bin/akira-mm.js', 'sim', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const line = await new Promise<Record<string, unknown>>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = stderr.split('\n').find((entry) => entry.includes('sim listening'));
      if (found !== undefined) resolve(JSON.parse(found) as Record<string, unknown>);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  return {
    child,
    line,
    stdout: () => stdout,
    stderr: () => stderr,
    stop: () => {
      const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      return exit;
    },
  };
}
