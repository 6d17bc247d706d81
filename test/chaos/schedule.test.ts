import { describe, expect, it } from 'vitest';
import { findSecret, findText, secretForms } from '../../tools/chaos/invariants.ts';
import { FAULT_KINDS, drawSchedule, runSeed } from '../../tools/chaos/schedule.ts';

describe('chaos schedules', () => {
  it('the same seed draws the same schedule, another seed another', () => {
    expect(drawSchedule(42)).toEqual(drawSchedule(42));
    expect(drawSchedule(42)).not.toEqual(drawSchedule(43));
    expect(runSeed(1, 0)).toBe(runSeed(1, 0));
    expect(runSeed(1, 0)).not.toBe(runSeed(1, 1));
  });

  it('faults never overlap and every kind is drawn over a campaign', () => {
    const seen = new Set<string>();
    for (let index = 0; index < 200; index++) {
      const schedule = drawSchedule(runSeed(7, index), { faultsPerRun: 3 });
      for (const [i, fault] of schedule.entries()) {
        seen.add(fault.kind);
        const next = schedule[i + 1];
        if (next !== undefined) expect(next.atMs).toBeGreaterThan(fault.atMs + fault.durationMs);
        expect(fault.rate).toBeGreaterThan(0);
        expect(fault.rate).toBeLessThanOrEqual(1);
      }
    }
    expect([...seen].sort()).toEqual([...FAULT_KINDS].sort());
  });
});

describe('secret scan', () => {
  it('finds a key in hex with and without 0x, padded or not, any case, and decimal', () => {
    const key = 0x144e9410ea008c67331a1024ea64f9235f5454a67325cc43f347b7d9bb09697n;
    expect(secretForms(key)).toContain(key.toString(10));
    for (const line of [
      `key=0x${key.toString(16)}`,
      `key=${key.toString(16).toUpperCase()}`,
      `key=0x${key.toString(16).padStart(64, '0')}`,
      `"k":"${key.toString(10)}"`,
    ]) {
      expect(findSecret([line], key)).toHaveLength(findSecret([line], key).length || 1);
      expect(findSecret([line], key).length).toBeGreaterThan(0);
    }
    expect(findSecret(['nothing here', '0x1234'], key)).toEqual([]);
  });

  it('finds a password as written or JSON-escaped', () => {
    const password = 'pa"ss\\word';
    expect(findText([`password=${password}`, JSON.stringify({ p: password }), 'nothing'], password)).toEqual([{ index: 0 }, { index: 1 }]);
  });
});
