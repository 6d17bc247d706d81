/**
 * Owner-only Unix sockets that speak one JSON object per line: the remote signer's
 * (`akira-mm signer serve`) and the daemon's control socket (`akira-mm ctl`). One implementation of
 * who may connect and of the line framing, so the two never drift apart.
 *
 * Who may connect: the socket file is created with mode 0600 (0660 on request) from the first
 * instant (umask), and Linux checks write permission on the socket file at connect(2). That is
 * the peer authentication: Node has no SO_PEERCRED, and a process that can write to the socket
 * file could equally read the socket's directory. Abstract sockets (no file, no permissions) are
 * never used.
 */
import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** Longest line either side accepts (a signer's batch of a few hundred orders is well under it). */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/**
 * Longest Unix socket path Linux binds (`sun_path` is 108 bytes with its terminating NUL): a
 * longer one fails at listen(2) with a message that does not say why.
 */
export const MAX_SOCKET_PATH_BYTES = 107;

/** Options of {@link listenOwnerOnly}. */
export interface OwnerOnlyListenOptions {
  readonly socketPath: string;
  /** 0o600 (default: this user only) or 0o660 (its group too). */
  readonly mode?: 0o600 | 0o660;
  /** What listens, for the error when another one already does ("signer", "daemon"). */
  readonly what: string;
  readonly onConnection: (socket: Socket) => void;
}

/**
 * Listens on a Unix socket only its owner (or group, with 0o660) may connect to. A stale socket
 * file left by a crash is replaced; a live one is not.
 * @throws Error when the path is too long, is not a socket, another server answers on it, or it
 *   cannot be created.
 */
export async function listenOwnerOnly(options: OwnerOnlyListenOptions): Promise<Server> {
  const { socketPath } = options;
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
    throw new Error(`socket path ${socketPath} is ${Buffer.byteLength(socketPath)} bytes; Unix sockets take at most ${MAX_SOCKET_PATH_BYTES} (choose a shorter directory)`);
  }
  await removeStaleSocket(socketPath, options.what);
  const server = createServer();
  server.on('connection', options.onConnection);
  // Created 0600 from the start (umask), then set to the configured mode: never a moment
  // where another user could connect.
  const previousMask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } finally {
    process.umask(previousMask);
  }
  chmodSync(socketPath, options.mode ?? 0o600);
  return server;
}

/** Removes a socket file left by a dead server; refuses when a server still answers on it. */
async function removeStaleSocket(path: string, what: string): Promise<void> {
  let isSocket: boolean;
  try {
    isSocket = lstatSync(path).isSocket();
  } catch {
    return;
  }
  if (!isSocket) throw new Error(`${path} exists and is not a socket`);
  if (await isAnswering(path)) throw new Error(`another ${what} is already listening on ${path}`);
  unlinkSync(path);
}

/** True when a server accepts connections on this socket path. */
export function isAnswering(path: string): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const probe = createConnection(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/**
 * Calls `onLine` for each line the socket sends; a line past {@link MAX_LINE_BYTES} calls
 * `onTooLong` instead and nothing more is read from that socket.
 */
export function onLines(socket: Socket, onLine: (line: string) => void, onTooLong: (error: Error) => void): void {
  const lines = new LineSplitter();
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    let received: string[];
    try {
      received = lines.push(chunk);
    } catch (error) {
      onTooLong(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    for (const line of received) onLine(line);
  });
}

/** Splits a byte stream into lines; refuses a line longer than {@link MAX_LINE_BYTES}. */
class LineSplitter {
  #rest = '';

  /**
   * The complete lines in this chunk (the tail waits for the next one).
   * @throws Error when a line grows past the limit.
   */
  push(chunk: string): string[] {
    const parts = (this.#rest + chunk).split('\n');
    this.#rest = parts.pop() ?? '';
    if (this.#rest.length > MAX_LINE_BYTES) throw new Error(`a line longer than ${MAX_LINE_BYTES} bytes`);
    return parts.filter((line) => line.length > 0);
  }
}
