/**
 * The dashboard's history: once per interval of the injected clock it reads each pair's metrics
 * (and the few status series no metric carries) and the account's, into bounded rings, and keeps
 * each pair's events. It always samples, so an operator who opens the page sees the last hour, not
 * an empty chart; a sample is one `status()` and one read of the metrics the layout names per pair
 * (`bench/README.md` has its cost). Messages for watchers are built only while someone watches.
 */
import type { Registry } from 'prom-client';
import type { Clock, Timer } from '../../core/index.ts';
import type { EngineObserver, EngineStatus } from '../../engine/index.ts';
import { eventObserver, type DashboardEvent, type PairDecimals } from './events.ts';
import { ACCOUNT_LAYOUT, PAIR_LAYOUT, STATE_NAMES, STATUS_SERIES, metricNamesOf, type PairFeature } from './layout.ts';
import { EventRing, SampleRing } from './ring.ts';
import { readSeries, seriesKey, type Labels, type SeriesValue } from './series.ts';

/** One pair as the dashboard reads it. */
export interface DashboardPair extends PairDecimals {
  /** `BASE/QUOTE`. */
  readonly name: string;
  readonly base: string;
  readonly quote: string;
  /** The pair's metrics, as `/metrics` renders them. */
  readonly registry: Registry;
  /** The registry's default labels (`/metrics` adds them to every line). */
  readonly labels: Labels;
  /** The engine's status; undefined until the engine runs. */
  readonly status: () => EngineStatus | undefined;
}

/** The account as the dashboard reads it. */
export interface DashboardAccount {
  readonly registry: Registry;
  readonly labels: Labels;
  /** Why the account halted every pair, if it did. */
  readonly haltReason: () => string | undefined;
}

/** Defaults of {@link DashboardStateOptions}. */
export const DASHBOARD_DEFAULTS = {
  /** One sample a second. */
  intervalMs: 1_000,
  /** An hour of 1 s samples. */
  historySamples: 3_600,
  /** Events kept per pair and for the account. */
  eventsKept: 1_000,
} as const;

/** What the history is built from. */
export interface DashboardStateOptions {
  readonly clock: Clock;
  readonly pairs: readonly DashboardPair[];
  readonly account: DashboardAccount;
  /** Sampling interval, ms (default {@link DASHBOARD_DEFAULTS}). */
  readonly intervalMs?: number;
  /** Samples kept per pair and for the account (default an hour's). */
  readonly historySamples?: number;
  readonly eventsKept?: number;
}

/** A series the rings hold: its selector, name and labels, and whether `/metrics` has it (status series do not). */
export interface ColumnMeta {
  readonly key: string;
  readonly name: string;
  readonly labels: Labels;
  readonly isMetric: boolean;
}

/** A panel's state in words: the engine's (or the account's `ok`/`halted`) and why, and what the pair has. */
export interface StateView {
  readonly state: string;
  readonly reason: string | null;
  readonly features: readonly PairFeature[];
}

/** An event with its number in its panel (a page that got it twice keeps it once). */
export type NumberedEvent = DashboardEvent & { readonly id: number };

/** A panel's part of one sample. */
export interface SamplePart {
  readonly state: StateView;
  /** Every series with a value now, by selector. */
  readonly values: Readonly<Record<string, number>>;
  /** Series seen for the first time. */
  readonly columns: readonly ColumnMeta[];
  /** Events since the last sample. */
  readonly events: readonly NumberedEvent[];
}

/** One sample of every panel, as `/dashboard/events` sends it. */
export interface SampleMessage {
  readonly seq: number;
  readonly timeMs: number;
  readonly pairs: readonly SamplePart[];
  readonly account: SamplePart;
}

/** A panel's history. */
export interface PanelSnapshot {
  /** `p0`, `p1`, … for pairs, `account`. */
  readonly id: string;
  readonly name: string;
  /** The labels every series of the panel carries (its registry's default labels). */
  readonly labels: Labels;
  readonly state: StateView;
  readonly timesMs: readonly number[];
  readonly columns: readonly (ColumnMeta & { readonly values: readonly (number | null)[] })[];
  readonly events: readonly NumberedEvent[];
}

/** Everything held, as `/dashboard/state` answers and `/dashboard/events` sends first. */
export interface DashboardSnapshot {
  readonly version: 1;
  /** The last sample's number (0 before the first). */
  readonly seq: number;
  /** The daemon clock now, ms. */
  readonly nowMs: number;
  readonly intervalMs: number;
  readonly historySamples: number;
  readonly pairs: readonly (PanelSnapshot & { readonly base: string; readonly quote: string })[];
  readonly account: PanelSnapshot;
}

