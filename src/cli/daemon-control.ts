/**
 * What `akira-mm ctl` does to a running daemon, through the engines' own doors (pause, resume,
 * cancel-all, reconfigure): one pair (`--pair BASE/QUOTE`) or every pair of the account. Every
 * change is logged and appended to the account's audit file in the state directory (one JSON
 * line: when, who, what, on which pair, the old and new value). Status reads change nothing and
 * are neither logged nor audited.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { PairConfig } from '../config/index.ts';
import { getChain, getToken, type Clock, type Logger } from '../core/index.ts';
import { engineSettingsOf, type AccountSnapshot, type EngineStatus, type MarketMaker } from '../engine/index.ts';
import { planChange, planSet, type PlannedChange } from './ctl-changes.ts';
import { buildStrategy } from './pair-config.ts';
import { CtlRefusal, type CtlCaller, type CtlCancelled, type CtlChanged, type CtlPairState, type CtlRequest, type CtlStatus, type CtlSwitched } from './ctl-protocol.ts';
import { renderStatusRows } from './status-line.ts';

/** One pair as the control sees it: its engine, the configuration it runs now, and how to re-read its file. */
export interface ControlledPair {
  readonly name: string;
  readonly engine: MarketMaker;
  /** The pair file's entries as the engine runs them now (a live change replaces it). */
  config: PairConfig;
  /** Re-reads the pair's file as the daemon read it at start; absent when it started from no file. */
  readonly reload?: () => PairConfig;
}

/** What the control needs of the daemon. */
export interface DaemonControlOptions {
  readonly account: { snapshot(): AccountSnapshot };
  readonly clock: Clock;
  readonly logger: Logger;
  /** The audit file (`controlAuditPath`). */
  readonly auditPath: string;
  /** True once the daemon is shutting down: nothing is changed any more. */
  readonly isStopping: () => boolean;
}

/** One line of the audit file. */
interface AuditRecord {
  readonly time: string;
  readonly op: string;
  readonly pair: string;
  readonly by: CtlCaller & { readonly how: string };
  readonly [detail: string]: unknown;
}

/** The operator's commands on the pairs of one daemon. */
export class DaemonControl {
  readonly #options: DaemonControlOptions;
  /** Empty until the engines started: the socket listens before them, so a failure to listen starts nothing. */
  #pairs: readonly ControlledPair[] = [];

  constructor(options: DaemonControlOptions) {
    this.#options = options;
  }

  /** The engines started: commands reach them from now on. */
  attach(pairs: readonly ControlledPair[]): void {
    this.#pairs = pairs;
  }

  /**
   * Carries out one request.
   * @throws CtlRefusal naming what it will not do (an unknown pair, a key that needs a restart, a bad value).
   */
  async handle(request: CtlRequest): Promise<CtlStatus | CtlSwitched | CtlCancelled | CtlChanged> {
    if (this.#pairs.length === 0) throw new CtlRefusal('CTL_REFUSED', 'the daemon is still starting: try again once it quotes');
    const pairs = this.#select(request.pair);
    if (request.op === 'status') return this.#status(pairs);
    if (this.#options.isStopping()) throw new CtlRefusal('CTL_REFUSED', 'the daemon is stopping: nothing more is changed');
    switch (request.op) {
      case 'pause':
        return this.#switch(pairs, request, (engine) => engine.pauseByOperator());
      case 'resume':
        return this.#switch(pairs, request, (engine) => engine.resumeByOperator());
      case 'cancel-all':
        return this.#cancelAll(pairs, request);
      case 'set':
        return this.#apply(request, pairs.map((pair) => ({ pair, plan: planSet(pair.config, request.key ?? '', request.value ?? '') })));
      case 'reload':
        return this.#apply(request, pairs.map((pair) => ({ pair, plan: this.#planReload(pair) })));
    }
  }

  #select(name: string | undefined): readonly ControlledPair[] {
    const pairs = this.#pairs;
    if (name === undefined) return pairs;
    const found = pairs.find((pair) => pair.name === name);
    if (found === undefined) throw new CtlRefusal('CTL_REFUSED', `--pair ${name}: this daemon quotes ${pairs.map((pair) => pair.name).join(', ')}`);
    return [found];
  }

  #status(pairs: readonly ControlledPair[]): CtlStatus {
    const snapshot = this.#options.account.snapshot();
    const statuses = pairs.map((pair) => ({ pair: pair.name, status: pair.engine.status(), strategy: pair.config.strategy }));
    return {
      pairs: statuses.map(({ pair, status, strategy }) => ({
        ...stateOf(pair, status),
        strategy,
        mid: status.mid ?? null,
        fair: status.fair ?? null,
        position: status.position,
        inventoryCap: status.inventoryCap,
        bids: status.bids,
        asks: status.asks,
        pnl: { total: status.pnl.total, realized: status.pnl.realized, fills: status.pnl.fills },
      })),
      account: { state: snapshot.haltReason === undefined ? 'ok' : 'halted', reason: snapshot.haltReason ?? null },
      rows: renderStatusRows(statuses, snapshot),
    };
  }

