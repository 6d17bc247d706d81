/**
 * `akira-mm paper …` as a child process (`node bin/akira-mm.js`, as a user starts it) serving its
 * metrics on a free loopback port, stopped by SIGTERM once the test has read what it needs. A
 * `--duration` would count from the start, so on a loaded machine a slow start could use it up
 * before the bot quotes; with a signal a slow start only makes the test wait.
 */
import { spawn } from 'node:child_process';
import { REPO_ROOT, freePort } from '../../tools/chaos/bot-process.ts';

/** A running paper bot. */
export interface PaperProcess {
  /** Its metrics server: `${url}/metrics`, `/health`, `/livez`, `/readyz`. */
  readonly url: string;
  readonly metricsPort: number;
  /** What it printed so far (for failure messages). */
  output(): string;
  /** Scrapes /metrics every half second until `isReady(text)`; that text. @throws after `timeoutMs` or when the bot exits. */
  metricsOnceReady(isReady: (text: string) => boolean, timeoutMs: number): Promise<string>;
  /** SIGTERM (the bot cancels every order and exits); its exit code. */
  stop(): Promise<number | null>;
}

/** Starts `akira-mm paper <args> --metrics-port <free port>`; a 10-minute `--duration` bounds a bot a failed test leaves. */
export async function startPaper(args: readonly string[]): Promise<PaperProcess> {
  const metricsPort = await freePort();
  const child = spawn(process.execPath, ['bin/akira-mm.js', 'paper', ...args, '--duration', '600', '--metrics-port', String(metricsPort)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve(code);
    }),
  );
  const url = `http://127.0.0.1:${metricsPort}`;
  return {
    url,
    metricsPort,
    output: () => output,
    async metricsOnceReady(isReady, timeoutMs) {
      const deadline = performance.now() + timeoutMs;
      let text = '';
      while (!isReady(text)) {
        if (exitCode !== undefined) throw new Error(`akira-mm paper exited (${String(exitCode)}) before it was ready:\n${output.slice(-2_000)}`);
        if (performance.now() > deadline) throw new Error(`akira-mm paper not ready after ${timeoutMs} ms:\n${output.slice(-2_000)}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
        text = await fetch(`${url}/metrics`).then((response) => response.text(), () => text);
      }
      return text;
    },
    stop() {
      if (exitCode === undefined) child.kill('SIGTERM');
      return exited;
    },
  };
}
