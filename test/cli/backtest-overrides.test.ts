/**
 * --set and a sweep's cells on top of a pair file: an override of one of a strategy's two size keys
 * replaces the other, since a file may set only one of them (the shipped files size by notional).
 */
import { describe, expect, it } from 'vitest';
import { withOverrides } from '../../src/cli/backtest-plan.ts';

describe('overrides on a pair file', () => {
  const file = { STRATEGY: 'ladder', LADDER_ORDER_NOTIONAL: '200', LADDER_LEVEL_NOTIONAL_INCREMENT: '10', LADDER_LEVELS: '2' };

  it('sizes in base tokens when the command line gives a size in base tokens', () => {
    expect(withOverrides(file, { LADDER_ORDER_SIZE: '0.1' })).toEqual({ STRATEGY: 'ladder', LADDER_ORDER_SIZE: '0.1', LADDER_LEVEL_NOTIONAL_INCREMENT: '10', LADDER_LEVELS: '2' });
    expect(withOverrides(file, { LADDER_LEVEL_SIZE_INCREMENT: '0.01' })).toEqual({ STRATEGY: 'ladder', LADDER_ORDER_NOTIONAL: '200', LADDER_LEVEL_SIZE_INCREMENT: '0.01', LADDER_LEVELS: '2' });
  });

  it('sizes by notional when the command line gives a notional, whatever the file said', () => {
    expect(withOverrides({ GLFT_ORDER_SIZE: '0.05' }, { GLFT_ORDER_NOTIONAL: '30' })).toEqual({ GLFT_ORDER_NOTIONAL: '30' });
  });

  it('keeps both when the command line sets both (the config check refuses them, naming both)', () => {
    expect(withOverrides(file, { LADDER_ORDER_SIZE: '0.1', LADDER_ORDER_NOTIONAL: '50' })).toMatchObject({ LADDER_ORDER_SIZE: '0.1', LADDER_ORDER_NOTIONAL: '50' });
  });

  it('leaves every other key as the file has it, the override winning', () => {
    expect(withOverrides(file, { LADDER_LEVELS: '3' })).toEqual({ ...file, LADDER_LEVELS: '3' });
  });
});
