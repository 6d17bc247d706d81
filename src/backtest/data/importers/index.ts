/**
 * `akira-mm data import`: one entry per source format. Every importer streams its input and
 * writes the project format; a failed import leaves no output file behind.
 */
import { rmSync } from 'node:fs';
import { importAkira } from './akira.ts';
import { importBinance } from './binance.ts';
import { importBitstamp } from './bitstamp.ts';
import { importLobster } from './lobster.ts';
import type { ImportOptions, ImportReport, WarnSink } from './report.ts';

export type { ImportOptions, ImportReport, WarnSink } from './report.ts';
export { TIME_UNITS, isTimeUnit, type TimeUnit } from './time-unit.ts';

/** Source formats `data import` reads. */
export const IMPORT_FORMATS = ['binance', 'lobster', 'bitstamp', 'akira'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

const IMPORTERS: Readonly<Record<ImportFormat, (paths: readonly string[], out: string, warn: WarnSink, options: ImportOptions) => Promise<ImportReport>>> = {
  binance: importBinance,
  lobster: importLobster,
  bitstamp: importBitstamp,
  akira: importAkira,
};

/** True for a format name `data import` knows. */
export function isImportFormat(name: string): name is ImportFormat {
  return (IMPORT_FORMATS as readonly string[]).includes(name);
}

/**
 * Imports `paths` (in time order) into the recording `out`.
 * @throws DataError for unusable input; `out` is removed then.
 */
export async function importRecording(format: ImportFormat, paths: readonly string[], out: string, warn: WarnSink, options: ImportOptions = {}): Promise<ImportReport> {
  try {
    return await IMPORTERS[format](paths, out, warn, options);
  } catch (error) {
    rmSync(out, { force: true });
    throw error;
  }
}
