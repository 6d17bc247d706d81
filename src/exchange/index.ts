/**
 * Public surface of `src/exchange`: the typed REST client, the WS stream, the local book, the
 * gas-fee builder and the live Venue adapter (the signer and wire types have their own index).
 */
export * from './client/index.ts';
export * from './stream/index.ts';
export * from './book/index.ts';
export * from './gas/index.ts';
export * from './venue/index.ts';
export { chainWithContracts, createLiveVenue, type LiveVenueConfig, type LiveVenueFactoryDeps } from './venue/create.ts';
export { WIRE_ANOMALY_KINDS, WireAnomalyCounter, type AnomalySink, type WireAnomalyKind } from './wire/anomalies.ts';
export { MarketRecorder, recordingScales, type RecordedEvent, type RecordSink, type RecordingScales } from './recorder.ts';
export * from './chain/index.ts';
