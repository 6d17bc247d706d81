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
