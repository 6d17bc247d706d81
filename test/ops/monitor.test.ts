/**
 * The adapters from the engine's reports to ops events: each pair's observer (halt with its code,
 * pauses timed, drifts in tokens against the tolerance), the status poll (hedger, reference,
 * divergence, balances, growing counters) and the daily summary at its UTC time.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock, type ReferenceStatus } from '../../src/core/index.ts';
import type { EngineStatus, HedgeStatus } from '../../src/engine/index.ts';
import { OpsMonitor, nextDailyMs, type AccountSource, type OpsEvent, type OpsSink } from '../../src/ops/index.ts';
import { ACCOUNT, alertSettings } from './support.ts';

const T0 = Date.UTC(2025, 0, 2, 12, 0, 0);

interface Rig {
  readonly clock: ManualClock;
  readonly events: OpsEvent[];
  readonly monitor: OpsMonitor;
  status: Partial<EngineStatus>;
  counters: { reconnects: number; rateLimited: number; referenceReconnects: number };
}

function rig(keys: Record<string, string> = {}, extra: Partial<AccountSource> = {}): Rig {
  const clock = new ManualClock(T0);
  const events: OpsEvent[] = [];
  const sink: OpsSink = { policy: alertSettings(keys).policy, publish: (event) => events.push(event) };
  const state: Rig = { clock, events, monitor: undefined as unknown as OpsMonitor, status: { state: 'quoting' }, counters: { reconnects: 0, rateLimited: 0, referenceReconnects: 0 } };
  const source: AccountSource = {
    account: ACCOUNT,
    venue: 'layerakira',
    pairs: [
      {
        pair: 'ETH/USDC',
        base: 'ETH',
        quote: 'USDC',
        baseDecimals: 18,
        quoteDecimals: 6,
        driftToleranceUnits: 10n,
        status: () => state.status as EngineStatus,
        referenceStatus: () => ({ market: 'binance:ETHUSDT', counters: { reconnects: state.counters.referenceReconnects } }) as ReferenceStatus,
      },
    ],
    venueReconnects: () => state.counters.reconnects,
    venueRateLimited: () => state.counters.rateLimited,
    ...extra,
  };
  (state as { monitor: OpsMonitor }).monitor = new OpsMonitor({ sink, clock, source });
  return state;
}

const kinds = (events: readonly OpsEvent[]): string[] => events.map((event) => event.kind);

function hedgeStatus(state: HedgeStatus['state'], streamUp: boolean): HedgeStatus {
  return { market: 'binance:ETHUSDT', state, reason: state === 'failing' ? 'rejected' : undefined, hedgesSent: 3, hedgesFailed: 1, uncoveredBase: 0.1, venue: { streamUp } } as HedgeStatus;
}

describe('ops monitor', () => {
  it('turns the engine\'s halt into a halt event with the code from its status, and times each pause', () => {
    const r = rig();
    const observer = r.monitor.observerFor('ETH/USDC');
    observer.paused?.(true, 'stale feed');
    r.clock.advance(4_500);
    observer.paused?.(false, 'stale feed');
    r.status = { state: 'halted', haltReason: { code: 'HEDGE_FAILED', message: 'hedging failed 5 times', atMs: T0 } };
    observer.halted?.('hedging failed 5 times');
    expect(r.events).toEqual([
      { kind: 'pause-started', scope: { account: ACCOUNT, pair: 'ETH/USDC' }, atMs: T0, reason: 'stale feed' },
      { kind: 'pause-ended', scope: { account: ACCOUNT, pair: 'ETH/USDC' }, atMs: T0 + 4_500, reason: 'stale feed', durationMs: 4_500 },
      { kind: 'halt', scope: { account: ACCOUNT, pair: 'ETH/USDC' }, atMs: T0 + 4_500, code: 'HEDGE_FAILED', reason: 'hedging failed 5 times' },
    ]);
  });

  it('refuses an observer for a pair it does not watch, naming the ones it does', () => {
    expect(() => rig().monitor.observerFor('BTC/USDC')).toThrow(expect.objectContaining({ code: 'OPS_UNKNOWN_PAIR', message: 'ops monitor: no pair BTC/USDC (pairs: ETH/USDC)' }));
  });

  it('gives a drift in tokens, beyond the tolerance or not', () => {
    const r = rig();
    const observer = r.monitor.observerFor('ETH/USDC');
    observer.drift?.(0n, -4n);
    observer.drift?.(-(10n ** 16n), 30_500_000n);
    expect(r.events).toMatchObject([
      { kind: 'drift', drifts: [{ token: 'USDC', amount: -0.000004 }], isBeyondTolerance: false },
      { kind: 'drift', drifts: [{ token: 'ETH', amount: -0.01 }, { token: 'USDC', amount: 30.5 }], isBeyondTolerance: true },
    ]);
  });

  it('polls the hedger, the reference and the divergence pause, publishing changes only', () => {
    const r = rig();
    const reference = { market: 'binance:ETHUSDT', state: 'synchronised', reason: undefined, divergenceBps: 2 } as EngineStatus['reference'];
    r.status = { state: 'quoting', hedge: hedgeStatus('ok', true), reference };
    r.monitor.poll();
    r.monitor.poll();
    r.status = { state: 'paused', pauseReason: 'reference divergent', hedge: hedgeStatus('failing', false), reference: { ...reference!, state: 'stale', reason: 'no-data', divergenceBps: 90 } };
    r.monitor.poll();
    r.status = { state: 'quoting', hedge: hedgeStatus('ok', true), reference };
    r.monitor.poll();
    expect(kinds(r.events)).toEqual(['hedge', 'reference', 'hedge', 'reference', 'divergence', 'hedge', 'reconnect', 'reference', 'divergence']);
    expect(r.events.filter((event) => event.kind === 'divergence')).toMatchObject([{ isDivergent: true, divergenceBps: 90 }, { isDivergent: false }]);
    expect(r.events.find((event) => event.kind === 'reconnect')).toMatchObject({ feed: 'hedge binance:ETHUSDT', count: 1 });
    expect(r.events[2]).toMatchObject({ kind: 'hedge', state: 'failing', reason: 'rejected', hedgesFailed: 1, uncoveredBase: 0.1 });
  });

  it('publishes how much the venue\'s reconnect and 429 counters and the reference\'s reconnects grew since start', () => {
    const r = rig();
    r.counters = { reconnects: 7, rateLimited: 100, referenceReconnects: 2 };
    r.monitor.start();
    r.monitor.poll();
    expect(r.events).toEqual([]);
    r.counters = { reconnects: 9, rateLimited: 103, referenceReconnects: 3 };
    r.clock.advance(1_000);
    expect(r.events).toEqual([
      { kind: 'reconnect', scope: { account: ACCOUNT }, atMs: T0 + 1_000, feed: 'layerakira venue', count: 2 },
      { kind: 'rate-limited', scope: { account: ACCOUNT }, atMs: T0 + 1_000, venue: 'layerakira', count: 3 },
      { kind: 'reconnect', scope: { account: ACCOUNT, pair: 'ETH/USDC' }, atMs: T0 + 1_000, feed: 'reference binance:ETHUSDT', count: 1 },
    ]);
    r.monitor.stop();
    r.counters = { reconnects: 20, rateLimited: 200, referenceReconnects: 9 };
    r.clock.advance(10_000);
    expect(r.events).toHaveLength(3);
  });

  it('reads balances of the watched tokens once the engine has them, from the account when it gives them', () => {
    const fromPairs = rig({ ALERT_LOW_BALANCE: 'USDC:500' });
    fromPairs.status = { state: 'starting', baseBalance: 0, quoteBalance: 0 };
    fromPairs.monitor.poll();
    fromPairs.status = { state: 'quoting', baseBalance: 1.5, quoteBalance: 420 };
    fromPairs.monitor.poll();
    expect(fromPairs.events).toEqual([{ kind: 'balance', scope: { account: ACCOUNT }, atMs: T0, token: 'USDC', amount: 420 }]);
    const fromAccount = rig({ ALERT_LOW_BALANCE: 'USDC:500,ETH:1' }, { balances: () => new Map([['USDC', 9_000], ['ETH', 0.5]]) });
    fromAccount.monitor.poll();
    expect(fromAccount.events.map((event) => (event.kind === 'balance' ? [event.token, event.amount] : []))).toEqual([['USDC', 9_000], ['ETH', 0.5]]);
  });

  it('sends the daily summary at ALERT_DAILY_SUMMARY_UTC with the day\'s change per pair', () => {
    expect(nextDailyMs(T0, 12 * 60)).toBe(T0 + 86_400_000);
    expect(nextDailyMs(T0, 12 * 60 + 1)).toBe(T0 + 60_000);
    expect(nextDailyMs(T0, 0)).toBe(Date.UTC(2025, 0, 3));
    const r = rig({ ALERT_DAILY_SUMMARY_UTC: '13:30' });
    const pnl = (total: number, fills: number) => ({ total, fills, volumeBase: fills / 10, feesPaid: fills / 100 }) as EngineStatus['pnl'];
    r.status = { state: 'quoting', pnl: pnl(5, 10), position: 0.2 };
    r.monitor.start();
    r.clock.advance(90 * 60_000 - 1);
    expect(r.events.filter((event) => event.kind === 'daily-summary')).toEqual([]);
    r.clock.advance(1);
    r.status = { state: 'quoting', pnl: pnl(12, 25), position: -0.1 };
    r.clock.advance(86_400_000);
    const summaries = r.events.filter((event) => event.kind === 'daily-summary');
    expect(summaries).toHaveLength(2);
    expect(summaries[0]).toMatchObject({ atMs: T0 + 90 * 60_000, sinceMs: T0, pairs: [{ pair: 'ETH/USDC', pnlQuote: 5, pnlChangeQuote: 5, fills: 10 }] });
    expect(summaries[1]).toMatchObject({ atMs: T0 + 90 * 60_000 + 86_400_000, sinceMs: T0 + 90 * 60_000, pairs: [{ pnlQuote: 12, pnlChangeQuote: 7, fills: 15, position: -0.1 }] });
    r.monitor.stop();
  });
});
