import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DataError, decodeHeader, decimalToScaled, encodeHeader, nsHalvesToMs, nsToWholeMs, scaledToDecimal, type RecordingHeader } from '../../../src/backtest/data/format.ts';

const HEADER: RecordingHeader = { symbol: 'ETHUSDT', source: 'binance', priceDecimals: 8, qtyDecimals: 8, tick: '0.01', lot: '0.0001', records: 12, base: 'ETH', quote: 'USDT' };

describe('recording format', () => {
  it('decodes nanosecond timestamps to milliseconds with the whole part exact', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 62n }), (ns) => {
        const hi = Number(ns >> 32n);
        const lo = Number(ns & 0xffffffffn);
        const ms = nsHalvesToMs(hi, lo);
        const whole = nsToWholeMs(ns);
        // The whole milliseconds are exact; the sub-ms part is within float resolution.
        expect(Math.abs(ms - Number(whole) - Number(ns % 1_000_000n) / 1e6)).toBeLessThan(Math.max(1e-6, Number(whole) * 2 ** -52 * 2));
        expect(Math.floor(ms) === Number(whole) || Math.abs(ms - Number(whole) - 1) < 1e-3).toBe(true);
        // The same double as the remainder-based formula it replaced (recordings replay unchanged).
        const rest = hi * 967_296 + lo;
        const subMs = rest % 1_000_000;
        expect(ms).toBe(hi * 4_294 + (rest - subMs) / 1_000_000 + subMs / 1_000_000);
      }),
    );
    expect(nsHalvesToMs(Number(1723161254024619568n >> 32n), Number(1723161254024619568n & 0xffffffffn))).toBeCloseTo(1723161254024.6196, 3);
  });

  it('turns decimal strings into scaled integers and back without rounding', () => {
    expect(decimalToScaled('2683.80000000', 8)).toBe(268_380_000_000);
    expect(decimalToScaled('0.00000001', 8)).toBe(1);
    expect(decimalToScaled('1.123456789', 8)).toBeUndefined();
    expect(decimalToScaled('-1', 8)).toBeUndefined();
    expect(decimalToScaled('1e5', 8)).toBeUndefined();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: 0, max: 12 }), (value, decimals) => {
        const text = scaledToDecimal(value, decimals);
        expect(decimalToScaled(text, decimals)).toBe(value);
      }),
    );
  });

  it('round-trips the header and refuses files that are not recordings', () => {
    expect(decodeHeader(encodeHeader(HEADER), 'x')).toEqual(HEADER);
    const bad = encodeHeader(HEADER);
    bad[0] = 0x58;
    expect(() => decodeHeader(bad, 'file.bin')).toThrow(/file.bin: not an akira-mm recording/);
    expect(() => decodeHeader(new Uint8Array(10), 'short')).toThrow(DataError);
    expect(() => encodeHeader({ ...HEADER, symbol: 'X'.repeat(600) })).toThrow(/header too long/);
  });
});
