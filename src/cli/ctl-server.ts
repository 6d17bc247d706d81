/**
 * The daemon's end of `akira-mm ctl`: an owner-only Unix socket in the state directory
 * (`controlSocketPath`; the signer's socket code, `listenOwnerOnly`), one request per connection,
 * answered and closed. Never an HTTP endpoint: the metrics server stays read-only.
 */
import type { Server, Socket } from 'node:net';
import { listenOwnerOnly, onLines, type Logger } from '../core/index.ts';
import { CtlRefusal, encodeCtlLine, parseCtlRequest, type CtlResponse } from './ctl-protocol.ts';
import type { DaemonControl } from './daemon-control.ts';

/** A listening control socket. */
export class ControlServer {
  readonly socketPath: string;
  readonly #server: Server;
  /** Open connections, destroyed on stop. */
  readonly #sockets: Set<Socket>;
  #stopping: Promise<void> | undefined;

  private constructor(server: Server, socketPath: string, sockets: Set<Socket>) {
    this.#server = server;
    this.socketPath = socketPath;
    this.#sockets = sockets;
  }

  /**
   * Listens on `socketPath` (mode 0600; a stale socket left by a crash is replaced).
   * @throws Error when the path is too long, another daemon answers on it, or it cannot be created.
   */
  static async start(options: { readonly socketPath: string; readonly control: DaemonControl; readonly logger: Logger }): Promise<ControlServer> {
    const sockets = new Set<Socket>();
    const server = await listenOwnerOnly({
      socketPath: options.socketPath,
      what: 'daemon',
      onConnection: (socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', (error) => options.logger.warn({ err: error.message }, 'ctl connection failed'));
        let answered = false;
        onLines(
          socket,
          (line) => {
            if (answered) return;
            answered = true;
            void answer(options.control, options.logger, line).then((response) => socket.end(encodeCtlLine(response)));
          },
          (error) => socket.end(encodeCtlLine({ id: null, error: { code: 'CTL_BAD_REQUEST', message: error.message } })),
        );
      },
    });
    return new ControlServer(server, options.socketPath, sockets);
  }

  /** Stops listening, drops connections and removes the socket file. Idempotent. */
  stop(): Promise<void> {
    this.#stopping ??= new Promise<void>((resolve) => {
      for (const socket of this.#sockets) socket.destroy();
      this.#server.close(() => resolve());
    });
    return this.#stopping;
  }
}

/** The answer to one request line: its result, or why it was refused. */
async function answer(control: DaemonControl, logger: Logger, line: string): Promise<CtlResponse> {
  let id: number | null = null;
  try {
    const request = parseCtlRequest(line);
    id = request.id;
    return { id, ok: await control.handle(request) };
  } catch (error) {
    if (error instanceof CtlRefusal) return { id, error: { code: error.code, message: error.message } };
    logger.error({ err: error instanceof Error ? error.message : String(error) }, 'ctl request failed');
    return { id, error: { code: 'CTL_FAILED', message: `the daemon failed to carry it out: ${error instanceof Error ? error.message : String(error)}` } };
  }
}
