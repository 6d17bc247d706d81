/** Public surface of the recorded-data layer: format, reader, writer, importers, event source. */
export { DataError, FLAG, KIND, RECORD_BYTES, HEADER_BYTES, SIDE_BUY, SIDE_NONE, SIDE_SELL, scaledToDecimal, decimalToScaled, type DataErrorCode, type DataRecord, type RecordInput, type RecordingHeader } from './format.ts';
export { RecordingWriter, type RecordingMeta } from './writer.ts';
export { readRecording, readRecordingHeader, type ReadOptions, type RecordVisitor } from './reader.ts';
export type { RecordedEventHandler, RecordedEventSource } from './events.ts';
export { createRecordedEventSource, type RecordedSourceOptions } from './source.ts';
export { recordingScale, type RecordingScale } from './scale.ts';
export { isoTime, parseUtcTime, recordingSpan, shareWindow, timeWindow, windowedSource, type RecordingSpan, type TimeWindow } from './window.ts';
export { copyOnReceiveClock } from './receive-clock.ts';
export { replayTopOfBook, type TopRow, type VenueTop } from './top-of-book.ts';
export { IMPORT_FORMATS, TIME_UNITS, importRecording, isImportFormat, isTimeUnit, type ImportFormat, type ImportOptions, type ImportReport, type TimeUnit, type WarnSink } from './importers/index.ts';
export { LocalStampReader } from './importers/time-unit.ts';
export { readFileHead, readLines } from './importers/lines.ts';
export { MAGIC } from './format.ts';
