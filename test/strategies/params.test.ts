import { describe, expect, it } from 'vitest';
import type { ConfigIssue, StrategyDefinition } from '../../src/core/index.ts';
import { AVELLANEDA_STOIKOV, GLFT, LADDER, TICK_GRID } from '../../strategies/index.ts';

const definitions: [string, StrategyDefinition<unknown>, string][] = [
  ['ladder', LADDER , 'LADDER_'],
  ['avellaneda-stoikov', AVELLANEDA_STOIKOV , 'AS_'],
  ['glft', GLFT , 'GLFT_'],
  ['tick-grid', TICK_GRID , 'GRID_'],
];

function issuesOf(definition: StrategyDefinition<unknown>, env: Record<string, string>): ConfigIssue[] {
  const result = definition.parseParams(env);
  return result.ok ? [] : result.issues;
}

describe.each(definitions)('%s params', (_name, definition, prefix) => {
  it('parse from an env file that sets none of them', () => {
    expect(definition.parseParams({ STRATEGY: definition.name }).ok).toBe(true);
  });

  it('list every key with a prefixed name, a default, a unit and a doc', () => {
    expect(definition.keys.length).toBeGreaterThan(4);
    for (const key of definition.keys) {
      expect(key.key.startsWith(prefix)).toBe(true);
      expect(key.default).not.toBe('');
      expect(key.unit).not.toBe('');
      expect(key.doc.length).toBeGreaterThan(10);
    }
    expect(new Set(definition.keys.map((key) => key.key)).size).toBe(definition.keys.length);
  });

  it('name the key, the value and what is allowed for each bad value', () => {
    for (const { key } of definition.keys) {
      const issues = issuesOf(definition, { [key]: 'banana' });
      expect(issues).toHaveLength(1);
      expect(issues[0]).toMatchObject({ key, value: 'banana' });
      expect(issues[0]?.allowed.length).toBeGreaterThan(3);
    }
  });

  it('report every bad key at once', () => {
    const env = Object.fromEntries(definition.keys.map(({ key }) => [key, 'banana']));
    const issues = issuesOf(definition, env);
    expect(issues.map((issue) => issue.key).sort()).toEqual(definition.keys.map(({ key }) => key).sort());
  });

  it('read explicit values that equal the defaults the same as no values', () => {
    const env = Object.fromEntries(definition.keys.map(({ key, default: byDefault }) => [key, byDefault]));
    const explicit = definition.parseParams(env);
    const implicit = definition.parseParams({});
    expect(explicit).toEqual(implicit);
  });
});

describe('value rules', () => {
  it('accept true/false, 1/0, on/off for booleans', () => {
    for (const [text, expected] of [['true', true], ['1', true], ['on', true], ['ON', true], ['false', false], ['0', false], ['off', false]] as const) {
      const result = LADDER.parseParams({ LADDER_PING_PONG: text });
      expect(result.ok && result.params.pingPong).toBe(expected);
    }
    expect(issuesOf(LADDER , { LADDER_PING_PONG: 'maybe' })[0]?.allowed).toBe('true/false, 1/0, on/off or yes/no');
  });

  it('say which range a number must be in', () => {
    expect(issuesOf(LADDER , { LADDER_LEVELS: '2.5' })[0]).toEqual({ key: 'LADDER_LEVELS', value: '2.5', allowed: 'an integer ≥ 1 and ≤ 50' });
    expect(issuesOf(AVELLANEDA_STOIKOV , { AS_GAMMA: '0' })[0]).toEqual({ key: 'AS_GAMMA', value: '0', allowed: 'a number > 0 and ≤ 1000000' });
    expect(issuesOf(AVELLANEDA_STOIKOV , { AS_HORIZON_S: '-1' })[0]?.allowed).toBe('inf or a number > 0 and ≤ 31536000 s');
    expect(issuesOf(GLFT , { GLFT_ORDER_SIZE: '' })[0]).toMatchObject({ key: 'GLFT_ORDER_SIZE', value: '' });
  });

  it('take keywords and numbers where a key allows both', () => {
    const finite = AVELLANEDA_STOIKOV.parseParams({ AS_HORIZON_S: '3600', AS_KAPPA: '2.5' });
    expect(finite.ok && [finite.params.horizonS, finite.params.kappa]).toEqual([3600, 2.5]);
    const keywords = AVELLANEDA_STOIKOV.parseParams({ AS_HORIZON_S: 'INF', AS_KAPPA: 'Auto' });
    expect(keywords.ok && [keywords.params.horizonS, keywords.params.kappa]).toEqual(['inf', 'auto']);
  });

  it('check keys that must fit together', () => {
    expect(issuesOf(LADDER , { LADDER_PRICE_FLOOR: '3000', LADDER_PRICE_CEILING: '2000' })).toEqual([
      { key: 'LADDER_PRICE_FLOOR', value: '3000', allowed: 'below LADDER_PRICE_CEILING (2000)' },
    ]);
    expect(issuesOf(LADDER , { LADDER_BID_SPREAD_BPS: '0', LADDER_ASK_SPREAD_BPS: '0' })[0]?.key).toBe('LADDER_ASK_SPREAD_BPS');
    expect(issuesOf(AVELLANEDA_STOIKOV , { AS_MIN_SPREAD_BPS: '300', AS_MAX_SPREAD_BPS: '100' })[0]).toMatchObject({
      key: 'AS_MIN_SPREAD_BPS',
      value: '300',
    });
    expect(issuesOf(GLFT , { GLFT_ORDER_SIZE: '1', GLFT_MAX_POSITION: '0.5' })[0]).toMatchObject({
      key: 'GLFT_MAX_POSITION',
      value: '0.5',
    });
  });
});