/** A pair's or the account's history and how to read it now. */
class Panel {
  readonly ring: SampleRing;
  readonly events: EventRing<NumberedEvent>;
  readonly columns = new Map<string, ColumnMeta>();
  /** Events since the last sample, kept only while someone watches. */
  pending: NumberedEvent[] = [];
  state: StateView = STARTING;
  private nextEventId = 1;

  constructor(
    readonly id: string,
    readonly name: string,
    readonly labels: Labels,
    options: { readonly historySamples: number; readonly eventsKept: number },
    readonly read: () => Promise<{ readonly state: StateView; readonly series: readonly SeriesValue[]; readonly status: readonly ColumnMeta[]; readonly statusValues: readonly number[] }>,
  ) {
    this.ring = new SampleRing(options.historySamples);
    this.events = new EventRing(options.eventsKept);
  }

  record(event: DashboardEvent, isWatched: boolean): void {
    const numbered = { ...event, id: this.nextEventId++ };
    this.events.push(numbered);
    if (isWatched) this.pending.push(numbered);
  }

  snapshot(): PanelSnapshot {
    return {
      id: this.id,
      name: this.name,
      labels: this.labels,
      state: this.state,
      timesMs: this.ring.times(),
      columns: this.ring.keys().map((key) => ({ ...(this.columns.get(key) as ColumnMeta), values: this.ring.values(key) })),
      events: this.events.toArray(),
    };
  }
}

const PAIR_METRICS = metricNamesOf(PAIR_LAYOUT);
const ACCOUNT_METRICS = metricNamesOf(ACCOUNT_LAYOUT);

const STARTING: StateView = { state: 'starting', reason: null, features: [] };

/** A status series' column. */
function statusColumn(name: string, labels: Labels = {}): ColumnMeta {
  return { key: seriesKey(name, labels), name, labels, isMetric: false };
}
const TOUCH_BID = statusColumn(STATUS_SERIES.touch, { side: 'bid' });
const TOUCH_ASK = statusColumn(STATUS_SERIES.touch, { side: 'ask' });
const QUOTE_BID = statusColumn(STATUS_SERIES.quote, { side: 'bid' });
const QUOTE_ASK = statusColumn(STATUS_SERIES.quote, { side: 'ask' });
const STATE = statusColumn(STATUS_SERIES.state);

/** The status series of a pair now (those with a value) and its state in words. */
function pairStatus(status: EngineStatus | undefined): { state: StateView; columns: ColumnMeta[]; values: number[] } {
  if (status === undefined) return { state: STARTING, columns: [STATE], values: [STATE_NAMES.indexOf('starting')] };
  const columns: ColumnMeta[] = [STATE];
  const values: number[] = [STATE_NAMES.indexOf(status.state)];
  const add = (column: ColumnMeta, value: number | undefined): void => {
    if (value === undefined || !Number.isFinite(value)) return;
    columns.push(column);
    values.push(value);
  };
  add(TOUCH_BID, status.touch.bid);
  add(TOUCH_ASK, status.touch.ask);
  add(QUOTE_BID, status.bids[0]?.price);
  add(QUOTE_ASK, status.asks[0]?.price);
  const features: PairFeature[] = [...(status.reference === undefined ? [] : ['reference' as const]), ...(status.hedge === undefined ? [] : ['hedge' as const])];
  return { state: { state: status.state, reason: status.haltReason?.message ?? status.pauseReason ?? null, features }, columns, values };
}

/** The history of every pair and of the account, sampled on the clock. */
export class DashboardState {
  readonly intervalMs: number;
  readonly historySamples: number;
  private readonly clock: Clock;
  private readonly pairPanels: Panel[];
  private readonly accountPanel: Panel;
  private readonly pairs: readonly DashboardPair[];
  private readonly listeners = new Set<(message: SampleMessage) => void>();
  private timer: Timer | undefined;
  private seq = 0;
  private isSampling = false;
  private accountHalt: string | undefined;

