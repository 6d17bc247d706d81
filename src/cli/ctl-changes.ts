/**
 * What a running daemon may take from `akira-mm ctl set KEY=VALUE` and `ctl reload`, decided from
 * the keys' own declarations (`live` in src/core/settings, strategy keys live by `envKey`), and
 * checked by the very reader a pair file goes through (`validatePairEnv`): the same error text,
 * naming the key, the value and what is allowed. A change is computed on the pair file's entries
 * as written: a key left out of the file counts as its default.
 */
import type { PairConfig } from '../config/index.ts';
import { ALERT_KEY_LIST, CONFIG_KEY_LIST, ENGINE_KEY_LIST, HEDGE_KEY_LIST, REFERENCE_KEY_LIST, secretKeys } from '../config/index.ts';
import { STRATEGIES } from '../../strategies/index.ts';
import type { CtlKeyChange, CtlRefusedKey } from './ctl-protocol.ts';
import { CtlRefusal } from './ctl-protocol.ts';
import { UsageError } from './io.ts';
import { validatePairEnv } from './pair-config.ts';

/** What the change rules need of one declared key. */
interface DeclaredKey {
  readonly default: string | undefined;
  readonly live: boolean;
}

/** Every key a pair file may hold, by name: the layers' tables, then every strategy's. */
const DECLARED: ReadonlyMap<string, DeclaredKey> = new Map([
  ...[...CONFIG_KEY_LIST, ...ENGINE_KEY_LIST, ...REFERENCE_KEY_LIST, ...HEDGE_KEY_LIST, ...ALERT_KEY_LIST].map((spec) => [spec.key, { default: spec.default, live: spec.live === true }] as const),
  ...Object.values(STRATEGIES).flatMap((definition) => definition.keys.map((spec) => [spec.key, { default: spec.default, live: spec.live === true }] as const)),
]);

/** The keys a running daemon takes (`ctl set`, `ctl reload`), in declaration order. */
export function liveKeyNames(): string[] {
  return [...DECLARED].filter(([, declared]) => declared.live).map(([name]) => name);
}

/** The keys a change to which needs a restart, in declaration order. */
export function restartKeyNames(): string[] {
  return [...DECLARED].filter(([, declared]) => !declared.live).map(([name]) => name);
}

/** A key's value as it stands in these entries: as written (trimmed), else its default, else empty. */
function effectiveText(entries: Readonly<Record<string, string | undefined>>, key: string): string {
  return entries[key]?.trim() ?? DECLARED.get(key)?.default ?? '';
}

/** Why a key a running daemon will not take needs a restart (secrets are never echoed). */
function restartReason(key: string): string {
  if (secretKeys().has(key)) return `${key} is a secret: it is read once at start; restart the daemon to change it`;
  return `${key} needs a restart: it is read once at start (connections, account, pair, timers or shared budgets); put it in the pair file and restart the daemon`;
}

/** The keys whose values differ between two sets of entries (secrets are not among a config's entries). */
export function changedKeys(before: Readonly<Record<string, string | undefined>>, after: Readonly<Record<string, string | undefined>>): CtlKeyChange[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  const changes: CtlKeyChange[] = [];
  for (const key of names) {
    const old = effectiveText(before, key);
    const now = effectiveText(after, key);
    if (old !== now) changes.push({ key, old, new: now });
  }
  return changes;
}

/** A change planned for one pair: the configuration it leads to, what it changes, what it refused. */
export interface PlannedChange {
  readonly config: PairConfig;
  readonly applied: readonly CtlKeyChange[];
  readonly refused: readonly CtlRefusedKey[];
}

/**
 * Plans taking `wanted` (entries as a pair file would hold them) into a running pair: live keys
 * that differ are taken, the others are refused, naming them. The entries that result are read
 * as a pair file is, so a value out of range, or one that conflicts with another key, is refused
 * with the reader's own message.
 * @throws CtlRefusal `CTL_REFUSED` with the reader's message when the result is not a valid pair file.
 */
export function planChange(current: PairConfig, wanted: Readonly<Record<string, string | undefined>>, source: string): PlannedChange {
  const changes = changedKeys(current.raw, wanted);
  const live = changes.filter((change) => DECLARED.get(change.key)?.live === true);
  const refused = changes.filter((change) => DECLARED.get(change.key)?.live !== true).map((change) => ({ key: change.key, reason: restartReason(change.key) }));
  const entries: Record<string, string> = { ...current.raw };
  for (const change of live) {
    const value = wanted[change.key];
    if (value === undefined) delete entries[change.key];
    else entries[change.key] = value;
  }
  const config = validated(entries, source);
  const ownKeys = new Set(STRATEGIES[config.strategy]?.keys.map((spec) => spec.key) ?? []);
  const strategyKeys = new Set(Object.values(STRATEGIES).flatMap((definition) => definition.keys.map((spec) => spec.key)));
  const applied = live.map((change) => (strategyKeys.has(change.key) && !ownKeys.has(change.key) ? { ...change, unread: `strategy ${config.strategy} does not read ${change.key}` } : change));
  return { config, applied, refused };
}

/**
 * Plans `ctl set KEY=VALUE` for one pair. A key that needs a restart, a secret, or a key no
 * layer declares is refused before anything is read; a value is checked as the pair file's would be.
 * @throws CtlRefusal `CTL_REFUSED` naming the key (and, for a bad value, the value and what is allowed).
 */
export function planSet(current: PairConfig, key: string, value: string): PlannedChange {
  if (secretKeys().has(key)) throw new CtlRefusal('CTL_REFUSED', restartReason(key));
  const declared = DECLARED.get(key);
  // An unknown key goes through the reader, which names the nearest known one.
  if (declared === undefined) validated({ ...current.raw, [key]: value }, `ctl set ${key}`);
  if (declared?.live !== true) throw new CtlRefusal('CTL_REFUSED', restartReason(key));
  return planChange(current, { ...current.raw, [key]: value }, `ctl set ${key}`);
}

/** Reads entries as a pair file is read (no secret is read: the running daemon holds its own). */
function validated(entries: Readonly<Record<string, string>>, source: string): PairConfig {
  try {
    return validatePairEnv(entries, source, { requireSigner: false });
  } catch (error) {
    if (error instanceof UsageError) throw new CtlRefusal('CTL_REFUSED', error.message);
    throw error;
  }
}
