/**
 * The WebSocket half of the preflight: connect with a listen key, subscribe to our fills and the
 * pair's bbo, trade and snap streams, wait for the first book frame, and compare the venue's
 * timestamps with our clock (orders carry `created_at` from it: too far off and the venue refuses
 * them, WRONG_TIMESTAMP).
 */
import type { Topic } from '../stream/index.ts';
import { MarketStream, type StreamEvent } from '../stream/index.ts';
import type { RestClient } from '../client/index.ts';
import type { CheckResult, PreflightDeps, PreflightLimits, PreflightTarget } from './types.ts';

type Report = (result: CheckResult) => void;

/** Connects, subscribes, waits for a book frame and measures the clock skew. */
export async function checkStream(target: PreflightTarget, rest: RestClient, limits: PreflightLimits, deps: PreflightDeps, report: Report): Promise<void> {
  const events: Array<{ readonly kind: StreamEvent['type']; readonly atMs: number; readonly venueMs: number | undefined }> = [];
  let wake: () => void = () => undefined;
  const stream = new MarketStream({
    url: target.wsUrl,
    signerKey: target.signer.starkKey,
    chain: target.chain,
    keys: rest,
    clock: deps.clock,
    rng: deps.rng,
    logger: deps.logger,
    defaultPair: target.pair,
    handlers: {
      onEvent: (event) => {
        const timed = 'timeMs' in event && event.timeMs !== event.receivedMs ? event.timeMs : undefined;
        events.push({ kind: event.type, atMs: deps.clock.nowMs(), venueMs: timed });
        wake();
      },
    },
    timing: { connectTimeoutMs: limits.firstFrameTimeoutMs, ackTimeoutMs: limits.firstFrameTimeoutMs, reconnect: { baseMs: 60_000, maxMs: 60_000 } },
  });
  const topics: Topic[] = [
    { kind: 'fills', account: target.account },
    { kind: 'bbo', pair: target.pair, ecosystem: target.ecosystemBook },
    { kind: 'trade', pair: target.pair, ecosystem: target.ecosystemBook },
    { kind: 'snap', pair: target.pair, ecosystem: target.ecosystemBook },
  ];
  const started = deps.clock.nowMs();
  try {
    await stream.start();
    const connectedMs = deps.clock.nowMs() - started;
    for (const topic of topics) await stream.subscribe(topic);
    report({ name: 'WS', status: 'pass', detail: `${target.wsUrl} connected in ${connectedMs} ms; fills, bbo, trade and snap acknowledged in ${deps.clock.nowMs() - started - connectedMs} ms` });
  } catch (error) {
    await stream.stop();
    report({ name: 'WS', status: 'fail', detail: `${target.wsUrl}: ${error instanceof Error ? error.message : String(error)}`, fix: 'check EXCHANGE_WS_URL (wss://…/ws) and that the listen key is served' });
    report({ name: 'first frames', status: 'skip', detail: 'no WS connection' });
    report({ name: 'clock skew', status: 'skip', detail: 'no WS connection' });
    return;
  }
  const subscribedMs = deps.clock.nowMs();
  const deadline = subscribedMs + limits.firstFrameTimeoutMs;
  const isBook = (kind: string): boolean => kind === 'bbo' || kind === 'snap';
  while (!events.some((event) => isBook(event.kind)) && deps.clock.nowMs() < deadline) {
    await new Promise<void>((resolve) => {
      wake = resolve;
      deps.clock.setTimeout(resolve, Math.max(1, deadline - deps.clock.nowMs()), { unref: true });
    });
  }
  await stream.stop();
  const firstBook = events.find((event) => isBook(event.kind));
  const seen = [...new Set(events.map((event) => event.kind))].join(', ') || 'nothing';
  if (firstBook === undefined) {
    report({
      name: 'first frames',
      status: 'fail',
      detail: `no bbo or snap frame within ${limits.firstFrameTimeoutMs} ms (saw: ${seen})`,
      fix: 'the book may be quiet: run again with --order-test (our order moves it), or check BASE/QUOTE/ECOSYSTEM_BOOK',
    });
  } else {
    report({ name: 'first frames', status: 'pass', detail: `first ${firstBook.kind} ${firstBook.atMs - subscribedMs} ms after subscribing (saw: ${seen})` });
  }
  const skews = events.filter((event) => event.venueMs !== undefined).map((event) => event.atMs - (event.venueMs as number));
  if (skews.length === 0) {
    report({ name: 'clock skew', status: 'skip', detail: 'no frame carried a venue timestamp' });
    return;
  }
  // Receive time minus send time: our clock's offset plus the one-way latency, so the smallest is the best bound.
  const skewMs = skews.reduce((best, skew) => (Math.abs(skew) < Math.abs(best) ? skew : best));
  const ok = Math.abs(skewMs) <= limits.maxClockSkewMs;
  report({
    name: 'clock skew',
    status: ok ? 'pass' : 'fail',
    detail: `our clock is ${skewMs} ms ${skewMs >= 0 ? 'ahead of' : 'behind'} the venue's timestamps (smallest of ${skews.length}, latency included; limit ${limits.maxClockSkewMs} ms)`,
    ...(ok ? {} : { fix: 'synchronise the clock (chrony / systemd-timesyncd): orders carry created_at from it and the venue refuses stale or future ones' }),
  });
}
