/**
 * Sweep results as JSON lines, one per grid cell: `{"sweep_id", "cell", "cells", "params", …the
 * summary}`. Scripts read them line by line; `akira-mm backtest merge` joins the files of a
 * sweep's shards back into the whole grid, checking they belong to one sweep and that every cell
 * is there exactly once, so a merged sweep is exactly the sweep run in one go.
 */
import { MmError } from '../core/index.ts';
import type { SweepAxis, SweepSummary } from './sweep.ts';

/** One cell's result line. */
export interface SweepResultLine {
  /** Fingerprint of the sweep's data, env file, flags and axes: shards of one sweep share it. */
  readonly sweep_id: string;
  /** Index of the cell in the grid (first axis slowest). */
  readonly cell: number;
  /** Cells in the whole grid. */
  readonly cells: number;
  readonly params: Readonly<Record<string, string>>;
}

/** A whole sweep: its axes, the grid's cells and each cell's summary, in grid order. */
export interface SweepResults {
  readonly sweepId: string;
  readonly axes: SweepAxis[];
  readonly cells: Readonly<Record<string, string>>[];
  readonly summaries: SweepSummary[];
}

/** Sweep result files that cannot be merged; the message names the file and line. */
export class SweepMergeError extends MmError<'BACKTEST_SWEEP_MERGE'> {
  constructor(message: string) {
    super('BACKTEST_SWEEP_MERGE', message);
    this.name = 'SweepMergeError';
  }
}

/** The JSON lines of some cells of a sweep (each line ends with a newline). */
export function formatResultLines(sweepId: string, total: number, indexes: readonly number[], cells: readonly Readonly<Record<string, string>>[], summaries: readonly SweepSummary[]): string {
  return indexes.map((cell, i) => `${JSON.stringify({ sweep_id: sweepId, cell, cells: total, params: cells[cell], ...summaries[i] })}\n`).join('');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses one file's lines; blank lines are skipped. */
function parseLines(text: string, source: string): { line: SweepResultLine; summary: SweepSummary; where: string }[] {
  const parsed: { line: SweepResultLine; summary: SweepSummary; where: string }[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    const where = `${source}:${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw new SweepMergeError(`${where}: not a JSON line`);
    }
    if (!isRecord(value) || typeof value['sweep_id'] !== 'string' || !Number.isInteger(value['cell']) || !Number.isInteger(value['cells']) || !isRecord(value['params'])) {
      throw new SweepMergeError(`${where}: not a sweep result line (sweep_id, cell, cells and params are required; write them with --jsonl)`);
    }
    const { sweep_id, cell, cells, params, ...summary } = value;
    parsed.push({ line: { sweep_id, cell: cell as number, cells: cells as number, params: params as Record<string, string> }, summary: summary as unknown as SweepSummary, where });
  });
  return parsed;
}

/**
 * Joins result files into the whole sweep.
 * @throws SweepMergeError when files come from different sweeps, a cell is missing, or one cell
 *   has two different results.
 */
export function mergeSweepResults(files: readonly { readonly name: string; readonly text: string }[]): SweepResults {
  const lines = files.flatMap((file) => parseLines(file.text, file.name));
  const first = lines[0];
  if (first === undefined) throw new SweepMergeError('no result lines in the files given');
  const total = first.line.cells;
  // Filled, not sparse: array methods skip holes, and a hole is exactly a missing cell.
  const byCell = Array.from({ length: total }, (): { line: SweepResultLine; summary: SweepSummary; where: string } | undefined => undefined);
  for (const entry of lines) {
    if (entry.line.sweep_id !== first.line.sweep_id || entry.line.cells !== total) {
      throw new SweepMergeError(`${entry.where}: from another sweep (sweep_id ${entry.line.sweep_id} of ${entry.line.cells} cells; ${first.where} has ${first.line.sweep_id} of ${total})`);
    }
    if (entry.line.cell < 0 || entry.line.cell >= total) throw new SweepMergeError(`${entry.where}: cell ${entry.line.cell} is outside the grid of ${total}`);
    const seen = byCell[entry.line.cell];
    if (seen !== undefined && JSON.stringify([seen.line.params, seen.summary]) !== JSON.stringify([entry.line.params, entry.summary])) {
      throw new SweepMergeError(`${entry.where}: cell ${entry.line.cell} differs from ${seen.where}`);
    }
    byCell[entry.line.cell] = entry;
  }
  const missing = byCell.flatMap((entry, i) => (entry === undefined ? [i] : []));
  if (missing.length > 0) {
    const shown = missing.slice(0, 20).join(', ');
    throw new SweepMergeError(`cells ${shown}${missing.length > 20 ? ', …' : ''} of ${total} are missing: merge the files of every shard`);
  }
  const entries = byCell as { line: SweepResultLine; summary: SweepSummary }[];
  const cells = entries.map((entry) => entry.line.params);
  const keys = Object.keys(cells[0] ?? {});
  const axes = keys.map((key) => ({ key, values: [...new Set(cells.map((cell) => cell[key] as string))] }));
  return { sweepId: first.line.sweep_id, axes, cells, summaries: entries.map((entry) => entry.summary) };
}
