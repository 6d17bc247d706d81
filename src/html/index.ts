/**
 * Public surface of `src/html`: the page kit every HTML page of ours is built with (the backtest
 * and sweep reports, the live dashboard). It imports nothing of ours.
 */
export { embedJson, escapeHtml, pageHtml, tableHtml, type PageCharts } from './page.ts';
