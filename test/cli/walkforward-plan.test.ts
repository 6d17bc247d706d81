import { describe, expect, it } from 'vitest';
import { WALKFORWARD_FLAGS } from '../../src/cli/walkforward.ts';
import { recordingArgs, strategyArgs } from '../../src/cli/walkforward-args.ts';
import { DEFAULT_ALSO, checkKeyOfStrategy, sensitivityRows, strategyAxes, strategyLabels } from '../../src/cli/walkforward-plan.ts';

describe('walk-forward plans', () => {
  it('gives each --env the --sweep flags since the previous one, and one --env every --sweep', () => {
    const args = ['--train', 'a.gz', '--sweep', 'LADDER_BID_SPREAD_BPS=1,2', '--env', 'ladder.env', '--sweep', 'GLFT_ADJ1=1,2', '--sweep', 'latency-ms=25,50', '--env', 'glft.env', '--test', 'b.gz'];
    expect(strategyArgs(args, WALKFORWARD_FLAGS)).toEqual([
      { env: 'ladder.env', sweeps: ['LADDER_BID_SPREAD_BPS=1,2'] },
      { env: 'glft.env', sweeps: ['GLFT_ADJ1=1,2', 'latency-ms=25,50'] },
    ]);
    expect(strategyArgs(['--env', 'ladder.env', '--sweep', 'LADDER_BID_SPREAD_BPS=1,2'], WALKFORWARD_FLAGS)).toEqual([{ env: 'ladder.env', sweeps: ['LADDER_BID_SPREAD_BPS=1,2'] }]);
    expect(() => strategyArgs(['--env', 'a.env', '--env', 'b.env', '--sweep', 'GLFT_ADJ1=1,2'], WALKFORWARD_FLAGS)).toThrow(/--sweep GLFT_ADJ1=1,2 after the last --env/);
  });

  it('gives each recording flag the files after it, as backtest --data a b reads them', () => {
    const args = ['--train', 'a.gz', 'b.gz', '--env', 'l.env', '--test', 'c.gz', '--workers', '2', '--data', 'd.data', 'e.data'];
    expect(recordingArgs(args, WALKFORWARD_FLAGS)).toEqual({ train: ['a.gz', 'b.gz'], test: ['c.gz'], data: ['d.data', 'e.data'] });
    expect(() => recordingArgs(['x.gz', '--train', 'a.gz'], WALKFORWARD_FLAGS)).toThrow(/unexpected argument "x.gz": recordings go after --train, --test or --data/);
    expect(() => recordingArgs(['--env', 'l.env', 'x.gz'], WALKFORWARD_FLAGS)).toThrow(/unexpected argument "x.gz"/);
  });

  it('refuses a sweep key the strategy does not read, STRATEGY, a key given twice and fit-scale without --fit', () => {
    expect(() => checkKeyOfStrategy('GLFT_ADJ1', 'ladder', 'ladder.env')).toThrow(/--sweep GLFT_ADJ1: a key of glft, and ladder.env runs STRATEGY=ladder, which does not read it \(its keys: LADDER_/);
    expect(() => strategyAxes(['STRATEGY=ladder,glft'], 'ladder', 'l.env', false)).toThrow(/one strategy per --env/);
    expect(() => strategyAxes(['GLFT_ADJ1=1', 'GLFT_ADJ1=2'], 'glft', 'g.env', false)).toThrow(/--sweep GLFT_ADJ1 is given twice for g.env/);
    expect(() => strategyAxes(['fit-scale=1,2'], 'glft', 'g.env', false)).toThrow(/add --fit/);
    // Engine, signal and model keys are every strategy's.
    expect(strategyAxes(['MIN_EDGE_BPS=0,1', 'queue=risk-averse,log', 'fit-scale=1,4'], 'glft', 'g.env', true).map((axis) => axis.key)).toEqual(['MIN_EDGE_BPS', 'queue', 'fit-scale']);
  });

  it('makes one sensitivity row per value of each --also key, none with --also none', () => {
    expect(sensitivityRows([...DEFAULT_ALSO]).map((row) => row.label)).toEqual(['queue=risk-averse', 'queue=power:2', 'queue=log', 'latency-ms=25', 'latency-ms=100', 'latency-ms=250']);
    expect(sensitivityRows(['maker-pbips=0'])).toEqual([{ label: 'maker-pbips=0', cell: { 'maker-pbips': '0' } }]);
    expect(sensitivityRows(['none'])).toEqual([]);
    expect(() => sensitivityRows(['none', 'queue=log'])).toThrow(/give it alone/);
    expect(() => sensitivityRows(['speed=1'])).toThrow(/^--also speed=1: expected KEY=v1,v2/);
  });

  it('names a strategy run from two env files by its file', () => {
    expect(strategyLabels([{ env: 'a/wide.env', strategy: 'ladder' }, { env: 'b/narrow.env', strategy: 'ladder' }, { env: 'g.env', strategy: 'glft' }])).toEqual(['ladder (wide.env)', 'ladder (narrow.env)', 'glft']);
  });
});
