// The report's charts, drawn with the shared chart kit (src/html/chart-kit.client.js) and uPlot,
// both inlined by the page shell, no network. Reads the run's data from `window.REPORT` and draws
// into the page's chart slots. Times are simulated exchange times in UTC.
(function drawReport() {
  const report = window.REPORT;
  const { chart, line, dots, dashed } = window.AkiraCharts;
  const { units } = report;

  // Fills as points on the price chart, at the sample they fall in (the path is sampled every `sampleMs`).
  const buys = report.time.map(() => null);
  const sells = report.time.map(() => null);
  let k = 0;
  report.fills.time.forEach((t, i) => {
    while (k < report.time.length - 1 && report.time[k] < t) k++;
    (report.fills.side[i] === 'buy' ? buys : sells)[k] = report.fills.price[i];
  });
  const referenceSeries = report.reference === null ? [] : [dashed('reference fair', '#6a4c93')];
  const referenceData = report.reference === null ? [] : [report.reference.fair];
  chart('price', 'Mid, the touch, our best quotes and fills', 'time', 'time (UTC)', `price (${units.quote})`, [
    line('mid', '#444'),
    line('best bid', '#9fd8cf', { width: 1 }),
    line('best ask', '#f4b8a6', { width: 1 }),
    line('our bid', '#2a9d8f'),
    line('our ask', '#e76f51'),
    dots('buy fill', '#1b7f3b', 8),
    dots('sell fill', '#b3261e', 8),
    ...referenceSeries,
  ], [report.time, report.mid, report.bestBid, report.bestAsk, report.bid, report.ask, buys, sells, ...referenceData]);
  if (report.model !== null) {
    const m = report.model;
    chart('model-bps', 'The model: half spread, centre against fair, σ per √s', 'time', 'time (UTC)', 'bps', [line('half spread', '#e76f51'), line('skew', '#2a9d8f'), line('σ per √s', '#444')], [report.time, m.halfSpreadBps, m.skewBps, m.sigmaBps]);
    chart('model-arrival', 'The model\'s arrivals: k, A and the fit\'s weight', 'time', 'time (UTC)', 'k (per bp), A (per s), weight', [line('k per bp', '#6a4c93'), line('A per s', '#1b7f3b'), dashed('fit weight', '#999')], [report.time, m.kPerBps, m.a, m.fitWeight]);
  }
  if (report.reference !== null) {
    chart('basis', 'Basis of the reference: venue / reference − 1', 'time', 'time (UTC)', 'basis (bps)', [line('basis', '#6a4c93')], [report.time, report.reference.basisBps]);
  }

  const parts = report.components;
  const pnlSeries = [line('total', '#222', { width: 2 })];
  const pnlData = [report.time, report.pnl];
  if (parts !== null) {
    const colors = { spread: '#2a9d8f', inventory: '#6a4c93', fees: '#e76f51', gas: '#f4a261', hedge: '#264653' };
    for (const name of Object.keys(parts)) {
      pnlSeries.push(line(name, colors[name] ?? '#888'));
      pnlData.push(parts[name]);
    }
  }
  chart('pnl', 'Cumulative PnL by component', 'time', 'time (UTC)', `PnL (${units.quote})`, pnlSeries, pnlData);

  const capSeries = report.cap === null ? [] : [dashed(`cap +${report.cap}`, '#b3261e'), dashed(`cap −${report.cap}`, '#b3261e')];
  const capData = report.cap === null ? [] : [report.time.map(() => report.cap), report.time.map(() => -report.cap)];
  chart('inventory', 'Inventory (change from start) and the inventory cap', 'time', 'time (UTC)', `inventory (${units.base})`,
    [line('inventory', '#264653'), ...capSeries], [report.time, report.inventory, ...capData]);

  chart('distance', 'Distance of our best quotes from the touch (0 = at the best price)', 'time', 'time (UTC)', 'bps behind the touch', [
    line('bid', '#2a9d8f'),
    line('ask', '#e76f51'),
  ], [report.time, report.distance.bid, report.distance.ask]);

  if (report.fills.time.length > 0) {
    chart('markouts', 'Fill markouts against fill time (positive = the fill earned)', 'time', 'fill time (UTC)', 'markout (bps)', [
      dots('+1 s', '#8ecae6', 6),
      dots('+10 s', '#219ebc', 6),
      dots('+60 s', '#023047', 6),
    ], [report.fills.time, report.fills.markout1s, report.fills.markout10s, report.fills.markout60s], [report.startSeconds, report.endSeconds]);
    // Bars as wide as their bins (uPlot sizes a bar from the gap between x values, which is the
    // bin width), on an x axis from the first bin's low edge to the last bin's high edge, so the
    // last bar (the one holding the largest markout) is drawn whole.
    const { centers, counts, binWidth } = report.histogram;
    const bars = uPlot.paths.bars({ size: [1, Infinity], gap: 1 });
    chart('histogram', 'Distribution of 10 s markouts', 'bps', 'markout after 10 s (bps)', 'fills', [
      { label: 'fills', stroke: '#219ebc', fill: '#219ebc88', paths: bars, points: { show: false } },
    ], [centers, counts], centers.length === 0 ? undefined : [centers[0] - binWidth / 2, centers[centers.length - 1] + binWidth / 2], {
      // Counts from 0, so bar heights compare.
      scaleY: { range: (u, min, max) => [0, Math.max(1, max) * 1.05] },
    });
    const curve = report.markoutCurve;
    if (curve !== null) {
      const band = 'rgba(33,158,188,0.18)';
      chart('markout-curve', 'Mean markout against horizon, with its 95 % interval (block bootstrap)', 'seconds', 'horizon after the fill (s, log scale)', 'mean markout (bps)', [
        line('mean markout', '#023047', { width: 2, points: { show: true, size: 6 } }),
        line('95 % low', '#219ebc', { width: 1, dash: [4, 3] }),
        line('95 % high', '#219ebc', { width: 1, dash: [4, 3] }),
      ], [curve.seconds, curve.bps, curve.low, curve.high], undefined, { scaleX: { distr: 3, log: 10 }, bands: [{ series: [3, 2], fill: band }] });
    }
  }
})();
