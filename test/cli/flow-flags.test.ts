/**
 * `--flow poisson|reference` and the taker models' `--thin-*` flags of `akira-mm sim` and `paper`:
 * named, bounded and defaulted by the declarations in `src/core/takers`, refused with the flag, the
 * value and what is allowed, in the same words as `backtest --venue thin` (one parser).
 */
import { describe, expect, it } from 'vitest';
import { ARBITRAGE_PARAMETERS, BACKGROUND_MAKER_PARAMETERS, UNINFORMED_TAKER_PARAMETERS } from '../../src/core/index.ts';
import { thinPlanFromFlags } from '../../src/cli/backtest-thin.ts';
import { FLOW_FLAGS, parseFlowFlags } from '../../src/cli/flow-flags.ts';
import { DEFAULT_REFERENCE_FLOW } from '../../src/sim/index.ts';
import { runCli } from './run-cli.ts';

describe('the flow flags', () => {
  it('default to the reference flow with the backtest’s taker defaults when there is a reference, else to the Poisson flow', () => {
    expect(parseFlowFlags({}, true, '--reference')).toEqual({ model: 'reference', options: DEFAULT_REFERENCE_FLOW });
    expect(parseFlowFlags({}, false, '--reference').model).toBe('poisson');
    expect(parseFlowFlags({ flow: 'poisson' }, true, '--reference').model).toBe('poisson');
  });

  it('declare every taker parameter under its backtest flag name, with its default', () => {
    const defaults: Record<string, unknown> = { ...DEFAULT_REFERENCE_FLOW.uninformed, ...DEFAULT_REFERENCE_FLOW.background, ...DEFAULT_REFERENCE_FLOW.arbitrage };
    for (const declaration of [...UNINFORMED_TAKER_PARAMETERS, ...BACKGROUND_MAKER_PARAMETERS, ...ARBITRAGE_PARAMETERS]) {
      expect(FLOW_FLAGS[declaration.flag]).toMatchObject({ type: 'string', default: defaults[declaration.field] });
    }
    expect(FLOW_FLAGS['thin-arbitrage']).toMatchObject({ default: 'on' });
  });

  it('read each value into its model', () => {
    const { options } = parseFlowFlags({ 'thin-taker-share': '0.05', 'thin-background-lag-ms': '0', 'thin-arb-edge-bps': '2.5', 'thin-arbitrage': 'off' }, true, '--reference');
    expect(options.uninformed).toEqual({ ...DEFAULT_REFERENCE_FLOW.uninformed, share: 0.05 });
    expect(options.background).toEqual({ ...DEFAULT_REFERENCE_FLOW.background, lagMs: 0 });
    expect(options.arbitrage).toEqual({ ...DEFAULT_REFERENCE_FLOW.arbitrage, edgeBps: 2.5, enabled: false });
  });

  it('refuse a value out of range, not a number, a --thin-* flag without the reference flow, and --flow reference without a reference', () => {
    expect(() => parseFlowFlags({ 'thin-taker-share': '2' }, true, '--reference')).toThrow('--thin-taker-share=2: allowed a number ≥ 0 and ≤ 1 (share of the reference volume)');
    expect(() => parseFlowFlags({ 'thin-arb-latency-ms': 'soon' }, true, '--reference')).toThrow('--thin-arb-latency-ms=soon: allowed a number ≥ 0 and ≤ 3600000 ms');
    expect(() => parseFlowFlags({ 'thin-arbitrage': 'maybe' }, true, '--reference')).toThrow('--thin-arbitrage=maybe: allowed on or off');
    expect(() => parseFlowFlags({ flow: 'random' }, true, '--reference')).toThrow('--flow random: expected poisson or reference');
    expect(() => parseFlowFlags({ flow: 'poisson', 'thin-taker-share': '0.1' }, true, '--reference')).toThrow('--thin-taker-share goes with --flow reference');
    expect(() => parseFlowFlags({ 'thin-taker-share': '0.1' }, false, '--reference or --hedge')).toThrow('it needs a reference market: --reference or --hedge');
    expect(() => parseFlowFlags({ flow: 'reference' }, false, '--flow-follow URL|FILE')).toThrow('--flow reference needs a reference market to drive it: --flow-follow URL|FILE');
  });

  it('refuse a bad value in the very words of backtest --venue thin', () => {
    const messageOf = (act: () => unknown): string => {
      try {
        act();
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
      return 'no error';
    };
    for (const [flag, text] of [['thin-taker-share', '-0.1'], ['thin-size-scale', '0'], ['thin-background-lag-ms', '1e9'], ['thin-arb-edge-bps', 'x'], ['thin-arbitrage', 'yes']] as const) {
      const flow = messageOf(() => parseFlowFlags({ [flag]: text }, true, '--reference'));
      expect(flow).toContain(`--${flag}=${text}: allowed`);
      expect(flow).toBe(messageOf(() => thinPlanFromFlags({ venue: 'thin', [flag]: text })));
    }
  });

  it('are refused by paper and sim before anything starts', async () => {
    expect(await runCli(['paper', '--thin-taker-share', '0.1', '--duration', '1'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--thin-taker-share goes with --flow reference') });
    expect(await runCli(['paper', '--reference', '--thin-background-spread-bps', '0', '--duration', '1'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--thin-background-spread-bps=0: allowed a number > 0') });
    expect(await runCli(['sim', '--flow', 'reference', '--port', '0'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--flow reference needs a reference market to drive it: --flow-follow') });
    expect(await runCli(['sim', '--no-flow', '--flow', 'poisson'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--flow chooses a flow and --no-flow has none') });
  });
});
