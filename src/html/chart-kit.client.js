// The charts every page of ours draws, run in the browser with uPlot (both inlined by page.ts, no
// network): the backtest report draws once, the live dashboard redraws as samples arrive. Times
// are UTC. After every draw a chart writes what it drew onto its element (points, x range and
// kind, the x-axis labels, y range), and <body> counts the charts expected and drawn, so a
// headless browser test checks that each chart holds data and sane axes without reading pixels.
(function chartKit() {
  const pad = (n) => String(n).padStart(2, '0');
  const utc = (seconds) => new Date(seconds * 1000);
  /** Axis labels for a span of time: seconds shown under 3 h, the date past 2 days. */
  const timeLabel = (spanSeconds) => (seconds) => {
    const d = utc(seconds);
    const hm = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
    if (spanSeconds > 2 * 86400) return `${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${hm}`;
    return spanSeconds > 3 * 3600 ? hm : `${hm}:${pad(d.getUTCSeconds())}`;
  };
  let drawn = 0;
  let expected = 0;

  const count = (series) => series.reduce((sum, values) => sum + values.filter((v) => v !== null && v !== undefined && Number.isFinite(v)).length, 0);

  /** Index of the last drawable value of each series (x included), so the legend can show it. */
  const lastIndexes = (data) =>
    data.map((values) => {
      for (let i = values.length - 1; i >= 0; i--) if (values[i] !== null && values[i] !== undefined && Number.isFinite(values[i])) return i;
      return null;
    });

  /**
   * Draws one chart into #id and returns its uPlot (undefined without the element); `kind` is
   * 'time' (x in epoch seconds) or a unit name for other x axes. `xRange` fixes the x axis (a
   * run's span, for fills that may be few or one). `more` overrides the width and height, adds to
   * the x scale (`scaleX`: a log scale), the y scale and axis (`scaleY`, `axisY`), and shades
   * between two series (`bands`). `setData` on the returned chart redraws it, and its element's
   * figures follow. The legend shows each series' last value whenever the mouse is not over the
   * chart, so a printed or screenshotted page carries values (uPlot shows "--" there by default).
   */
  function chart(id, title, kind, xLabel, yLabel, series, data, xRange, more) {
    const element = document.getElementById(id);
    if (element === null) return undefined;
    expected += 1;
    document.body.dataset.chartsExpected = String(expected);
    const spanOf = (x) => (xRange !== undefined ? xRange[1] - xRange[0] : x.length > 0 ? x[x.length - 1] - x[0] : 0);
    // A log axis leaves some splits unlabelled (null).
    let format = kind === 'time' ? timeLabel(spanOf(data[0])) : (v) => (v === null || v === undefined ? '' : String(Number(v.toPrecision(6))));
    let labels = [];
    const opts = {
      width: more?.width ?? Math.max(640, Math.min(1200, window.innerWidth - 64)),
      height: more?.height ?? 280,
      title,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      scales: { x: { time: kind === 'time', ...(xRange === undefined ? {} : { range: () => xRange }), ...more?.scaleX }, ...(more?.scaleY === undefined ? {} : { y: more.scaleY }) },
      ...(more?.bands === undefined ? {} : { bands: more.bands }),
      series: [{ label: kind === 'time' ? 'time (UTC)' : xLabel, value: (u, v) => (v === null ? '–' : format(v)) }, ...series],
      axes: [
        // A time label is up to 11 characters ("MM-DD hh:mm", "hh:mm:ss"), wider than the
        // uPlot default spacing allows for, so its ticks keep 80 px apart and never overlap.
        { label: xLabel, values: (u, splits) => (labels = splits.map(format)), ...(kind === 'time' ? { space: 80 } : {}) },
        { label: yLabel, size: 70, ...more?.axisY },
      ],
      hooks: {
        // Before the axes are laid out, so a live chart's labels follow its growing span.
        setData: [(u) => kind === 'time' && (format = timeLabel(spanOf(u.data[0])))],
        setLegend: [
          (u) => {
            if (u.legend.idx === null || u.legend.idx === undefined) u.setLegend({ idxs: lastIndexes(u.data) }, false);
            element.dataset.legend = JSON.stringify(u.legend.values.slice(1).map((values) => (values === null || values === undefined ? null : values._ ?? null)));
          },
        ],
        // After each draw, so the axis labels are the ones on screen.
        draw: [
          (u) => {
            const x = u.data[0];
            const y = u.scales.y;
            element.dataset.points = String(count(u.data.slice(1)));
            element.dataset.xKind = kind;
            element.dataset.xMin = String(x[0] ?? '');
            element.dataset.xMax = String(x[x.length - 1] ?? '');
            element.dataset.xLabels = JSON.stringify(labels);
            element.dataset.yMin = String(y.min);
            element.dataset.yMax = String(y.max);
            element.dataset.bands = String(more?.bands?.length ?? 0);
            element.dataset.scaleXMin = String(u.scales.x.min);
            element.dataset.scaleXMax = String(u.scales.x.max);
            if (element.dataset.drawn === undefined) {
              element.dataset.drawn = 'true';
              drawn += 1;
              document.body.dataset.chartsDrawn = String(drawn);
            }
          },
        ],
      },
    };
    return new uPlot(opts, data, element);
  }

  const line = (label, stroke, more) => ({ label, stroke, width: 1.5, spanGaps: false, ...more });
  const dots = (label, color, size) => ({ label, stroke: color, width: 0, paths: () => null, points: { show: true, size, fill: color } });
  const dashed = (label, stroke) => line(label, stroke, { dash: [6, 4], width: 1 });
  const steps = (label, stroke) => line(label, stroke, { paths: uPlot.paths.stepped({ align: 1 }) });

  window.AkiraCharts = { chart, line, dots, dashed, steps, timeLabel };
})();
