/**
 * Recordings already in the project format (what `akira-mm record` writes): each file is
 * validated record by record — known kind, a side on every depth record, receive time never going
 * back — and the files are joined into one. Tick and lot are inferred again over the whole.
 */
import { DataError, KIND, SIDE_BUY, SIDE_SELL, isKnownKind, type RecordingHeader } from '../format.ts';
import { readExactFields, readRecording, readRecordingHeader } from '../reader.ts';
import { RecordingWriter } from '../writer.ts';
import { SkipCounter, type ImportReport, type WarnSink } from './report.ts';

/** Copies and validates project recordings into `out`. */
export async function importAkira(paths: readonly string[], out: string, warn: WarnSink): Promise<ImportReport> {
  const headers = paths.map((path) => readRecordingHeader(path));
  const first = headers[0] as RecordingHeader;
  headers.forEach((header, i) => {
    if (header.symbol !== first.symbol || header.priceDecimals !== first.priceDecimals || header.qtyDecimals !== first.qtyDecimals || header.market !== first.market) {
      throw new DataError('DATA_BAD_INPUT', `${paths[i]} is ${header.market ?? header.symbol} with ${header.priceDecimals}/${header.qtyDecimals} decimals, ${paths[0]} is ${first.market ?? first.symbol} with ${first.priceDecimals}/${first.qtyDecimals}: one symbol per recording, and one market`);
    }
  });
  const skips = new SkipCounter(warn);
  const writer = new RecordingWriter(out, {
    symbol: first.symbol,
    source: first.source,
    priceDecimals: first.priceDecimals,
    qtyDecimals: first.qtyDecimals,
    ...(first.base === undefined ? {} : { base: first.base }),
    ...(first.quote === undefined ? {} : { quote: first.quote }),
    ...(first.market === undefined ? {} : { market: first.market }),
  });
  let lastLocalNs = -1n;
  try {
    for (const path of paths) {
      await readRecording(path, (record, index, raw) => {
        skips.lines++;
        const where = `${path}: record ${index}`;
        if (!isKnownKind(record.kind)) {
          skips.skip('unknown record kind', where, String(record.kind));
          return;
        }
        if ((record.kind === KIND.depth || record.kind === KIND.trade) && (record.price < 0 || record.qty < 0)) {
          skips.skip('negative price or size', where);
          return;
        }
        if (record.kind === KIND.depth && record.side !== SIDE_BUY && record.side !== SIDE_SELL) {
          skips.skip('depth record without a side', where);
          return;
        }
        const exact = readExactFields(raw);
        if (exact.localNs < lastLocalNs) {
          skips.skip('local time went back', where);
          return;
        }
        lastLocalNs = exact.localNs;
        writer.append({
          kind: record.kind,
          side: record.side,
          // hasSeq and hasAux1 are set again by the writer from the fields given.
          flags: record.flags & ~(4 | 16),
          exchNs: exact.exchNs,
          localNs: exact.localNs,
          ...((record.flags & 4) !== 0 ? { seq: record.seq } : {}),
          price: record.price,
          qty: record.qty,
          ...((record.flags & 16) !== 0 ? { aux1: record.kind === KIND.gasPrice ? exact.aux1 : record.aux1 } : {}),
          aux2: record.aux2,
        });
      });
    }
  } catch (error) {
    writer.abort();
    throw error;
  }
  const header = writer.close();
  return { format: 'akira', lines: skips.lines, records: header.records, skipped: skips.counts, header };
}
