/**
 * Reading secrets from a person or a pipe, never from argv (which `ps` and shell history show):
 * a prompt on the terminal that echoes nothing, or the whole of stdin when it is a pipe.
 */
import type { CliIo } from './io.ts';
import { UsageError } from './io.ts';

/** stdin as a terminal, when it is one. */
interface TerminalInput {
  readonly isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}

/** True when stdin is a terminal we can prompt on. */
export function isInteractive(io: CliIo): boolean {
  const input = io.stdin as unknown as TerminalInput;
  return input.isTTY === true && typeof input.setRawMode === 'function';
}

/**
 * Asks for a secret on the terminal without echo. Enter ends it, Backspace deletes, Ctrl-C or
 * Ctrl-D aborts.
 * @throws UsageError when stdin is not a terminal, or the user aborts.
 */
export function promptHidden(io: CliIo, prompt: string): Promise<string> {
  if (!isInteractive(io)) throw new UsageError(`${prompt.replace(/:\s*$/, '')}: no terminal to ask on`);
  const input = io.stdin as unknown as TerminalInput & NodeJS.ReadableStream;
  io.stderr.write(prompt);
  input.setRawMode?.(true);
  input.setEncoding('utf8');
  input.resume();
  return new Promise<string>((resolve, reject) => {
    let typed = '';
    const finish = (error: UsageError | undefined): void => {
      input.off('data', onData);
      input.setRawMode?.(false);
      input.pause();
      io.stderr.write('\n');
      if (error === undefined) resolve(typed);
      else reject(error);
    };
    const onData = (chunk: string): void => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return finish(undefined);
        if (char === '\u0003' || (char === '\u0004' && typed === '')) return finish(new UsageError('aborted'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else if (char >= ' ') typed += char;
      }
    };
    input.on('data', onData);
  });
}

/** Everything on stdin (a pipe or a redirected file), without the trailing newline. */
export async function readStdin(io: CliIo): Promise<string> {
  let text = '';
  io.stdin.setEncoding('utf8');
  for await (const chunk of io.stdin) text += String(chunk);
  return text.replace(/[\r\n]+$/, '');
}
