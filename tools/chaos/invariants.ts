/**
 * The invariants a chaos run checks against the exchange's own state, and the secrets scan.
 * Pure: names, the violation record, and the search for a private key in text.
 */

/** Invariant names (stable: they are keys of the JSON report). */
export const INVARIANTS = [
  'zero-open-orders',
  'inventory-matches-exchange',
  'no-duplicate-intent',
  'no-unaccounted-fill',
  'quoting-resumed',
  'clean-exit',
  // issue 13: the venue's real failure modes
  /** When the bot pulls its quotes (stale feed, a cancel-all that failed after its 200), the exchange soon lists none of ours. */
  'orders-pulled',
  /** The venue's own rate limit refused at most a handful (5) of the bot's requests in a run: its outbound budget holds. */
  'few-429s',
  /** On a full journal disk the bot halts naming the journal, pulls every order and places nothing more. */
  'journal-full-halts',
  /** A ±2 s step of the bot host's wall clock pauses nothing (the market never stopped) and breaks nothing else. */
  'clock-step-tolerated',
  /** SIGTERM with the exchange unreachable: a non-zero exit within SHUTDOWN_TIMEOUT_MS naming every order left resting. */
  'shutdown-names-resting',
  // issue 17: several pairs on one account
  /** A fault on one pair's market-data stream (a stale feed) pauses that pair only: the account's other pairs quote on. */
  'pairs-independent',
] as const;
export type InvariantName = (typeof INVARIANTS)[number];

/** One broken invariant in one run. */
export interface Violation {
  readonly invariant: InvariantName;
  readonly detail: string;
}

/**
 * Every textual form a private key could leak in: hex with and without 0x, zero-padded to 64
 * digits or not, upper or lower case, and decimal. Matching is case-insensitive.
 */
export function secretForms(key: bigint): string[] {
  const hex = key.toString(16);
  const padded = hex.padStart(64, '0');
  return [...new Set([hex, padded, `0x${hex}`, `0x${padded}`, key.toString(10)])].map((form) => form.toLowerCase());
}

/** Lines (with their index) that contain `text` as written or JSON-escaped (a password). */
export function findText(lines: readonly string[], text: string): { index: number }[] {
  const forms = [...new Set([text, JSON.stringify(text).slice(1, -1)])];
  return [...lines.entries()].filter(([, line]) => forms.some((form) => line.includes(form))).map(([index]) => ({ index }));
}

/** Lines (with their index) that contain any form of the key. */
export function findSecret(lines: readonly string[], key: bigint): { index: number; form: string }[] {
  const forms = secretForms(key);
  const hits: { index: number; form: string }[] = [];
  for (const [index, line] of lines.entries()) {
    const lower = line.toLowerCase();
    for (const form of forms) if (lower.includes(form)) hits.push({ index, form: `${form.slice(0, 6)}…` });
  }
  return hits;
}
