/**
 * Confirming queued actions (issue 11 item 4, SPEC §5: a 200 on cancel-all, increase-nonce or
 * withdraw means "accepted for processing", not done). After the 200 the venue's own word is
 * awaited on the fills stream (a `fail` report ends the wait at once; a settled report ends it
 * early) while the effect is read back over REST with growing pauses, until a bound.
 */
import { sleep, type Clock } from '../../core/index.ts';
import type { CancelAllReport, FailReport, RollupReport } from '../stream/index.ts';

/** A private report that may settle an action: failed, or carried out. */
export type ActionReport =
  | { readonly type: 'fail'; readonly report: FailReport }
  | { readonly type: 'rollup'; readonly report: RollupReport }
  | { readonly type: 'cancel-all'; readonly report: CancelAllReport };

/** The hashes a report names (any of them may be the request's). */
export function hashesOf(report: ActionReport): bigint[] {
  const candidates =
    report.type === 'fail'
      ? [report.report.requestHash, report.report.entityHash]
      : report.type === 'rollup'
        ? [report.report.requestHash, report.report.orderHash, report.report.txHash]
        : [report.report.cancelTickerHash];
  return candidates.filter((hash): hash is bigint => hash !== undefined);
}

/** Waiters for the venue's report on a request hash. */
export class PendingReports {
  readonly #waiters = new Map<bigint, (report: ActionReport) => void>();

  /** Starts waiting for a report naming `hash`; `stop()` when done (or the map leaks). */
  wait(hash: bigint): { readonly report: Promise<ActionReport>; stop(): void } {
    let resolve: (report: ActionReport) => void = () => undefined;
    const report = new Promise<ActionReport>((done) => {
      resolve = done;
    });
    this.#waiters.set(hash, resolve);
    return { report, stop: () => this.#waiters.delete(hash) };
  }

  /** Hands a report to whoever waits on one of its hashes; false when nobody does. */
  deliver(report: ActionReport): boolean {
    for (const hash of hashesOf(report)) {
      const waiter = this.#waiters.get(hash);
      if (waiter === undefined) continue;
      this.#waiters.delete(hash);
      waiter(report);
      return true;
    }
    return false;
  }
}

/**
 * The reports of one action that may be sent more than once (a retried cancel-all): waits on
 * every hash added, and `report` settles with the first report on any of them. Hashes are added
 * before their request is sent, so a report that beats the HTTP answer is not missed.
 */
export class ActionWaiters {
  readonly #pending: PendingReports;
  readonly #stops: Array<() => void> = [];
  #resolve: (report: ActionReport) => void = () => undefined;
  readonly report: Promise<ActionReport>;

  constructor(pending: PendingReports) {
    this.#pending = pending;
    this.report = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  add(hash: bigint): void {
    const waiter = this.#pending.wait(hash);
    this.#stops.push(waiter.stop);
    void waiter.report.then(this.#resolve);
  }

  stop(): void {
    for (const stop of this.#stops) stop();
  }
}

/** How long and how often an effect is looked for. */
export interface ConfirmTiming {
  /** Give up after this long, ms. */
  readonly boundMs: number;
  /** First pause between reads, ms; doubles up to `maxPollMs`. */
  readonly firstPollMs: number;
  readonly maxPollMs: number;
}

/** How a wait for an effect ended. */
export type Confirmation =
  | { readonly kind: 'confirmed' }
  | { readonly kind: 'failed'; readonly reason: string }
  | { readonly kind: 'timeout' };

/** What {@link confirmEffect} needs. */
export interface ConfirmInput {
  readonly clock: Clock;
  readonly timing: ConfirmTiming;
  /** Reads the venue's state: true once the effect shows. A throw counts as "not yet". */
  readonly isDone: () => Promise<boolean>;
  /** The venue's report on the request, if one comes. */
  readonly report: Promise<ActionReport>;
  /** Called once when half the bound passed unconfirmed (a retry); optional. */
  readonly onHalfway?: () => Promise<void>;
}

/**
 * Waits until the effect shows, a `fail` report arrives, or the bound passes. A settled report
 * is taken as the effect itself only after one more read agrees (the report may race our view).
 */
export async function confirmEffect(input: ConfirmInput): Promise<Confirmation> {
  const { clock, timing } = input;
  const startMs = clock.nowMs();
  let failure: FailReport | undefined;
  void input.report.then((report) => {
    if (report.type === 'fail') failure = report.report;
  });
  // Read through a function: the report lands asynchronously, between the awaits below.
  const failed = (): FailReport | undefined => failure;
  let pauseMs = timing.firstPollMs;
  let retried = input.onHalfway === undefined;
  for (;;) {
    const early = failed();
    if (early !== undefined) return { kind: 'failed', reason: failReason(early) };
    if (await safely(input.isDone)) return { kind: 'confirmed' };
    const late = failed();
    if (late !== undefined) return { kind: 'failed', reason: failReason(late) };
    const elapsedMs = clock.nowMs() - startMs;
    if (elapsedMs >= timing.boundMs) return { kind: 'timeout' };
    if (!retried && elapsedMs >= timing.boundMs / 2) {
      retried = true;
      await input.onHalfway?.().catch(() => undefined);
    }
    // Wake early when the venue reports; otherwise after the pause.
    await Promise.race([sleep(clock, Math.min(pauseMs, timing.boundMs - elapsedMs)), input.report]);
    pauseMs = Math.min(timing.maxPollMs, pauseMs * 2);
  }
}

async function safely(check: () => Promise<boolean>): Promise<boolean> {
  try {
    return await check();
  } catch {
    return false;
  }
}

/** The reason a fail report gives: its error code, else its type. */
export function failReason(report: FailReport): string {
  return report.errorCode ?? report.reportType;
}
