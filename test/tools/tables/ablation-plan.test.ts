import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chooseTuned, parseAblationRows, resolveOverlay } from '../../../tools/tables/ablation-plan.ts';
import { parseResultLines } from '../../../tools/tables/sweep-table.ts';

describe('the ablation plan', () => {
  it('reads one row a line: a name, the keys it sets, the keys the first half tunes', () => {
    const rows = parseAblationRows(['# comment', '', 'none | |', 'obi | ALPHA_OBI_BPS=@fit | ALPHA_MAX_BPS=1,2,4', 'both | ALPHA_OBI_BPS=0.5 TOXICITY_WIDEN_RATIO=0.5 | ALPHA_MAX_BPS=1,2 TOXICITY_MAX_WIDEN_BPS=2,5', 'bare'].join('\n'));
    expect(rows).toEqual([
      { name: 'none', overlay: [], tune: [] },
      { name: 'obi', overlay: [['ALPHA_OBI_BPS', '@fit']], tune: [{ key: 'ALPHA_MAX_BPS', values: ['1', '2', '4'] }] },
      {
        name: 'both',
        overlay: [
          ['ALPHA_OBI_BPS', '0.5'],
          ['TOXICITY_WIDEN_RATIO', '0.5'],
        ],
        tune: [
          { key: 'ALPHA_MAX_BPS', values: ['1', '2'] },
          { key: 'TOXICITY_MAX_WIDEN_BPS', values: ['2', '5'] },
        ],
      },
      { name: 'bare', overlay: [], tune: [] },
    ]);
  });

  it('reads the committed rows file, whose first row is the no-signal baseline', () => {
    const path = fileURLToPath(new URL('../../../tools/tables/ablation-rows.txt', import.meta.url));
    const rows = parseAblationRows(readFileSync(path, 'utf8'), path);
    expect(rows[0]).toEqual({ name: 'none', overlay: [], tune: [] });
    expect(rows.map((row) => row.name)).toContain('all');
  });

  it('reads @fit=k1,k2 in the tuned part as scales of the fitted weights, and puts each scale on every @fit weight', () => {
    const [row] = parseAblationRows('alpha | ALPHA_OBI_BPS=@fit ALPHA_OFI_BPS=@fit ALPHA_MAX_BPS=3 | @fit=1,4 ALPHA_MAX_BPS=2,8');
    expect(row!.tune).toEqual([
      { key: '@fit', values: ['1', '4'] },
      { key: 'ALPHA_MAX_BPS', values: ['2', '8'] },
    ]);
    expect(resolveOverlay(row!, { ALPHA_OBI_BPS: '0.7112', ALPHA_OFI_BPS: '-0.0134' }, 4)).toEqual([
      ['ALPHA_OBI_BPS', '2.8448'],
      ['ALPHA_OFI_BPS', '-0.0536'],
      ['ALPHA_MAX_BPS', '3'],
    ]);
    expect(() => parseAblationRows('x | ALPHA_MAX_BPS=1 | @fit=1,2')).toThrow("rows line 1: @fit scales the overlay's @fit weights, and it has none");
    expect(() => parseAblationRows('x | ALPHA_OBI_BPS=@fit | @fit=1,big')).toThrow('the scales of the fitted weights are numbers');
    expect(() => parseAblationRows('x | @fit=1,2 |')).toThrow('overlay "@fit=1,2" is not KEY=VALUE');
  });

  it('refuses a row it cannot read, naming the line', () => {
    expect(() => parseAblationRows('a | b | c | d')).toThrow('rows line 1: expected "name | KEY=VALUE … | KEY=v1,v2 …", got 4 parts');
    expect(() => parseAblationRows('x | alpha=1')).toThrow('rows line 1: overlay "alpha=1" is not KEY=VALUE');
    expect(() => parseAblationRows('x | | ALPHA_MAX_BPS=2')).toThrow('tuned ALPHA_MAX_BPS needs at least two values');
    expect(() => parseAblationRows('x\nx')).toThrow('rows line 2: row x is given twice');
    expect(() => parseAblationRows('two words | |')).toThrow('must be one word');
    expect(() => parseAblationRows('# nothing')).toThrow('no rows');
  });

  it('puts the fitted weights in place of @fit, and refuses a key the fit did not write', () => {
    const [row] = parseAblationRows('obi | ALPHA_OBI_BPS=@fit ALPHA_MAX_BPS=3 |');
    expect(resolveOverlay(row!, { ALPHA_OBI_BPS: '0.7112' })).toEqual([
      ['ALPHA_OBI_BPS', '0.7112'],
      ['ALPHA_MAX_BPS', '3'],
    ]);
    expect(() => resolveOverlay(row!, { ALPHA_OFI_BPS: '1' })).toThrow('row obi: ALPHA_OBI_BPS=@fit but the fit wrote no ALPHA_OBI_BPS (it writes ALPHA_OFI_BPS)');
  });

  it('keeps, per strategy, the first-half cell with the best PnL after fees, the first in grid order on a tie', () => {
    const lines = parseResultLines(
      [
        { cell: 0, params: { STRATEGY: 'ladder', ALPHA_MAX_BPS: '1' }, pnl_quote: 0.2 },
        { cell: 1, params: { STRATEGY: 'ladder', ALPHA_MAX_BPS: '2' }, pnl_quote: 0.5 },
        { cell: 2, params: { STRATEGY: 'ladder', ALPHA_MAX_BPS: '4' }, pnl_quote: -1 },
        { cell: 4, params: { STRATEGY: 'glft', ALPHA_MAX_BPS: '2' }, pnl_quote: 0.3 },
        { cell: 3, params: { STRATEGY: 'glft', ALPHA_MAX_BPS: '1' }, pnl_quote: 0.3 },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    expect([...chooseTuned(lines, ['ladder', 'glft'], ['ALPHA_MAX_BPS'])]).toEqual([
      ['ladder', [['ALPHA_MAX_BPS', '2']]],
      ['glft', [['ALPHA_MAX_BPS', '1']]],
    ]);
    expect(() => chooseTuned(lines, ['avellaneda-stoikov'], ['ALPHA_MAX_BPS'])).toThrow('no first-half cell for STRATEGY=avellaneda-stoikov');
  });
});
