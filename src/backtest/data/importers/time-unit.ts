/**
 * The unit of a recording's local (receive) timestamps. Collectors disagree: hftbacktest's
 * ETHUSDT/BTCUSDT files stamp nanoseconds (19 digits), the NEXOUSDT ones microseconds (16
 * digits), obAnalytics' Bitstamp logs milliseconds (13 digits). Read with the wrong unit a stamp
 * lands in 1970 (or millennia ahead), and the replay would run on nonsense dates, so every stamp
 * must land inside 2009–2100 (no electronic crypto market before, and a sane upper bound):
 * `auto` takes, per file, the one unit that puts the file's first stamp there (the three ranges
 * do not overlap), and a stamp outside it is refused with its file and line.
 */
import { DataError } from '../format.ts';

/** Values of `data import --time-unit`. */
export const TIME_UNITS = ['auto', 'ns', 'us', 'ms'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];
type FixedUnit = Exclude<TimeUnit, 'auto'>;

const NS_PER_UNIT: Readonly<Record<FixedUnit, bigint>> = { ns: 1n, us: 1_000n, ms: 1_000_000n };
/** 2009-01-01T00:00:00Z and 2100-01-01T00:00:00Z in ns: the range every stamp must land in. */
export const EARLIEST_STAMP_NS = BigInt(Date.UTC(2009, 0, 1)) * 1_000_000n;
export const LATEST_STAMP_NS = BigInt(Date.UTC(2100, 0, 1)) * 1_000_000n;

/** True for a `--time-unit` value. */
export function isTimeUnit(value: string): value is TimeUnit {
  return (TIME_UNITS as readonly string[]).includes(value);
}

const isInRange = (ns: bigint): boolean => ns >= EARLIEST_STAMP_NS && ns < LATEST_STAMP_NS;

/** The unit that puts `stamp` inside 2009–2100, or undefined when none does. */
export function detectTimeUnit(stamp: bigint): FixedUnit | undefined {
  return (Object.keys(NS_PER_UNIT) as FixedUnit[]).find((unit) => isInRange(stamp * NS_PER_UNIT[unit]));
}

function describeNs(ns: bigint): string {
  const ms = Number(ns / 1_000_000n);
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : `${ns} ns`;
}

/**
 * Converts one file's local stamps (decimal digits) to ns since the epoch. Make one per file:
 * with `auto` the file's first stamp fixes its unit.
 */
export class LocalStampReader {
  private unit: FixedUnit | undefined;
  /** Where the unit came from, for the error message. */
  private source: string;

  constructor(
    private readonly path: string,
    requested: TimeUnit,
  ) {
    this.unit = requested === 'auto' ? undefined : requested;
    this.source = `--time-unit ${requested}`;
  }

  /** The unit in use (undefined until the first stamp under `auto`). */
  get resolvedUnit(): FixedUnit | undefined {
    return this.unit;
  }

  /**
   * `digits` (a string of decimal digits) at line `lineNo`, in ns.
   * @throws DataError `DATA_BAD_INPUT` naming the file and line when the stamp lands outside
   *   2009–2100 in the file's unit (or, for the first stamp under `auto`, in every unit).
   */
  toNs(digits: string, lineNo: number): bigint {
    const stamp = BigInt(digits);
    if (this.unit === undefined) {
      const unit = detectTimeUnit(stamp);
      if (unit === undefined) {
        throw new DataError('DATA_BAD_INPUT', `${this.path}:${lineNo}: local timestamp ${digits} is not a date in 2009–2100 read as ns, us or ms: the file is not a recording, or its clock is wrong`);
      }
      this.unit = unit;
      this.source = `detected from line ${lineNo}`;
    }
    const ns = stamp * NS_PER_UNIT[this.unit];
    if (!isInRange(ns)) {
      throw new DataError(
        'DATA_BAD_INPUT',
        `${this.path}:${lineNo}: local timestamp ${digits} read as ${this.unit} (${this.source}) is ${describeNs(ns)}, outside 2009–2100: a corrupt line, or the wrong --time-unit (ns, us, ms or auto)`,
      );
    }
    return ns;
  }
}
