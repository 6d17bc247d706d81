/**
 * The one HTTP client of the notifier: JSON POSTs over an undici `Agent` the notifier owns (its
 * sockets close with it), cancelled through an `AbortSignal` the sender arms on the injected
 * clock. It only moves bytes: a network failure rejects, any HTTP answer resolves; the sender
 * decides what the answer means.
 */
import { Agent, request } from 'undici';

/** An HTTP answer: status, the `Retry-After` header (raw) and the body text. */
export interface HttpAnswer {
  readonly status: number;
  readonly retryAfter: string | undefined;
  readonly body: string;
}

/** Posts `body` (JSON) to `url`; rejects on a network failure or an abort. */
export type HttpPost = (url: string, body: string, signal: AbortSignal) => Promise<HttpAnswer>;

/** A poster and the way to close its sockets. */
export interface HttpClient {
  readonly post: HttpPost;
  /** Closes every socket at once (requests still running are aborted). Idempotent. */
  close(): Promise<void>;
}

/** Answers past this many bytes are cut: a service's answer is a word or a small object. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** An undici client; `connections` sockets per origin at most. */
export function createHttpClient(connections = 2): HttpClient {
  const agent = new Agent({ connections, keepAliveTimeout: 30_000 });
  let isClosed = false;
  return {
    async post(url, body, signal) {
      const response = await request(url, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body,
        signal,
      });
      const text = await readCapped(response.body);
      const retryAfter = response.headers['retry-after'];
      return { status: response.statusCode, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, body: text };
    },
    async close() {
      if (isClosed) return;
      isClosed = true;
      await agent.destroy();
    },
  };
}

async function readCapped(body: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size >= MAX_ANSWER_BYTES) continue;
    const piece = Buffer.from(chunk);
    chunks.push(piece);
    size += piece.length;
  }
  return Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8');
}
