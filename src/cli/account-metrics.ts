/**
 * `akira_mm_account_*`: the account's totals beside every pair's own metrics — pairs by engine
 * state, the halt, the pairs' PnL together, what could still fill, the account ledger's balances
 * and each pair's budget. Read from the account and the engines at scrape time.
 */
import { Gauge, type Registry } from 'prom-client';
import type { PairConfig } from '../config/index.ts';
import { getChain, getToken, unitsToNumber } from '../core/index.ts';
import { ENGINE_STATES, type Account, type MarketMaker } from '../engine/index.ts';
import type { SettlementFigures } from './settlement-watch.ts';

/** A pair as the account's metrics read it (its engine once started). */
export interface AccountMetricsPair {
  readonly name: string;
  readonly run: { readonly config: PairConfig };
  readonly engine: MarketMaker | undefined;
}

/** Registers the account's gauges on `registry`. */
export function registerAccountMetrics(registry: Registry, account: Account, pairs: readonly AccountMetricsPair[]): void {
  const decimals = (token: string | undefined, pair: AccountMetricsPair): number => getToken(getChain(pair.run.config.chain), token ?? pair.run.config.quote).decimals;
  new Gauge({
    name: 'akira_mm_account_pairs',
    help: 'Pairs of this account by engine state (quoting, paused, halted …); every state has a series, 0 when no pair is in it',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const counts = new Map<string, number>(ENGINE_STATES.map((state) => [state, 0]));
      for (const pair of pairs) {
        const state = pair.engine?.status().state ?? 'starting';
        counts.set(state, (counts.get(state) ?? 0) + 1);
      }
      for (const [state, count] of counts) this.set({ state }, count);
    },
  });
  new Gauge({ name: 'akira_mm_account_halted', help: '1 when the account halted every pair (drift, a foreign trade, the account drawdown)', registers: [registry], collect() { this.set(account.haltReason === undefined ? 0 : 1); } });
  new Gauge({
    name: 'akira_mm_account_pnl_quote',
    help: 'PnL of every pair quoted in the account limits token, together (marked at each fair price)',
    labelNames: ['token'],
    registers: [registry],
    collect() {
      const snapshot = account.snapshot();
      this.set({ token: snapshot.limitsToken ?? '' }, snapshot.pnlQuote);
    },
  });
  new Gauge({
    name: 'akira_mm_account_open_notional_quote',
    help: 'Notional of every order of every pair that could still fill, in the account limits token (RISK_MAX_TOTAL_NOTIONAL_ACCOUNT caps it)',
    labelNames: ['token'],
    registers: [registry],
    collect() {
      const snapshot = account.snapshot();
      const first = pairs[0];
      if (first !== undefined && snapshot.limitsToken !== undefined) this.set({ token: snapshot.limitsToken }, unitsToNumber(snapshot.exposedNotionalUnits, decimals(snapshot.limitsToken, first)));
    },
  });
  new Gauge({
    name: 'akira_mm_account_balance',
    help: "The account ledger: balances at start plus every pair's fills, fees and gas, by token, tokens (the drift check holds them to the venue's)",
    labelNames: ['token'],
    registers: [registry],
    collect() {
      const first = pairs[0];
      if (first === undefined) return;
      for (const [token, units] of account.expectedBalances()) this.set({ token }, unitsToNumber(units, decimals(token, first)));
    },
  });
  new Gauge({
    name: 'akira_mm_account_budget',
    help: 'What each pair may lock of each token (BUDGET_BASE / BUDGET_QUOTE, or its even share; a pair alone: the whole balance), tokens',
    labelNames: ['pair', 'token'],
    registers: [registry],
    collect() {
      const budgets = account.snapshot().budgets;
      for (const pair of pairs) {
        const funds = budgets.get(pair.name);
        if (funds === undefined) continue;
        const { base, quote } = pair.run.config;
        this.set({ pair: pair.name, token: base }, unitsToNumber(funds.baseUnits, decimals(base, pair)));
        this.set({ pair: pair.name, token: quote }, unitsToNumber(funds.quoteUnits, decimals(quote, pair)));
      }
    },
  });
}

/**
 * The settlement check's gauges (`SettlementWatch`): 0 while no check runs (no STARKNET_RPC_URL)
 * or before the first one.
 */
export function registerSettlementMetrics(registry: Registry, figures: () => SettlementFigures | undefined): void {
  new Gauge({
    name: 'akira_mm_unsettled_fills',
    help: 'Fills of the journal not settled on chain as reported: no Trade event past the deadline, a failed rollup (is_failed) or other amounts (akira-mm account settlement lists them)',
    registers: [registry],
    collect() {
      this.set(figures()?.unsettledFills ?? 0);
    },
  });
  new Gauge({
    name: 'akira_mm_settlement_lag_seconds',
    help: 'Largest time from a fill to the block of its Trade event, seconds, at the last settlement check',
    registers: [registry],
    collect() {
      this.set(figures()?.lagSeconds ?? 0);
    },
  });
  new Gauge({
    name: 'akira_mm_settlement_foreign_trades',
    help: 'Trade events on chain naming the account that no fill of the journal explains, at the last settlement check',
    registers: [registry],
    collect() {
      this.set(figures()?.foreignTrades ?? 0);
    },
  });
}
