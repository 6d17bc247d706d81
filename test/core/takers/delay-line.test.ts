import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DelayLine, hasErrorCode } from '../../../src/core/index.ts';

describe('DelayLine', () => {
  it('hands entries back in order once due, with their values', () => {
    const line = new DelayLine(2, 2);
    line.push(10, 1, 2);
    line.push(10, 3, 4);
    line.push(25, 5, 6);
    expect(line.isDueBy(9)).toBe(false);
    expect(line.isDueBy(10)).toBe(true);
    expect([line.headDueMs(), line.headValue(0), line.headValue(1)]).toEqual([10, 1, 2]);
    line.shift();
    expect([line.headDueMs(), line.headValue(0), line.headValue(1)]).toEqual([10, 3, 4]);
    line.shift();
    expect(line.isDueBy(24)).toBe(false);
    expect(line.headValue(1)).toBe(6);
    line.shift();
    expect(line.isEmpty).toBe(true);
    expect(line.isDueBy(Number.MAX_SAFE_INTEGER)).toBe(false);
  });

  it('refuses an entry due before the last one', () => {
    const line = new DelayLine(1);
    line.push(10, 1);
    let caught: unknown;
    try {
      line.push(9, 2);
    } catch (error) {
      caught = error;
    }
    expect(hasErrorCode(caught, 'CORE_INVARIANT')).toBe(true);
  });

  it('behaves as a plain queue through any interleaving of pushes and shifts, growing as needed', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 5 }).map((step) => ({ push: step })), fc.constant({ push: undefined })), { maxLength: 300 }), (operations) => {
        const line = new DelayLine(1, 1);
        const model: { due: number; value: number }[] = [];
        let due = 0;
        let value = 0;
        for (const operation of operations) {
          if (operation.push !== undefined) {
            due += operation.push;
            value++;
            line.push(due, value);
            model.push({ due, value });
          } else {
            line.shift();
            model.shift();
          }
          expect(line.size).toBe(model.length);
          const head = model[0];
          if (head !== undefined) expect([line.headDueMs(), line.headValue(0)]).toEqual([head.due, head.value]);
        }
      }),
    );
  });
});
