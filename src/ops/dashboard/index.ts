/** Public surface of `src/ops/dashboard`: the live dashboard a daemon serves beside `/metrics`. */
export { Dashboard, type DashboardOptions, type DashboardRoute } from './dashboard.ts';
export { DASHBOARD_DEFAULTS, DashboardState, type ColumnMeta, type DashboardAccount, type DashboardPair, type DashboardSnapshot, type DashboardStateOptions, type NumberedEvent, type SampleMessage, type SamplePart, type StateView } from './sampler.ts';
export { DASHBOARD_PATHS } from './page.ts';
export { ACCOUNT_LAYOUT, PAIR_LAYOUT, STATE_NAMES, STATUS_SERIES, metricNamesOf, type ChartSpec, type FigureSpec, type PairFeature, type PanelLayout } from './layout.ts';
export { EventRing, SampleRing } from './ring.ts';
export { readSeries, seriesKey, type Labels, type SeriesValue } from './series.ts';
export { SSE_DEFAULTS, SseStreams, sseMessage } from './sse.ts';
export type { DashboardEvent } from './events.ts';