  /** @throws RangeError for an interval that is not positive or ring sizes that are not whole numbers ≥ 1. */
  constructor(options: DashboardStateOptions) {
    this.clock = options.clock;
    this.intervalMs = options.intervalMs ?? DASHBOARD_DEFAULTS.intervalMs;
    if (!(this.intervalMs > 0)) throw new RangeError(`dashboard: intervalMs must be > 0, got ${this.intervalMs}`);
    this.historySamples = options.historySamples ?? DASHBOARD_DEFAULTS.historySamples;
    const sizes = { historySamples: this.historySamples, eventsKept: options.eventsKept ?? DASHBOARD_DEFAULTS.eventsKept };
    this.pairs = options.pairs;
    this.pairPanels = options.pairs.map(
      (pair, i) =>
        new Panel(`p${i}`, pair.name, pair.labels, sizes, async () => {
          const now = pairStatus(pair.status());
          const series = await readSeries(pair.registry, PAIR_METRICS, pair.labels);
          return { state: now.state, series: [...series.values()], status: now.columns, statusValues: now.values };
        }),
    );
    const account = options.account;
    this.accountPanel = new Panel('account', 'account', account.labels, sizes, async () => {
      const reason = account.haltReason();
      const series = await readSeries(account.registry, ACCOUNT_METRICS, account.labels);
      return { state: { state: reason === undefined ? 'ok' : 'halted', reason: reason ?? null, features: [] }, series: [...series.values()], status: [], statusValues: [] };
    });
  }

  /** The observer that records a pair's events (by its index in `pairs`). */
  observerOf(pairIndex: number): EngineObserver {
    const pair = this.pairs[pairIndex];
    const panel = this.pairPanels[pairIndex];
    if (pair === undefined || panel === undefined) throw new RangeError(`dashboard: no pair #${pairIndex} (${this.pairs.length} pairs)`);
    return eventObserver(pair, () => this.clock.nowMs(), (event) => panel.record(event, this.listeners.size > 0));
  }

  /** Begins sampling every interval (a first sample now). */
  start(): void {
    if (this.timer !== undefined) return;
    this.timer = this.clock.setInterval(() => void this.sample(), this.intervalMs, { unref: true });
    void this.sample();
  }

  /** Stops sampling; idempotent. */
  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** Calls `listener` with every sample from now on; returns the unsubscribe. */
  subscribe(listener: (message: SampleMessage) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Takes one sample of every panel now (the timer's work; tests call it directly). */
  async sample(): Promise<void> {
    // A slow read never overlaps the next one: that interval's sample is skipped instead.
    if (this.isSampling) return;
    this.isSampling = true;
    try {
      const panels = [...this.pairPanels, this.accountPanel];
      // Every read starts in this synchronous pass, so all panels show one moment.
      const timeMs = this.clock.nowMs();
      const reads = await Promise.all(panels.map((panel) => panel.read()));
      this.seq += 1;
      const isWatched = this.listeners.size > 0;
      // The account's halt reaches no observer: the sample that first sees it marks it.
      const accountReason = reads[reads.length - 1]?.state.reason ?? undefined;
      if (accountReason !== undefined && this.accountHalt === undefined) this.accountPanel.record({ kind: 'halt', timeMs, reason: accountReason }, isWatched);
      this.accountHalt = accountReason;
      const parts = panels.map((panel, i) => {
        const read = reads[i] as Awaited<ReturnType<Panel['read']>>;
        const values = new Map<string, number>();
        const metas = new Map<string, ColumnMeta>();
        for (const series of read.series) {
          const key = seriesKey(series.name, series.labels);
          values.set(key, series.value);
          metas.set(key, { key, name: series.name, labels: series.labels, isMetric: true });
        }
        read.status.forEach((column, j) => {
          values.set(column.key, read.statusValues[j] as number);
          metas.set(column.key, column);
        });
        const added = panel.ring.push(timeMs, values);
        for (const key of added) panel.columns.set(key, metas.get(key) as ColumnMeta);
        panel.state = read.state;
        if (!isWatched) return undefined;
        const events = panel.pending;
        panel.pending = [];
        return { state: read.state, values: Object.fromEntries(values), columns: added.map((key) => metas.get(key) as ColumnMeta), events };
      });
      if (!isWatched) return;
      const message: SampleMessage = { seq: this.seq, timeMs, pairs: parts.slice(0, -1) as SamplePart[], account: parts[parts.length - 1] as SamplePart };
      for (const listener of this.listeners) listener(message);
    } finally {
      this.isSampling = false;
    }
  }

  /** Everything held now. */
  snapshot(): DashboardSnapshot {
    return {
      version: 1,
      seq: this.seq,
      nowMs: this.clock.nowMs(),
      intervalMs: this.intervalMs,
      historySamples: this.historySamples,
      pairs: this.pairPanels.map((panel, i) => ({ ...panel.snapshot(), base: (this.pairs[i] as DashboardPair).base, quote: (this.pairs[i] as DashboardPair).quote })),
      account: this.accountPanel.snapshot(),
    };
  }
}
