/**
 * The recordings behind `backtest --reference FILE…`: the replay format as they are, or Binance's
 * own collector files (the `.gz` of `../shared/data/binance-spot-hftbacktest`, what
 * `data import --format binance` reads), imported once into a temporary replay file that lives as
 * long as the command. So `--reference ethusdt_20240808.gz ethusdt_20240809.gz` needs no import
 * step first; `walkforward --train … --test …` reads its recordings the same way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAGIC, importRecording, readFileHead, type ImportReport } from '../backtest/data/index.ts';
import { UsageError } from './io.ts';

/** Replay-format recordings, and how to remove what was imported for them. */
export interface ReferenceRecordings {
  readonly paths: readonly string[];
  /** What the import did, when the files were imported (undefined: replay-format files as given). */
  readonly imported?: ImportReport;
  dispose(): void;
}

/** True when `path` starts with the replay format's magic bytes. */
function isReplayFormat(path: string, flag: string): boolean {
  let head: Uint8Array;
  try {
    head = readFileHead(path, MAGIC.length);
  } catch (error) {
    throw new UsageError(`${flag} ${path}: cannot read it (${error instanceof Error ? error.message : String(error)})`);
  }
  return Buffer.from(head).toString('latin1') === MAGIC;
}

/**
 * The recordings as given when every one is in the replay format; otherwise all of them (in time
 * order, one market) imported as Binance collector files into one temporary recording. `flag`
 * names them in errors (`--reference`, `--train`).
 * @throws UsageError for a file that is neither.
 */
export async function replayRecordings(paths: readonly string[], flag: string, warn: (message: string) => void): Promise<ReferenceRecordings> {
  if (paths.length === 0 || paths.every((path) => isReplayFormat(path, flag))) return { paths, dispose: () => undefined };
  const mixed = paths.find((path) => isReplayFormat(path, flag));
  if (mixed !== undefined) throw new UsageError(`${flag} ${mixed}: give either replay-format recordings or Binance collector files, not both`);
  const folder = mkdtempSync(join(tmpdir(), 'akira-import-'));
  const out = join(folder, 'imported.data');
  let imported: ImportReport;
  try {
    imported = await importRecording('binance', paths, out, warn);
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw new UsageError(`${flag} ${paths.join(' ')}: neither a replay-format recording nor Binance collector files that import (${error instanceof Error ? error.message : String(error)})`);
  }
  return { paths: [out], imported, dispose: () => rmSync(folder, { recursive: true, force: true }) };
}

/** The recordings of `--reference` (see {@link replayRecordings}). */
export function referenceRecordings(paths: readonly string[], warn: (message: string) => void): Promise<ReferenceRecordings> {
  return replayRecordings(paths, '--reference', warn);
}
