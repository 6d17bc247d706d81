// The live dashboard in the browser: opens the daemon's event stream (`/dashboard/events`: a
// snapshot of everything held, then one message per sample), keeps each panel's series, and draws
// the charts and figures the embedded layout declares with the shared chart kit. Read-only: it
// sends nothing back. Every figure carries the /metrics series it shows (`data-metric`, a selector,
// or `sum(selector)` over a split counter) and its exact value (`data-value`); #live counts the
// samples received, so a test can wait for live updates and compare each figure with /metrics.
(function dashboard() {
  const config = window.DASHBOARD;
  const kit = window.AkiraCharts;
  const live = document.getElementById('live');
  let seq = 0;
  let samples = 0;
  let historySamples = 3600;
  /** id → the panel's model and elements. */
  let panels = new Map();

  const escape = (text) => String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
  const pad = (n) => String(n).padStart(2, '0');
  const clockTime = (ms) => {
    const d = new Date(ms);
    return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  };
  const selector = (name, labels) => {
    const names = Object.keys(labels).sort();
    return names.length === 0 ? name : `${name}{${names.map((l) => `${l}="${String(labels[l]).replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')}"`).join(',')}}`;
  };

  function newPanel(snapshot, layout, base, quote) {
    const panel = { id: snapshot.id, name: snapshot.name, labels: snapshot.labels, base, quote, layout, state: snapshot.state, times: [...snapshot.timesMs], columns: new Map(), events: [...snapshot.events], charts: new Map() };
    for (const column of snapshot.columns) panel.columns.set(column.key, { meta: column, values: [...column.values] });
    return panel;
  }

  // ── reading the layout's series out of a panel ───────────────────────────────────────────
  const matches = (meta, ref) => meta.name === ref.name && Object.entries(ref.labels ?? {}).every(([label, value]) => meta.labels[label] === value);

  const has = (panel, ref) => ref.needs === undefined || panel.state.features.includes(ref.needs);

  /**
   * The series a line or figure reads: [{ suffix, metric, labels, columns }], one per `each` value
   * (a value not known yet, an empty label, is left out), or one sum; none when the pair lacks
   * what the series needs.
   */
  function resolve(panel, ref) {
    if (!has(panel, ref)) return [];
    const found = [...panel.columns.values()].filter((column) => matches(column.meta, ref)).sort((a, b) => (a.meta.key < b.meta.key ? -1 : 1));
    if (ref.sum) {
      // Over every series of the panel's (its default labels) that has the ref's labels: none yet sums to 0.
      const labels = { ...panel.labels, ...ref.labels };
      return [{ suffix: '', metric: `sum(${selector(ref.name, labels)})`, labels, columns: found }];
    }
    if (found.length === 0) return [];
    if (ref.each !== undefined) {
      return found.filter((column) => ref.each.every((label) => (column.meta.labels[label] ?? '') !== '')).map((column) => ({ suffix: ref.each.map((label) => column.meta.labels[label] ?? '').join(' '), metric: column.meta.key, labels: column.meta.labels, columns: [column], isMetric: column.meta.isMetric }));
    }
    // One series: the one with exactly the ref's labels (and the panel's), so a series that adds a
    // label (markouts `against="reference"`) never stands in for the one without it.
    const own = { ...panel.labels, ...ref.labels };
    const exact = found.find((column) => Object.keys(column.meta.labels).every((label) => label in own));
    if (exact === undefined) return [];
    return [{ suffix: '', metric: exact.meta.key, labels: exact.meta.labels, columns: [exact], isMetric: exact.meta.isMetric }];
  }

  /** Values over time of a resolved series: one column's, or the sum of several (null where none has one). */
  function valuesOf(panel, series, line) {
    const length = panel.times.length;
    const scale = line?.scale ?? 1;
    const out = new Array(length);
    for (let i = 0; i < length; i++) {
      let sum = series.columns.length === 0 ? 0 : null;
      for (const column of series.columns) {
        const v = column.values[i];
        if (v !== null && v !== undefined) sum = (sum ?? 0) + v;
      }
      // A price gauge not set yet reads 0, a cap of 0 is none: a gap, not a plunge to zero.
      out[i] = sum === null || (line?.zeroIsNone && sum === 0) ? null : sum * scale;
    }
    return out;
  }

  // ── figures ──────────────────────────────────────────────────────────────────────────────
  const trim = (v, digits) => String(Number(v.toPrecision(digits)));
  function format(value, unit, panel, labels) {
    switch (unit) {
      case 'price': return `${trim(value, 8)} ${panel.quote ?? ''}`;
      case 'base': return `${trim(value, 6)} ${panel.base ?? ''}`;
      case 'quote': return `${trim(value, 6)} ${panel.quote ?? ''}`;
      case 'token': return `${trim(value, 8)} ${labels.token ?? ''}`;
      case 'bps': return `${value.toFixed(2)} bps`;
      case 'share': return `${(value * 100).toFixed(2)} %`;
      case 'ratio': return trim(value, 4);
      case 'flag': return value === 1 ? 'yes' : 'no';
      default: return String(value);
    }
  }

  function renderFigures(panel) {
    const groups = panel.layout.groups.map((group) => {
      const rows = group.figures.flatMap((figure) =>
        resolve(panel, figure).map((series) => {
          const values = valuesOf(panel, series);
          const value = values[values.length - 1];
          const label = escape(series.suffix === '' ? figure.label : `${figure.label} ${series.suffix}`);
          // A split series gone quiet (a state no pair is in now) has no row; a single one says so.
          if (value === null || value === undefined) return figure.each === undefined ? `<tr><th>${label}</th><td class="num">–</td></tr>` : '';
          return `<tr><th>${label}</th><td class="num" title="${escape(series.metric)}" data-metric="${escape(series.metric)}" data-value="${String(value)}">${escape(format(value, figure.unit, panel, series.labels))}</td></tr>`;
        }),
      );
      return rows.length === 0 ? '' : `<div><h3>${escape(group.title)}</h3><table>${rows.join('')}</table></div>`;
    });
    panel.figures.innerHTML = groups.join('');
  }

  // ── charts ───────────────────────────────────────────────────────────────────────────────
  const STYLES = { line: kit.line, dashed: kit.dashed, steps: kit.steps, dots: (label, color) => kit.dots(label, color, 6) };

  /** The state each marked event leads to. */
  const LEADS_TO = { pause: 'paused', resume: 'quoting', halt: 'halted' };

  function chartData(panel, spec) {
    const time = panel.times.map((ms) => ms / 1000);
    const lines = [];
    const data = [time];
    for (const line of spec.lines) {
      for (const series of resolve(panel, line)) {
        lines.push(STYLES[line.style](series.suffix === '' ? line.label : `${line.label} ${series.suffix}`, line.color));
        data.push(valuesOf(panel, series, line));
      }
    }
    const fills = spec.fills ? atSamples(panel.events, time, (event) => event.kind === 'fill') : [];
    if (fills.length > 0) {
      const buys = time.map(() => null);
      const sells = time.map(() => null);
      for (const { index, event } of fills) (event.side === 'buy' ? buys : sells)[index] = event.price;
      lines.push(kit.dots('our buys', '#1b7f3b', 8), kit.dots('our sells', '#b3261e', 8));
      data.push(buys, sells);
    }
    const marks = spec.marks ? atSamples(panel.events, time, (event) => LEADS_TO[event.kind] !== undefined).map(({ index, event }) => ({ index, timeMs: event.timeMs, kind: event.kind, state: LEADS_TO[event.kind], reason: event.reason })) : [];
    if (marks.length > 0) {
      // One point per sample that saw pauses, resumes or halts, at the state the last one led to;
      // the legend, hovered there, reads every reason of that second.
      const points = time.map(() => null);
      const reasons = time.map(() => null);
      for (const mark of marks) {
        points[mark.index] = config.states.indexOf(mark.state);
        reasons[mark.index] = reasons[mark.index] === null ? `${mark.kind}: ${mark.reason}` : `${reasons[mark.index]} · ${mark.kind}: ${mark.reason}`;
      }
      lines.push({ ...kit.dots('why', '#b3261e', 9), value: (u, v, si, index) => (index === null || index === undefined ? '–' : reasons[index] ?? '–') });
      data.push(points);
    }
    return { lines, data, marks };
  }

  /** The events `keep` takes within the chart's span (events in time order), each at the first sample at or after it (the samples are a second apart). */
  function atSamples(events, time, keep) {
    const found = [];
    if (time.length === 0) return found;
    let k = 0;
    for (const event of events) {
      if (!keep(event) || event.timeMs / 1000 < time[0]) continue;
      while (k < time.length - 1 && time[k] < event.timeMs / 1000) k++;
      found.push({ index: k, event });
    }
    return found;
  }

  function drawCharts(panel) {
    for (const spec of panel.layout.charts) {
      const { lines, data, marks } = chartData(panel, spec);
      const element = document.getElementById(`${panel.id}-${spec.id}`);
      // What the marks say, for a reader without a pointer (and the browser test).
      if (spec.marks) element.dataset.marks = JSON.stringify(marks.map(({ timeMs, kind, state, reason }) => ({ timeMs, kind, state, reason })));
      const held = panel.charts.get(spec.id);
      if (!has(panel, spec) || lines.length === 0 || data[0].length === 0) {
        element.hidden = true;
        continue;
      }
      element.hidden = false;
      const shape = lines.map((line) => line.label).join('|');
      if (held !== undefined && held.shape === shape) {
        held.chart.setData(data);
        continue;
      }
      // A series appeared (a first markout, a hedge): the chart is drawn anew with it.
      if (held !== undefined) {
        held.chart.destroy();
        delete element.dataset.drawn;
      }
      const width = Math.max(480, Math.floor(element.parentElement.clientWidth / Math.max(1, Math.floor(element.parentElement.clientWidth / 580))) - 20);
      const more = spec.states
        ? { width, height: 200, scaleY: { range: [-0.5, config.states.length - 0.5] }, axisY: { size: 80, splits: () => config.states.map((_, i) => i), values: (u, splits) => splits.map((i) => config.states[i] ?? '') } }
        : { width, height: 240 };
      const chart = kit.chart(element.id, spec.title, 'time', 'time (UTC)', spec.yLabel.replace('quote', panel.quote ?? 'quote').replace('base', panel.base ?? 'base'), lines, data, undefined, more);
      panel.charts.set(spec.id, { chart, shape });
    }
  }

  // ── events and state ─────────────────────────────────────────────────────────────────────
  function renderEvents(panel) {
    if (panel.eventsList === undefined) return;
    const rows = panel.events.slice(-100).reverse().map((event) => {
      const detail = event.kind === 'fill'
        ? `${event.side} ${trim(event.size, 6)} ${panel.base ?? ''} @ ${trim(event.price, 8)} · ${event.isMaker ? 'maker' : 'taker'} · fee ${trim(event.feeQuote, 4)} ${panel.quote ?? ''}`
        : event.reason;
      return `<tr data-kind="${event.kind}"><td>${clockTime(event.timeMs)}</td><td>${event.kind}</td><td>${escape(detail)}</td></tr>`;
    });
    const none = panel.id === 'account' ? 'The account has not halted.' : 'No fills, pauses or halts yet.';
    panel.eventsList.innerHTML = rows.length === 0 ? `<p class="muted">${none}</p>` : `<table class="grid"><thead><tr><th>time (UTC)</th><th>event</th><th></th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
  }

  function renderState(panel) {
    panel.stateBadge.dataset.state = panel.state.state;
    panel.stateBadge.textContent = panel.state.reason === null ? panel.state.state : `${panel.state.state}: ${panel.state.reason}`;
  }

  function renderPairsTable() {
    const account = panels.get('account');
    const rows = [...panels.values()].filter((panel) => panel.id !== 'account').map((panel) => `<tr><th>${escape(panel.name)}</th><td><span class="state" data-state="${escape(panel.state.state)}">${escape(panel.state.state)}</span></td><td>${escape(panel.state.reason ?? '')}</td></tr>`);
    account.pairsTable.innerHTML = `<h3>Pairs</h3><table>${rows.join('')}</table>`;
  }

  function render(panel) {
    renderState(panel);
    renderFigures(panel);
    drawCharts(panel);
    renderEvents(panel);
  }

  // ── building the page from a snapshot ─────────────────────────────────────────────────────
  function panelHtml(panel, withEvents) {
    return `<h2>${escape(panel.name === 'account' ? 'Account' : panel.name)}<span class="state"></span></h2>
<div class="figures"></div>${panel.id === 'account' ? '<div class="pairs-table"></div>' : ''}
<div class="charts">${panel.layout.charts.map((spec) => `<div class="chart" id="${panel.id}-${spec.id}" hidden></div>`).join('')}</div>
${withEvents ? '<h3>Events</h3><div class="events"></div>' : ''}`;
  }

  function attach(panel, element, withEvents) {
    element.innerHTML = panelHtml(panel, withEvents);
    panel.stateBadge = element.querySelector('.state');
    panel.figures = element.querySelector('.figures');
    panel.eventsList = withEvents ? element.querySelector('.events') : undefined;
    panel.pairsTable = element.querySelector('.pairs-table') ?? undefined;
  }

  function onSnapshot(snapshot) {
    for (const panel of panels.values()) for (const held of panel.charts.values()) held.chart.destroy();
    panels = new Map();
    seq = snapshot.seq;
    historySamples = snapshot.historySamples;
    const account = newPanel(snapshot.account, config.layout.account);
    attach(account, document.getElementById('account'), true);
    panels.set('account', account);
    const container = document.getElementById('pairs');
    container.innerHTML = snapshot.pairs.map((pair) => `<section class="panel" id="${pair.id}" data-pair="${escape(pair.name)}"></section>`).join('');
    for (const pair of snapshot.pairs) {
      const panel = newPanel(pair, config.layout.pair, pair.base, pair.quote);
      attach(panel, document.getElementById(pair.id), true);
      panels.set(pair.id, panel);
    }
    for (const panel of panels.values()) render(panel);
    renderPairsTable();
    showLive(snapshot.nowMs);
  }

  function applyPart(panel, part, timeMs) {
    const before = panel.times.length;
    panel.times.push(timeMs);
    for (const meta of part.columns) {
      if (!panel.columns.has(meta.key)) panel.columns.set(meta.key, { meta, values: new Array(before).fill(null) });
    }
    for (const [key, column] of panel.columns) column.values.push(part.values[key] ?? null);
    const lastId = panel.events.length === 0 ? 0 : panel.events[panel.events.length - 1].id;
    for (const event of part.events) if (event.id > lastId) panel.events.push(event);
    if (panel.events.length > 1000) panel.events.splice(0, panel.events.length - 1000);
    const extra = panel.times.length - historySamples;
    if (extra > 0) {
      panel.times.splice(0, extra);
      for (const column of panel.columns.values()) column.values.splice(0, extra);
    }
    panel.state = part.state;
  }

  function onSample(message) {
    if (message.seq <= seq) return;
    seq = message.seq;
    samples += 1;
    applyPart(panels.get('account'), message.account, message.timeMs);
    message.pairs.forEach((part, i) => applyPart(panels.get(`p${i}`), part, message.timeMs));
    for (const panel of panels.values()) render(panel);
    renderPairsTable();
    showLive(message.timeMs);
  }

  function showLive(timeMs) {
    live.dataset.connected = 'true';
    live.dataset.samples = String(samples);
    live.dataset.seq = String(seq);
    live.dataset.sampleMs = String(timeMs);
    live.textContent = `live · sample ${seq} at ${clockTime(timeMs)} UTC · ${samples} received`;
  }

  const source = new window.EventSource(config.urls.events);
  source.addEventListener('snapshot', (event) => onSnapshot(JSON.parse(event.data)));
  source.addEventListener('sample', (event) => onSample(JSON.parse(event.data)));
  source.addEventListener('error', () => {
    live.dataset.connected = 'false';
    live.textContent = 'disconnected: reconnecting…';
  });
})();
