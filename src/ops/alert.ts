/**
 * What reaches a person: an alert with a severity, a headline, the facts an operator needs, and
 * its text as every chat channel shows it. One module renders it, so the four channels say the
 * same words (each only escapes and trims them for its service).
 */
import type { AlertEventKind } from '../core/index.ts';

/** What an alert is about: an `ALERT_EVENTS` word, or `held-back` (the note of what the rate limit held back, when nothing else carries it). */
export type AlertKind = AlertEventKind | 'held-back';

/** How bad: `critical` (a halt) always goes, past the rate limit; `resolved` says a condition cleared. */
export type Severity = 'critical' | 'warning' | 'info' | 'resolved';

/** One alert. */
export interface Alert {
  /** The `ALERT_EVENTS` word it belongs to. */
  readonly kind: AlertKind;
  readonly severity: Severity;
  /** `HALTED`, `PAUSED`, `QUOTING AGAIN`, … */
  readonly headline: string;
  /** The facts, one per line. */
  readonly lines: readonly string[];
  readonly account: string;
  /** The pairs it concerns; empty = the account. */
  readonly pairs: readonly string[];
  readonly atMs: number;
  /** The same facts for machines (the generic webhook's `facts`). */
  readonly facts: Readonly<Record<string, string | number | boolean | null>>;
  /**
   * Alerts with the same key raised together (in one turn of the event loop) become one naming
   * every pair: an account halt reaches every pair's engine with one reason.
   */
  readonly mergeKey?: string;
}

/** An alert before who and when are added (the rules' part). */
export type AlertBody = Omit<Alert, 'account' | 'pairs' | 'atMs'>;

/** Alerts a channel's rate limit held back since its last message, by kind. */
export interface Suppressed {
  readonly count: number;
  readonly byKind: Readonly<Record<string, number>>;
}

const SIGN: Readonly<Record<Severity, string>> = { critical: '🔴', warning: '🟠', info: '🔵', resolved: '🟢' };

/** `0x0123…cdef`. */
export function shortAccount(account: string): string {
  return account.length > 14 ? `${account.slice(0, 6)}…${account.slice(-4)}` : account;
}

/** `2025-01-02 03:04:05 UTC`. */
export function formatUtc(atMs: number): string {
  return `${new Date(atMs).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** `1 h 2 min`, `3 min 12 s`, `45 s`, `120 ms`. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  const seconds = Math.round(ms / 1_000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

/** A number for a person: up to `digits` decimals, trailing zeros dropped, with its sign when asked. */
export function formatAmount(value: number, digits = 6, signed = false): string {
  const text = Number(value.toFixed(digits)).toString();
  return signed && value > 0 ? `+${text}` : text;
}

/** Who sent it: `ALERT_LABEL`, or akira-mm and the account. */
export function senderOf(label: string, account: string): string {
  return label !== '' ? label : `akira-mm ${shortAccount(account)}`;
}

/** The held-back note: `(12 more held back by the rate limit since the last message: pause ×12)`. */
export function suppressedNote(suppressed: Suppressed): string {
  const kinds = Object.entries(suppressed.byKind)
    .sort(([, a], [, b]) => b - a)
    .map(([kind, count]) => `${kind} ×${count}`)
    .join(', ');
  return `(${suppressed.count} more held back by the rate limit since the last message: ${kinds})`;
}

/** The alert as plain text: a headline line, the facts, who and when, and what was held back. */
export function renderAlert(alert: Alert, label: string, suppressed: Suppressed | undefined): string {
  const where = alert.pairs.length === 0 ? 'account' : alert.pairs.join(', ');
  const lines = [`${SIGN[alert.severity]} ${alert.headline} · ${where} · ${senderOf(label, alert.account)}`, ...alert.lines, `${shortAccount(alert.account)} · ${formatUtc(alert.atMs)}`];
  if (suppressed !== undefined && suppressed.count > 0) lines.push(suppressedNote(suppressed));
  return lines.join('\n');
}
