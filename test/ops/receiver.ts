/**
 * A loopback receiver for alerts (real HTTP on 127.0.0.1:0) that plays the four services and
 * records what arrives: the generic webhook (`/hook`), Telegram's Bot API
 * (`/bot<token>/sendMessage`, answering `{"ok":true,"result":…}`), a Slack incoming webhook
 * (`/slack/…`, answering `ok`) and a Discord webhook (`/discord/<id>/<token>`, answering the
 * message with `wait=true`, 204 without). A test may make a route answer a status, or hang.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request as it arrived. */
export interface Received {
  /** Which service it was for. */
  readonly service: 'webhook' | 'telegram' | 'slack' | 'discord' | 'unknown';
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly contentType: string | undefined;
  readonly body: unknown;
  /** performance.now() at arrival. */
  readonly atMs: number;
}

/** How a route answers: a status (and body, headers), or never. */
export type Answer = { readonly status: number; readonly body?: string; readonly headers?: Record<string, string> } | 'hang';

/** The URLs to configure, pointing at the receiver. */
export interface ReceiverUrls {
  readonly webhook: string;
  readonly telegramApi: string;
  readonly slack: string;
  readonly discord: string;
}

export const TELEGRAM_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ';
const SLACK_PATH = '/slack/services/T000SECRET/B000SECRET/XXXXslacksecretXXXX';
const DISCORD_PATH = '/discord/api/webhooks/1234567890/discord-secret-token_abc';

export class AlertReceiver {
  readonly received: Received[] = [];
  readonly #answers = new Map<Received['service'], Answer[]>();
  readonly #waiters: { count: number; resolve: () => void }[] = [];
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;
  #port = 0;

  async start(): Promise<this> {
    const server = createServer((request, response) => void this.#handle(request, response));
    server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.#server = server;
    this.#port = (server.address() as AddressInfo).port;
    return this;
  }

  get urls(): ReceiverUrls {
    const base = `http://127.0.0.1:${this.#port}`;
    return { webhook: `${base}/hook`, telegramApi: base, slack: `${base}${SLACK_PATH}`, discord: `${base}${DISCORD_PATH}` };
  }

  /** The next requests to `service` get these answers, in order (then the default again). */
  answer(service: Received['service'], ...answers: Answer[]): void {
    this.#answers.set(service, [...(this.#answers.get(service) ?? []), ...answers]);
  }

  /** Every request to `service` gets `answer` until told otherwise. */
  always(service: Received['service'], answer: Answer): void {
    this.#answers.set(service, new Array<Answer>(100_000).fill(answer));
  }

  of(service: Received['service']): Received[] {
    return this.received.filter((request) => request.service === service);
  }

  /** Resolves once `count` requests have arrived. */
  waitFor(count: number): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }

  async stop(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.#server === undefined ? resolve() : this.#server.close(() => resolve())));
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const service = serviceOf(url.pathname);
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text, and the test says so
    }
    this.received.push({ service, method: request.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams), contentType: request.headers['content-type'], body, atMs: performance.now() });
    for (const waiter of [...this.#waiters]) {
      if (this.received.length < waiter.count) continue;
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    const answer = this.#answers.get(service)?.shift() ?? defaultAnswer(service, url);
    if (answer === 'hang') return;
    response.writeHead(answer.status, answer.headers ?? {});
    response.end(answer.body ?? '');
  }
}

function serviceOf(path: string): Received['service'] {
  if (path === '/hook') return 'webhook';
  if (/^\/bot[^/]+\/sendMessage$/.test(path)) return 'telegram';
  if (path.startsWith('/slack/')) return 'slack';
  if (path.startsWith('/discord/')) return 'discord';
  return 'unknown';
}

/** What each service answers a good request (their documented success answers). */
function defaultAnswer(service: Received['service'], url: URL): Answer {
  switch (service) {
    case 'webhook':
      return { status: 200, body: '' };
    case 'telegram':
      return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ok: true, result: { message_id: 1, chat: { id: 42, type: 'private' }, date: 1_700_000_000, text: '…' } }) };
    case 'slack':
      return { status: 200, headers: { 'content-type': 'text/html' }, body: 'ok' };
    case 'discord':
      return url.searchParams.get('wait') === 'true' ? { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: '1', content: '…' }) } : { status: 204 };
    default:
      return { status: 404, body: 'no such route' };
  }
}
