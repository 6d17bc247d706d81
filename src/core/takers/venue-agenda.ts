/**
 * When a thin venue's simulated agents act: the background maker's and the competing maker's
 * re-quotes (after their lags) and the arbitrageurs' orders (after their latency) wait in FIFO
 * delay lines and run at their due
 * time, woken by the venue's time line (`host.at`); every entry point of the venue first runs
 * what fell due, so at an equal time they act before a recorded event or one of our orders.
 * Shared by the backtest's thin exchange (the replay's time line) and the embedded exchange's
 * reference flow (its clock's timers), so both run the agents in the same order.
 */
import { DelayLine } from './delay-line.ts';

/** The venue's time line: its clock, and a way to be woken at a time. */
export interface AgendaHost {
  readonly clock: { nowMs(): number };
  /** Runs `run` at `timeMs` (≥ now). */
  at(timeMs: number, run: () => void): void;
}

/** What the agents do when their turn comes. */
export interface AgendaActions {
  /** The background maker re-quotes around the reference mid `midTwice`/2 it now sees. */
  requote(midTwice: number, nowMs: number): void;
  /** The competing maker re-quotes on the reference touch (bid, ask) and the lots there it now sees. */
  competitorRequote(bidTicks: number, askTicks: number, bidLots: number, askLots: number, nowMs: number): void;
  /** An arbitrage order sent on the reference touch (bid, ask) reaches the venue. */
  arbitrage(bidTicks: number, askTicks: number): void;
}

/** The venue's delayed actions, in due order. */
export class VenueAgenda {
  /** (due, bid + ask of the reference then). */
  private readonly requotes = new DelayLine(1);
  /** (due, reference bid, ask and their lots then). */
  private readonly competitorRequotes = new DelayLine(4);
  /** (due, reference bid, reference ask). */
  private readonly orders = new DelayLine(2);
  private readonly lastOrder = { dueMs: 0, bid: 0, ask: 0 };
  private isRunning = false;
  private isWakePending = false;
  private wakeAtMs = 0;
  private readonly wake = (): void => {
    this.isWakePending = false;
    this.runDue();
  };

  constructor(
    private readonly host: AgendaHost,
    private readonly actions: AgendaActions,
  ) {}

  /** The background maker will re-quote at `dueMs` around `midTwice`/2. */
  requoteAt(dueMs: number, midTwice: number): void {
    this.requotes.push(dueMs, midTwice);
    this.armWake();
  }

  /** The competing maker will re-quote at `dueMs` on the touch (bid, ask) with those lots. */
  competitorRequoteAt(dueMs: number, bidTicks: number, askTicks: number, bidLots: number, askLots: number): void {
    this.competitorRequotes.push(dueMs, bidTicks, askTicks, bidLots, askLots);
    this.armWake();
  }

  /** An arbitrage order sent on (bid, ask) reaches the venue at `dueMs`; the same order already on its way is not sent twice. */
  arbitrageAt(dueMs: number, bidTicks: number, askTicks: number): void {
    const last = this.lastOrder;
    if (!this.orders.isEmpty && last.dueMs === dueMs && last.bid === bidTicks && last.ask === askTicks) return;
    last.dueMs = dueMs;
    last.bid = bidTicks;
    last.ask = askTicks;
    this.orders.push(dueMs, bidTicks, askTicks);
    this.armWake();
  }

  /** Runs what fell due by now (cheap when nothing did). */
  catchUp(): void {
    const now = this.host.clock.nowMs();
    if (this.requotes.isDueBy(now) || this.competitorRequotes.isDueBy(now) || this.orders.isDueBy(now)) this.runDue();
  }

  /** Runs every action due by now, earliest first (at one time: the background maker, the competing maker, then an arbitrage order). */
  runDue(): void {
    if (this.isRunning) return;
    this.isRunning = true;
    const now = this.host.clock.nowMs();
    const requotes = this.requotes;
    const competitor = this.competitorRequotes;
    const orders = this.orders;
    for (;;) {
      const requoteDue = requotes.isDueBy(now) ? requotes.headDueMs() : Number.POSITIVE_INFINITY;
      const competitorDue = competitor.isDueBy(now) ? competitor.headDueMs() : Number.POSITIVE_INFINITY;
      const orderDue = orders.isDueBy(now) ? orders.headDueMs() : Number.POSITIVE_INFINITY;
      if (requoteDue !== Number.POSITIVE_INFINITY && requoteDue <= competitorDue && requoteDue <= orderDue) {
        const midTwice = requotes.headValue(0);
        requotes.shift();
        this.actions.requote(midTwice, now);
      } else if (competitorDue !== Number.POSITIVE_INFINITY && competitorDue <= orderDue) {
        const bid = competitor.headValue(0);
        const ask = competitor.headValue(1);
        const bidLots = competitor.headValue(2);
        const askLots = competitor.headValue(3);
        competitor.shift();
        this.actions.competitorRequote(bid, ask, bidLots, askLots, now);
      } else if (orderDue !== Number.POSITIVE_INFINITY) {
        const bid = orders.headValue(0);
        const ask = orders.headValue(1);
        orders.shift();
        this.actions.arbitrage(bid, ask);
      } else {
        break;
      }
    }
    this.isRunning = false;
    this.armWake();
  }

  /** Asks the host to wake the agenda when its next action falls due. */
  private armWake(): void {
    if (this.isRunning) return;
    const next = Math.min(headOf(this.requotes), headOf(this.competitorRequotes), headOf(this.orders));
    if (next === Number.POSITIVE_INFINITY) return;
    if (this.isWakePending && this.wakeAtMs <= next) return;
    this.isWakePending = true;
    this.wakeAtMs = next;
    this.host.at(next, this.wake);
  }
}

/** A line's next due time (∞ when empty). */
function headOf(line: DelayLine): number {
  return line.isEmpty ? Number.POSITIVE_INFINITY : line.headDueMs();
}
