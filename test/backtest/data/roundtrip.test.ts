import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FLAG, KIND, type DataRecord, type RecordInput } from '../../../src/backtest/data/format.ts';
import { readExactFields, readRecording, readRecordingHeader } from '../../../src/backtest/data/reader.ts';
import { RecordingWriter } from '../../../src/backtest/data/writer.ts';

const dir = mkdtempSync(join(tmpdir(), 'akira-data-'));
const META = { symbol: 'TEST', source: 'test', priceDecimals: 8, qtyDecimals: 8 };

const recordArb = fc.record({
  kind: fc.constantFrom(KIND.depth, KIND.trade, KIND.bbo, KIND.clear, KIND.gasPrice),
  side: fc.integer({ min: 0, max: 2 }),
  flags: fc.constantFrom(0, FLAG.endOfMessage, FLAG.snapshot | FLAG.endOfMessage, FLAG.exchTsEstimated),
  exchNs: fc.bigInt({ min: 0n, max: 2n ** 62n }),
  localDelta: fc.bigInt({ min: 0n, max: 10n ** 12n }),
  seq: fc.option(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), { nil: undefined }),
  price: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  qty: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  aux1: fc.option(fc.bigInt({ min: 0n, max: 2n ** 62n }), { nil: undefined }),
  aux2: fc.integer({ min: -(2 ** 40), max: Number.MAX_SAFE_INTEGER }),
});

describe('recording writer and reader', () => {
  it('read back exactly what was written, across chunk boundaries', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(recordArb, { maxLength: 60 }), fc.integer({ min: 1, max: 7 }), async (specs, chunkRecords) => {
        const path = join(dir, 'prop.data');
        const writer = new RecordingWriter(path, META);
        let localNs = 1_700_000_000_000_000_000n;
        const written: RecordInput[] = specs.map((spec) => {
          localNs += spec.localDelta;
          const { localDelta: _delta, seq, aux1, ...rest } = spec;
          const record: RecordInput = { ...rest, localNs, ...(seq === undefined ? {} : { seq }), ...(aux1 === undefined ? {} : { aux1 }) };
          return record;
        });
        for (const record of written) writer.append(record);
        writer.close();
        const read: { record: DataRecord; exact: ReturnType<typeof readExactFields> }[] = [];
        await readRecording(path, (record, _index, raw) => void read.push({ record: { ...record }, exact: readExactFields(raw) }), { chunkRecords });
        expect(read).toHaveLength(written.length);
        written.forEach((input, i) => {
          const got = read[i] as (typeof read)[number];
          expect(got.record.kind).toBe(input.kind);
          expect(got.record.side).toBe(input.side);
          expect(got.exact.exchNs).toBe(input.exchNs);
          expect(got.exact.localNs).toBe(input.localNs);
          expect(got.record.price).toBe(input.price);
          expect(got.record.qty).toBe(input.qty);
          expect(got.record.aux2).toBe(input.aux2);
          expect(got.exact.aux1).toBe(typeof input.aux1 === 'bigint' ? input.aux1 : 0n);
          expect((got.record.flags & FLAG.hasSeq) !== 0).toBe(input.seq !== undefined);
          if (input.seq !== undefined) expect(got.record.seq).toBe(input.seq);
          expect(got.record.flags & ~(FLAG.hasSeq | FLAG.hasAux1)).toBe(input.flags);
        });
      }),
      { numRuns: 60 },
    );
  });

  it('infers the tick and lot as the largest steps dividing every price and size', () => {
    const path = join(dir, 'steps.data');
    const writer = new RecordingWriter(path, META);
    const at = { exchNs: 1n, localNs: 1n };
    writer.append({ kind: KIND.depth, side: 1, price: 268_380_000_000, qty: 3_020_000, ...at });
    writer.append({ kind: KIND.depth, side: 2, price: 268_381_000_000, qty: 0, ...at });
    writer.append({ kind: KIND.trade, side: 1, price: 268_385_000_000, qty: 20_000, ...at });
    const header = writer.close();
    expect(header.tick).toBe('0.01');
    expect(header.lot).toBe('0.0002');
    expect(readRecordingHeader(path)).toEqual(header);
  });

  it('refuses a truncated file, a non-integer value and local time going back', () => {
    const path = join(dir, 'cut.data');
    const writer = new RecordingWriter(path, META);
    for (let i = 0; i < 3; i++) writer.append({ kind: KIND.trade, side: 1, price: 100, qty: 1, exchNs: 5n, localNs: 5n });
    expect(() => writer.append({ kind: KIND.trade, price: 1.5, exchNs: 6n, localNs: 6n })).toThrow(/price=1.5 is not a safe integer/);
    expect(() => writer.append({ kind: KIND.trade, price: 1, exchNs: 6n, localNs: 4n })).toThrow(/local time goes back/);
    writer.close();
    truncateSync(path, 512 + 64 * 2 + 10);
    expect(() => readRecordingHeader(path)).toThrow(/truncated/);
    writeFileSync(join(dir, 'text.data'), 'hello');
    expect(() => readRecordingHeader(join(dir, 'text.data'))).toThrow(/too short|not an akira-mm recording/);
  });

  it('writes 64-byte little-endian records after a 512-byte header, as documented', () => {
    const path = join(dir, 'layout.data');
    const writer = new RecordingWriter(path, META);
    writer.append({ kind: KIND.trade, side: 2, flags: FLAG.endOfMessage, exchNs: 0x0102030405060708n, localNs: 9n, seq: 7, price: 300, qty: 4 });
    writer.close();
    const bytes = readFileSync(path);
    expect(bytes.length).toBe(512 + 64);
    expect(bytes.subarray(0, 8).toString('latin1')).toBe('AKIRAMM\u0001');
    const record = bytes.subarray(512);
    expect([record[0], record[1], record.readUInt16LE(2)]).toEqual([KIND.trade, 2, FLAG.endOfMessage | FLAG.hasSeq]);
    expect(record.readBigInt64LE(8)).toBe(0x0102030405060708n);
    expect([record.readBigInt64LE(24), record.readBigInt64LE(32), record.readBigInt64LE(40)]).toEqual([7n, 300n, 4n]);
  });
});
