/**
 * The daemon's continuous settlement check (issue 31 item 4): every `intervalMs` it matches the
 * journal's fills to the chain's Trade events (`checkSettlement`) and keeps the figures the
 * metrics read: `akira_mm_unsettled_fills` (fills with no settled Trade event past their deadline,
 * failed rollups and altered trades), `akira_mm_settlement_lag_seconds` (the largest lag of a
 * settled fill) and `akira_mm_settlement_foreign_trades`. Beside the engine, never inside the
 * quoting loop; a failed read is logged and the last figures stay.
 */
import type { ChainInfo, Clock, Logger, Timer } from '../core/index.ts';
import { checkSettlement, readAccountTrades, type SettlementReport } from '../exchange/index.ts';
import { readJournalFills } from './settlement-fills.ts';

/** Options of {@link SettlementWatch}. */
export interface SettlementWatchOptions {
  readonly rpcUrl: string;
  readonly chain: ChainInfo;
  readonly account: bigint;
  readonly journalPath: string;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Between two checks; default 60 000 ms. */
  readonly intervalMs?: number;
  /** A fill without a Trade event after this long is unsettled; default 120 000 ms. */
  readonly deadlineMs?: number;
}

/** The figures of the last check. */
export interface SettlementFigures {
  readonly unsettledFills: number;
  readonly lagSeconds: number;
  readonly foreignTrades: number;
}

/** Runs the settlement check on a timer. */
export class SettlementWatch {
  private timer: Timer | undefined;
  private running: Promise<SettlementReport | undefined> | undefined;
  private last: SettlementFigures = { unsettledFills: 0, lagSeconds: 0, foreignTrades: 0 };

  constructor(private readonly options: SettlementWatchOptions) {}

  /** The figures of the last check (zeros before the first). */
  figures(): SettlementFigures {
    return this.last;
  }

  /** Starts checking; idempotent. */
  start(): void {
    if (this.timer !== undefined) return;
    this.timer = this.options.clock.setInterval(() => void this.check(), this.options.intervalMs ?? 60_000, { unref: true });
  }

  /** Stops; idempotent. */
  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** One check now (one at a time); undefined when the chain or the journal could not be read. */
  check(): Promise<SettlementReport | undefined> {
    this.running ??= this.checkOnce().finally(() => (this.running = undefined));
    return this.running;
  }

  private async checkOnce(): Promise<SettlementReport | undefined> {
    const { rpcUrl, chain, account, journalPath, clock, logger } = this.options;
    try {
      const fills = readJournalFills(journalPath);
      const trades = await readAccountTrades(rpcUrl, chain, account);
      const report = checkSettlement(account, fills, trades, clock.nowMs(), this.options.deadlineMs ?? 120_000);
      const { counts } = report;
      this.last = { unsettledFills: counts.unsettled + counts.failed + counts.altered, lagSeconds: report.maxLagMs / 1000, foreignTrades: counts.foreign };
      if (!report.clean) logger.warn({ counts }, 'fills not settled on chain as reported (akira-mm account settlement lists them)');
      return report;
    } catch (error) {
      logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'settlement check failed; the last figures stay');
      return undefined;
    }
  }
}
