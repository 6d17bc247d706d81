/**
 * The alert policy on a fake clock: which events reach a person, when, and how often (one alert
 * per condition while it lasts, a word when it clears, storms over a window, thresholds with a
 * margin), as ALERT_* sets it.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/index.ts';
import { AlertRules, type Alert, type OpsEvent } from '../../src/ops/index.ts';
import { ACCOUNT, alertSettings } from './support.ts';

const T0 = Date.UTC(2025, 0, 2, 12, 0, 0);
const ETH = { account: ACCOUNT, pair: 'ETH/USDC' };
const ACCT = { account: ACCOUNT };

/** An event without its time (the rig stamps it). */
type Untimed = OpsEvent extends infer E ? (E extends OpsEvent ? Omit<E, 'atMs'> : never) : never;

function rulesOf(keys: Record<string, string> = {}): { clock: ManualClock; alerts: Alert[]; on: (event: Untimed) => void; rules: AlertRules } {
  const clock = new ManualClock(T0);
  const alerts: Alert[] = [];
  const rules = new AlertRules({ clock, policy: alertSettings(keys).policy, emit: (alert) => alerts.push(alert) });
  return { clock, alerts, rules, on: (event) => rules.on({ ...event, atMs: clock.nowMs() } as OpsEvent) };
}

const headlines = (alerts: readonly Alert[]): string[] => alerts.map((alert) => alert.headline);