  #switch(pairs: readonly ControlledPair[], request: CtlRequest, act: (engine: MarketMaker) => boolean): CtlSwitched {
    const results = pairs.map((pair) => {
      const done = act(pair.engine);
      const after = stateOf(pair.name, pair.engine.status());
      if (done) this.#record(request, pair.name, { state: after.state, reason: after.reason });
      return { ...after, done };
    });
    return { pairs: results };
  }

  async #cancelAll(pairs: readonly ControlledPair[], request: CtlRequest): Promise<CtlCancelled> {
    for (const pair of pairs) this.#record(request, pair.name, {});
    const confirmed = await Promise.all(pairs.map((pair) => pair.engine.cancelAllByOperator()));
    return { pairs: pairs.map((pair, i) => ({ ...stateOf(pair.name, pair.engine.status()), confirmed: confirmed[i] === true })) };
  }

  #planReload(pair: ControlledPair): PlannedChange {
    if (pair.reload === undefined) throw new CtlRefusal('CTL_REFUSED', `${pair.name} was started without a pair file: there is nothing to reload (use ctl set KEY=VALUE)`);
    let reread: PairConfig;
    try {
      reread = pair.reload();
    } catch (error) {
      throw new CtlRefusal('CTL_REFUSED', `${pair.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return planChange(pair.config, reread.raw, `ctl reload ${pair.name}`);
  }

  /** Applies planned changes once every pair's plan is valid: all the pairs or none. */
  #apply(request: CtlRequest, planned: readonly { readonly pair: ControlledPair; readonly plan: PlannedChange }[]): CtlChanged {
    for (const { pair, plan } of planned) {
      if (plan.applied.length > 0) {
        const chain = getChain(plan.config.chain);
        const settings = engineSettingsOf(plan.config.keys, { baseDecimals: getToken(chain, plan.config.base).decimals, quoteDecimals: getToken(chain, plan.config.quote).decimals });
        pair.engine.reconfigure({ strategy: buildStrategy(plan.config), settings });
        pair.config = plan.config;
      }
      for (const change of plan.applied) this.#record(request, pair.name, { key: change.key, old: change.old, new: change.new });
      if (plan.refused.length > 0) this.#options.logger.warn({ ctl: request.op, pair: pair.name, refused: plan.refused.map((refusal) => refusal.key) }, 'ctl: keys that need a restart were not taken');
    }
    return { pairs: planned.map(({ pair, plan }) => ({ pair: pair.name, applied: plan.applied, refused: plan.refused })) };
  }

  /** Logs a change and appends it to the audit file. */
  #record(request: CtlRequest, pair: string, detail: Readonly<Record<string, unknown>>): void {
    const { clock, logger, auditPath } = this.#options;
    const by = { ...request.by, how: `reported by the client; the socket admits only uid ${process.getuid?.() ?? 'of the daemon'}` };
    const record: AuditRecord = { time: new Date(clock.nowMs()).toISOString(), op: request.op, pair, by, ...detail };
    logger.warn({ ctl: request.op, pair, by: request.by, ...detail }, 'ctl: operator command');
    mkdirSync(dirname(auditPath), { recursive: true, mode: 0o700 });
    appendFileSync(auditPath, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  }
}

/** A pair's state and why, as `ctl` shows it. */
function stateOf(pair: string, status: EngineStatus): CtlPairState {
  return { pair, state: status.state, reason: status.haltReason?.message ?? status.pauseReason ?? null };
}
