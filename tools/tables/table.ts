/**
 * `npx tsx tools/tables/table.ts FILE.jsonl… [--where P=V]… [--title T] [--params A,B] [--columns C,D] [--collapse P,Q] [--break-even-by P,Q [--break-even-only]] [--baseline P=V[:FIGURE,…]]`:
 * prints the markdown table of backtest results (`akira-mm backtest --sweep … --jsonl FILE`, or the
 * ablation's lines, tools/tables/ablation.sh), each figure with its 95 % interval; the docs' result
 * tables are its output. Several files are one table, in the order given.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { COLUMNS, describeSpan, parseResultLines, renderBreakEven, renderTable } from './sweep-table.ts';

const USAGE = 'usage: npx tsx tools/tables/table.ts FILE.jsonl… [--where P=V]… [--title T] [--params A,B] [--columns C,D] [--collapse P,Q] [--break-even-by P,Q [--break-even-only]] [--baseline PARAM=VALUE[:FIGURE,…]]';
const THIN_COLUMNS = ['thin-fills', 'pickoff', 'pnl', 'pnl-day', 'pnl-bps', 'break-even', 'verdict', 'markout-10s'];

function main(argv: readonly string[]): number {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      title: { type: 'string' },
      params: { type: 'string' },
      columns: { type: 'string' },
      collapse: { type: 'string' },
      'break-even-by': { type: 'string' },
      baseline: { type: 'string' },
      where: { type: 'string', multiple: true },
      'break-even-only': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true || positionals.length === 0) {
    process.stdout.write(`${USAGE}\n\ncolumns (default ${THIN_COLUMNS.join(',')}): ${Object.keys(COLUMNS).join(', ')}\n`);
    return values.help === true ? 0 : 2;
  }
  const wheres = (values.where ?? []).map((text) => {
    const at = text.indexOf('=');
    if (at <= 0) throw new Error(`--where ${text}: expected PARAM=VALUE, e.g. venue=thin`);
    return [text.slice(0, at), text.slice(at + 1)] as const;
  });
  const lines = positionals.flatMap((path) => parseResultLines(readFileSync(path, 'utf8'), path)).filter((line) => wheres.every(([param, value]) => line.params[param] === value));
  const list = (text: string | undefined): string[] | undefined => text?.split(',').map((item) => item.trim()).filter((item) => item !== '');
  const out: string[] = [];
  if (values.title !== undefined) out.push(`**${values.title}**: ${describeSpan(lines)}.`, '');
  const params = list(values.params);
  const baseline = values.baseline === undefined ? undefined : baselineOf(values.baseline);
  if (values['break-even-only'] !== true) out.push(renderTable(lines, { columns: list(values.columns) ?? THIN_COLUMNS, ...(params === undefined ? {} : { params }), ...(values.collapse === undefined ? {} : { collapse: list(values.collapse) ?? [] }), ...(baseline === undefined ? {} : { baseline }) }));
  if (values['break-even-by'] !== undefined) out.push(...(values['break-even-only'] === true ? [] : ['']), renderBreakEven(lines, list(values['break-even-by']) ?? []));
  else if (values['break-even-only'] === true) throw new Error('--break-even-only goes with --break-even-by P,Q');
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

/** `--baseline PARAM=VALUE[:FIGURE,FIGURE…]` (figures default pnl_quote). */
function baselineOf(text: string): { param: string; value: string; figures: string[] } {
  const match = /^([^=]+)=([^:]+)(?::([\w,]+))?$/.exec(text);
  if (match === null) throw new Error(`--baseline ${text}: expected PARAM=VALUE or PARAM=VALUE:FIGURE,FIGURE, e.g. signals=none:pnl_quote,markout_1s_bps`);
  return { param: match[1] as string, value: match[2] as string, figures: (match[3] ?? 'pnl_quote').split(',').filter((figure) => figure !== '') };
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`tools/tables/table.ts: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
  process.exitCode = 2;
}