describe('alert rules', () => {
  it('says nothing of a pause shorter than ALERT_PAUSE_AFTER_S, and of a longer one once, then once more when it ends', () => {
    const { clock, alerts, on } = rulesOf({ ALERT_PAUSE_AFTER_S: '60' });
    on({ kind: 'pause-started', scope: ETH, reason: 'stale feed' });
    clock.advance(59_000);
    on({ kind: 'pause-ended', scope: ETH, reason: 'stale feed', durationMs: 59_000 });
    clock.advance(600_000);
    expect(alerts).toEqual([]);

    on({ kind: 'pause-started', scope: ETH, reason: 'feed down' });
    on({ kind: 'pause-started', scope: ETH, reason: 'feed down' });
    clock.advance(60_000);
    expect(headlines(alerts)).toEqual(['PAUSED']);
    expect(alerts[0]).toMatchObject({ kind: 'pause', severity: 'warning', pairs: ['ETH/USDC'], facts: { reason: 'feed down', pausedMs: 60_000 } });
    expect(alerts[0]?.lines).toEqual(['Quoting paused for 1 min so far: feed down', 'Orders are cancelled while it lasts; it resumes by itself when the reason clears.']);
    clock.advance(132_000);
    on({ kind: 'pause-ended', scope: ETH, reason: 'feed down', durationMs: 192_000 });
    expect(headlines(alerts)).toEqual(['PAUSED', 'QUOTING AGAIN']);
    expect(alerts[1]?.lines[0]).toBe('Quoting resumed after a pause of 3 min 12 s (feed down)');
    expect(alerts[1]?.severity).toBe('resolved');
  });

  it('alerts a halt at once and only once per pair, and forgets what that pair was waiting on', () => {
    const { clock, alerts, on } = rulesOf({ ALERT_PAUSE_AFTER_S: '30' });
    on({ kind: 'pause-started', scope: ETH, reason: 'stale feed' });
    on({ kind: 'halt', scope: ETH, code: 'RISK_DRAWDOWN', reason: 'drawdown 0.6 reached the limit 0.5' });
    on({ kind: 'halt', scope: ETH, code: 'RISK_DRAWDOWN', reason: 'drawdown 0.6 reached the limit 0.5' });
    clock.advance(120_000);
    expect(headlines(alerts)).toEqual(['HALTED']);
    expect(alerts[0]).toMatchObject({ severity: 'critical', facts: { code: 'RISK_DRAWDOWN' }, mergeKey: 'halt RISK_DRAWDOWN drawdown 0.6 reached the limit 0.5' });
  });

  it('alerts a drift only beyond the tolerance (fee rounding is healed silently), with the amounts in tokens', () => {
    const { alerts, on } = rulesOf();
    on({ kind: 'drift', scope: ETH, drifts: [{ token: 'USDC', amount: -0.000004 }], isBeyondTolerance: false });
    on({ kind: 'drift', scope: ETH, drifts: [{ token: 'ETH', amount: -0.01 }, { token: 'USDC', amount: 30.5 }], isBeyondTolerance: true });
    expect(headlines(alerts)).toEqual(['BALANCE DRIFT']);
    expect(alerts[0]?.lines[0]).toBe('Venue balances differ from start + fills by -0.01 ETH, +30.5 USDC');
  });

  it('alerts the hedger failing once, however often it fails, and when hedging works again', () => {
    const { clock, alerts, on } = rulesOf();
    const hedge = { kind: 'hedge', scope: ETH, market: 'binance:ETHUSDT', hedgesFailed: 1, uncoveredBase: 0.12 } as const;
    on({ ...hedge, state: 'failing', reason: 'rejected' });
    on({ ...hedge, state: 'failing', reason: 'venue unreachable', hedgesFailed: 2 });
    clock.advance(12_000);
    on({ ...hedge, state: 'ok', reason: undefined });
    expect(headlines(alerts)).toEqual(['HEDGE FAILING', 'HEDGING OK']);
    expect(alerts[0]?.lines).toEqual(['Hedging on binance:ETHUSDT fails: rejected', '0.12 ETH uncovered, 1 hedge(s) failed so far; the side adding to it stops quoting while retries go on']);
    expect(alerts[1]?.lines[0]).toBe('Hedging on binance:ETHUSDT works again after 12 s');
  });

  it('alerts a stale reference and a divergence once they last ALERT_PAUSE_AFTER_S, and when they clear', () => {
    const { clock, alerts, on } = rulesOf({ ALERT_PAUSE_AFTER_S: '10' });
    on({ kind: 'reference', scope: ETH, market: 'binance:ETHUSDT', state: 'resyncing', reason: 'sequence-gap' });
    clock.advance(2_000);
    on({ kind: 'reference', scope: ETH, market: 'binance:ETHUSDT', state: 'synchronised', reason: undefined });
    on({ kind: 'reference', scope: ETH, market: 'binance:ETHUSDT', state: 'stale', reason: 'no-data' });
    on({ kind: 'divergence', scope: ETH, market: 'binance:ETHUSDT', isDivergent: true, divergenceBps: 85.24 });
    clock.advance(10_000);
    on({ kind: 'reference', scope: ETH, market: 'binance:ETHUSDT', state: 'synchronised', reason: undefined });
    on({ kind: 'divergence', scope: ETH, market: 'binance:ETHUSDT', isDivergent: false, divergenceBps: 3 });
    expect(headlines(alerts)).toEqual(['REFERENCE STALE', 'REFERENCE DIVERGES', 'REFERENCE OK', 'PRICES AGREE']);
    expect(alerts[0]?.lines[0]).toBe('Reference binance:ETHUSDT stale for 10 s (no-data); quoting that prices from it stays paused');
    expect(alerts[1]?.lines[0]).toContain('(85.2 bps, over REFERENCE_MAX_DIVERGENCE_BPS)');
  });

  it('calls reconnects a storm at ALERT_RECONNECT_STORM within the window, once, and calm once the window holds fewer', () => {
    const { clock, alerts, on } = rulesOf({ ALERT_RECONNECT_STORM: '3', ALERT_STORM_WINDOW_S: '60' });
    const reconnect = { kind: 'reconnect', scope: ACCT, feed: 'layerakira venue', count: 1 } as const;
    on(reconnect);
    clock.advance(40_000);
    on(reconnect);
    clock.advance(30_000);
    on(reconnect); // the first left the window: 2 within it
    expect(alerts).toEqual([]);
    clock.advance(5_000);
    on(reconnect); // 3 within the window: a storm
    on(reconnect);
    expect(headlines(alerts)).toEqual(['RECONNECT STORM']);
    expect(alerts[0]?.lines[0]).toBe('The layerakira venue feed reconnected 3 times in the last 1 min (ALERT_RECONNECT_STORM=3); quotes pause while it is down');
    clock.advance(60_000);
    expect(headlines(alerts)).toEqual(['RECONNECT STORM', 'RECONNECTS CALM']);
  });

  it('calls 429 answers a storm at ALERT_429_STORM, counting several per reading, and is off at 0', () => {
    const storm = rulesOf({ ALERT_429_STORM: '10' });
    storm.on({ kind: 'rate-limited', scope: ACCT, venue: 'layerakira', count: 4 });
    storm.clock.advance(1_000);
    storm.on({ kind: 'rate-limited', scope: ACCT, venue: 'layerakira', count: 7 });
    expect(headlines(storm.alerts)).toEqual(['429 STORM']);
    expect(storm.alerts[0]?.facts).toMatchObject({ answers: 11 });
    const off = rulesOf({ ALERT_429_STORM: '0' });
    off.on({ kind: 'rate-limited', scope: ACCT, venue: 'layerakira', count: 1_000 });
    expect(off.alerts).toEqual([]);
  });

  it('alerts a balance under its threshold once, and back only once it is clear of it by the margin', () => {
    const { alerts, on } = rulesOf({ ALERT_LOW_BALANCE: 'USDC:500' });
    const reading = (amount: number): void => on({ kind: 'balance', scope: ACCT, token: 'USDC', amount });
    reading(800);
    reading(499);
    reading(480);
    reading(510);
    reading(499.5);
    expect(headlines(alerts)).toEqual(['LOW BALANCE']);
    reading(526);
    expect(headlines(alerts)).toEqual(['LOW BALANCE', 'BALANCE OK']);
    on({ kind: 'balance', scope: ACCT, token: 'ETH', amount: 0 });
    expect(alerts).toHaveLength(2);
  });

  it('alerts only the events ALERT_EVENTS names', () => {
    const { alerts, on } = rulesOf({ ALERT_EVENTS: 'halt', ALERT_PAUSE_AFTER_S: '0', ALERT_LOW_BALANCE: 'USDC:500' });
    on({ kind: 'pause-started', scope: ETH, reason: 'stale feed' });
    on({ kind: 'balance', scope: ACCT, token: 'USDC', amount: 1 });
    on({ kind: 'halt', scope: ETH, code: 'OPERATOR', reason: 'operator' });
    expect(headlines(alerts)).toEqual(['HALTED']);
  });

  it('sums the day per pair in the daily summary, with the alerts raised since the last one', () => {
    const { alerts, on } = rulesOf({ ALERT_PAUSE_AFTER_S: '0' });
    on({ kind: 'pause-started', scope: ETH, reason: 'stale feed' });
    const day = { base: 'ETH', quote: 'USDC', state: 'quoting', pnlQuote: 40.1, pnlChangeQuote: 12.345, fills: 31, volumeBase: 1.5, feesQuote: 0.9, position: -0.05 } as const;
    on({ kind: 'daily-summary', scope: ACCT, sinceMs: T0 - 86_400_000, pairs: [{ ...day, pair: 'ETH/USDC' }, { ...day, pair: 'STRK/USDC', base: 'STRK', pnlChangeQuote: -2 }] });
    const summary = alerts.at(-1);
    expect(summary).toMatchObject({ kind: 'daily-summary', severity: 'info', headline: 'DAILY SUMMARY' });
    expect(summary?.lines).toEqual([
      'Over the last 24 h:',
      'ETH/USDC (quoting): PnL +12.35 USDC (+40.1 since start), 31 fill(s), 1.5 ETH traded, fees 0.9 USDC, position -0.05 ETH',
      'STRK/USDC (quoting): PnL -2 USDC (+40.1 since start), 31 fill(s), 1.5 STRK traded, fees 0.9 USDC, position -0.05 STRK',
      'All pairs: PnL +10.35 USDC',
      'Alerts raised: pause ×1',
    ]);
    on({ kind: 'daily-summary', scope: ACCT, sinceMs: T0, pairs: [] });
    expect(alerts.at(-1)?.lines.at(-1)).toBe('Alerts raised: none');
  });

  it('raises nothing after stop(), not even a hold that was running', () => {
    const { clock, alerts, on, rules } = rulesOf({ ALERT_PAUSE_AFTER_S: '5' });
    on({ kind: 'pause-started', scope: ETH, reason: 'stale feed' });
    rules.stop();
    clock.advance(60_000);
    on({ kind: 'halt', scope: ETH, code: 'OPERATOR', reason: 'operator' });
    expect(alerts).toEqual([]);
    expect(clock.pendingTimers()).toBe(0);
  });
});
