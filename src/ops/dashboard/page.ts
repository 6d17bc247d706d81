/**
 * The dashboard page at `/`: the house page shell (uPlot, its CSS and the chart kit inlined: the
 * daemon serves everything, nothing comes from the network) with the layout embedded; the browser
 * script opens `/dashboard/events` and draws what arrives.
 */
import { readFileSync } from 'node:fs';
import { escapeHtml, pageHtml } from '../../html/index.ts';
import { ACCOUNT_LAYOUT, PAIR_LAYOUT, STATE_NAMES } from './layout.ts';

const SCRIPT = new URL('./dashboard.client.js', import.meta.url);

/** Paths the page reads, relative to it (so a reverse proxy may serve it under a prefix). */
export const DASHBOARD_PATHS = { page: '/', state: '/dashboard/state', events: '/dashboard/events' } as const;

const STYLE = `
body{max-width:none;margin:16px 24px}
header{display:flex;gap:18px;align-items:baseline;flex-wrap:wrap}
#live{color:#555}#live[data-connected="false"]{color:#b3261e}
.panel{border-top:2px solid #ddd;margin-top:18px;padding-top:4px}
.panel>h2{margin:8px 0}
.state{display:inline-block;padding:1px 8px;border-radius:10px;font-size:13px;font-weight:500;margin-left:8px;background:#e9f5f2;color:#1b5e52}
.state[data-state="paused"],.state[data-state="starting"],.state[data-state="stopping"]{background:#fff3dc;color:#8a5300}
.state[data-state="halted"],.state[data-state="stopped"]{background:#fde8e6;color:#8c1d18}
.figures{display:flex;flex-wrap:wrap;gap:6px 28px;align-items:flex-start}
.figures h3{font-size:13px;margin:6px 0 2px;color:#333}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(560px,1fr));gap:4px 18px}
.events{max-height:260px;overflow:auto}
`;

/** The page, for the pairs of this daemon. */
export function dashboardHtml(options: { readonly title: string }): string {
  const body = `<header><h1>${escapeHtml(options.title)}</h1><span id="live" data-connected="false" data-samples="0" data-seq="0">connecting…</span>
<span class="muted">read-only · every figure is the <a href="metrics">/metrics</a> series named in its tooltip, sampled each second</span></header>
<section class="panel" id="account"></section>
<div id="pairs"></div>
<noscript>The dashboard draws with JavaScript; /metrics and /health answer without it.</noscript>`;
  const data = {
    layout: { pair: PAIR_LAYOUT, account: ACCOUNT_LAYOUT },
    states: STATE_NAMES,
    urls: { state: DASHBOARD_PATHS.state.slice(1), events: DASHBOARD_PATHS.events.slice(1) },
  };
  return pageHtml({ title: options.title, body, style: STYLE, charts: { data, script: readFileSync(SCRIPT, 'utf8'), variable: 'DASHBOARD' } });
}
