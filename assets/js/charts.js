// Draws every chart on the page from its figure JSON (a card page's from the charts.json beside it, a
// chart in a review's prose from the data block beside it), in the page's
// colours (light or dark, following the reader's system) and in the rate unit the reader picked
// (a figure carries its MiB/s variant as alt.mib: per-trace patches). A chart is drawn when it comes
// near the screen, so a page of many charts shows its first at once; its box already has its height,
// so nothing below it moves. No mode bar: it covered bars on touch screens and added tab stops.
// Exposes cardbenchCharts.plot, .later, .figuresTable and .chartBox for the comparison page.
(function () {
  'use strict';

  var LIGHT = ['#2563eb', '#c2570c', '#059669', '#7c3aed', '#db2777', '#0891b2', '#4d7c0f', '#a16207',
    '#dc2626', '#475569', '#0d9488', '#9333ea'];
  var DARK = ['#6ea8ff', '#f6a54c', '#34d399', '#c4a5ff', '#f472b6', '#22d3ee', '#a3e635', '#facc15',
    '#f87171', '#cbd5e1', '#2dd4bf', '#d8b4fe'];
  var darkQuery = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;

  function cssVar(name, fallback) {
    var value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    return value || fallback;
  }

  function theme() {
    var dark = !!(darkQuery && darkQuery.matches);
    return {
      dark: dark, palette: dark ? DARK : LIGHT, fg: cssVar('--fg', dark ? '#e5e7eb' : '#1f2937'),
      muted: cssVar('--muted', '#6b7280'), line: cssVar('--line', dark ? '#2d3a4d' : '#e2e6ec'),
      bg: cssVar('--bg', dark ? '#0f1623' : '#ffffff'), read: cssVar('--read', '#2563eb'), write: cssVar('--write', '#c2570c')
    };
  }

  function unit() {
    return window.cardbenchUnits ? window.cardbenchUnits.current() : 'mb';
  }

  function isObject(v) { return v && typeof v === 'object' && !Array.isArray(v); }

  // A copy of `base` with `patch` laid over it, objects merged key by key, arrays and values replaced.
  function merged(base, patch) {
    if (!isObject(base) || !isObject(patch)) return patch === undefined ? base : patch;
    var out = Object.assign({}, base);
    Object.keys(patch).forEach(function (key) { out[key] = merged(base[key], patch[key]); });
    return out;
  }

  // A legend name broken into lines of at most `room` characters (Plotly reads <br> in names), so a
  // long name fits a phone instead of running off the chart's edge.
  function wrapped(name, room) {
    if (typeof name !== 'string' || name.length <= room || name.indexOf('<br>') !== -1) return name;
    var lines = [], line = '';
    name.split(' ').forEach(function (word) {
      if (line && (line + ' ' + word).length > room) { lines.push(line); line = word; } else line = line ? line + ' ' + word : word;
    });
    if (line) lines.push(line);
    return lines.join('<br>');
  }

  // The figure as this reader sees it: in their unit, in the page's colours, fitted to the width.
  function styled(figure, width) {
    var t = theme();
    var narrow = width < 600;
    var alt = figure.alt && figure.alt[unit()];
    var data = (figure.data || []).map(function (trace, i) {
      var out = alt && alt.data && alt.data[i] ? merged(trace, alt.data[i]) : Object.assign({}, trace);
      var role = out.meta && out.meta.role;
      if (role === 'read' || role === 'write') {
        out.marker = merged(out.marker || {}, { color: role === 'read' ? t.read : t.write });
      } else if (role === 'runs') {
        out.marker = merged(out.marker || {}, { color: t.fg, line: { color: t.bg, width: 1 } });
      }
      if (narrow) {
        out.name = wrapped(out.name, Math.max(20, Math.floor((width - 60) / 6.5)));
        // Long category names (card titles) on lines of their own, so the bars keep most of the width.
        if (out.orientation === 'h' && Array.isArray(out.y)) {
          out.y = out.y.map(function (label) { return typeof label === 'string' ? wrapped(label, 18) : label; });
        }
      }
      if (out.error_x) out.error_x = merged(out.error_x, { color: t.fg });
      if (out.error_y) out.error_y = merged(out.error_y, { color: t.fg });
      return out;
    });
    var layout = merged(figure.layout || {}, alt && alt.layout ? alt.layout : {});
    layout = Object.assign({}, layout);
    layout.autosize = true;
    if (layout.width && layout.width > width) delete layout.width;
    layout.colorway = t.palette;
    layout.font = Object.assign({ family: 'system-ui, sans-serif', size: narrow ? 11 : 13 }, layout.font || {}, { color: t.fg });
    layout.margin = Object.assign({ t: 10, r: 16, b: 50, l: 10 }, layout.margin || {});
    var axis = { automargin: true, gridcolor: t.line, linecolor: t.muted, zerolinecolor: t.muted, tickcolor: t.muted };
    layout.xaxis = Object.assign({}, axis, layout.xaxis || {});
    layout.yaxis = Object.assign({}, axis, layout.yaxis || {});
    layout.paper_bgcolor = 'rgba(0,0,0,0)';
    layout.plot_bgcolor = 'rgba(0,0,0,0)';
    layout.hoverlabel = Object.assign({ font: { family: 'system-ui, sans-serif' } }, layout.hoverlabel || {});
    layout.legend = Object.assign({}, layout.legend || {}, { font: { color: t.fg } });
    if (narrow) {
      // Legend above the plot, one row per item if need be: Plotly widens the top margin for it.
      layout.margin.l = Math.min(layout.margin.l, 10);
      layout.margin.r = Math.min(layout.margin.r, 10);
      layout.legend = Object.assign(layout.legend, { orientation: 'h', x: 0, xanchor: 'left', y: 1.02, yanchor: 'bottom' });
    }
    return { data: data, layout: layout };
  }

  var drawn = [];  // charts on the page that have been drawn, redrawn on a change of unit or colours

  function plot(el, figure) {
    var width = el.clientWidth || 600;
    var view = styled(figure, width);
    var config = Object.assign({ responsive: true, displaylogo: false }, figure.config || {});
    config.responsive = true;
    config.displayModeBar = false;
    el.cardbenchFigure = figure;
    if (drawn.indexOf(el) === -1) drawn.push(el);
    return window.Plotly.react(el, view.data, view.layout, config).then(function () {
      el.setAttribute('data-drawn', 'true');
    });
  }

  function redrawAll() {
    drawn = drawn.filter(function (el) { return el.isConnected; });
    drawn.forEach(function (el) {
      try { plot(el, el.cardbenchFigure); } catch (err) { el.textContent = 'This chart could not be drawn: ' + err.message; }
    });
  }
  document.addEventListener('cardbench:unit', redrawAll);
  if (darkQuery) {
    if (darkQuery.addEventListener) darkQuery.addEventListener('change', redrawAll);
    else if (darkQuery.addListener) darkQuery.addListener(redrawAll);
  }

  // One chart per task: the first shows as soon as it is drawn, and the page stays responsive
  // while the others follow.
  var queue = [];
  var running = false;
  function drawNext() {
    var job = queue.shift();
    if (!job) { running = false; return; }
    if (job.el.isConnected) {
      try {
        plot(job.el, job.make());
      } catch (err) {
        job.el.textContent = 'This chart could not be drawn: ' + err.message;
      }
    }
    setTimeout(drawNext, 0);
  }
  function enqueue(el, make) {
    queue.push({ el: el, make: make });
    if (!running) { running = true; setTimeout(drawNext, 0); }
  }

  // Charts within two screens' height below the view are drawn (the summary tables above the first
  // chart of a card page take more than a screen); the rest wait until scrolled near.
  var waiting = typeof Map === 'function' ? new Map() : null;
  var observer = waiting && 'IntersectionObserver' in window ? new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) {
      if (!entry.isIntersecting || !waiting.has(entry.target)) return;
      observer.unobserve(entry.target);
      enqueue(entry.target, waiting.get(entry.target));
      waiting.delete(entry.target);
    });
  }, { rootMargin: '200% 0px' }) : null;

  // Draw `el` with the figure `make()` returns, once it is near the screen.
  function later(el, make) {
    if (!observer) { enqueue(el, make); return; }
    waiting.forEach(function (_, old) {  // charts a redraw removed before they were drawn
      if (!old.isConnected) { observer.unobserve(old); waiting.delete(old); }
    });
    waiting.set(el, make);
    observer.observe(el);
  }

  // Printing shows every chart: draw the ones still waiting, at once.
  window.addEventListener('beforeprint', function () {
    if (!observer) return;
    waiting.forEach(function (make, el) {
      observer.unobserve(el);
      try {
        if (el.isConnected) plot(el, make());
      } catch (err) {
        el.textContent = 'This chart could not be drawn: ' + err.message;
      }
    });
    waiting.clear();
  });

  // A copy of a piece of markup the page holds as a <template> (written by pages/templates/shared/: every page
  // writes a chart box or table from there); null on a page that holds none.
  function fromTemplate(selector) {
    var template = document.querySelector(selector);
    return template ? template.content.firstElementChild.cloneNode(true) : null;
  }

  // The empty table under a chart, labelled for the reader.
  function figuresTable(label) {
    var details = fromTemplate('template[data-figures-table]');
    if (details) details.querySelector('[role=region]').setAttribute('aria-label', label);
    return details;
  }

  // An empty chart box: its caption and its chart's place.
  function chartBox() { return fromTemplate('template[data-chart-box]'); }

  // The figures of a chart that came without a table of its own (one pasted into a review): a row per
  // category (or x value), a column per trace, in a closed <details> below the chart.
  function figureTable(figure, label) {
    var traces = (figure.data || []).filter(function (tr) { return Array.isArray(tr.x) && Array.isArray(tr.y); });
    if (!traces.length) return null;
    var keys = [], columns = traces.map(function (tr) {
      var across = tr.orientation === 'h' ? tr.y : tr.x, values = tr.orientation === 'h' ? tr.x : tr.y, map = {};
      across.forEach(function (k, i) {
        if (!(k in map)) map[k] = values[i];
        if (keys.indexOf(k) === -1) keys.push(k);
      });
      return map;
    });
    if (keys.length * traces.length > 5000) return null;
    var details = figuresTable(label);
    if (!details) return null;
    var table = details.querySelector('table');
    table.removeChild(table.querySelector('caption'));  // the chart's label names it
    var head = table.querySelector('thead tr');
    head.appendChild(document.createElement('td'));
    traces.forEach(function (tr, i) {
      var th = head.appendChild(document.createElement('th'));
      th.scope = 'col';
      th.className = 'num';
      th.textContent = tr.name === undefined ? 'Trace ' + (i + 1) : String(tr.name).replace(/<br>/g, ' ');
    });
    var body = table.querySelector('tbody');
    keys.forEach(function (k) {
      var row = body.appendChild(document.createElement('tr'));
      var th = row.appendChild(document.createElement('th'));
      th.scope = 'row';
      th.textContent = String(k);
      columns.forEach(function (map) {
        var td = row.appendChild(document.createElement('td'));
        td.className = 'num';
        td.textContent = map[k] === undefined || map[k] === null ? '' : String(map[k]);
      });
    });
    return details;
  }

  // One chart box: the table of a figure that came without one, then the chart, drawn when near the screen.
  function drawBox(box, figure) {
    var el = box.querySelector('.chart');
    if (!box.querySelector('details')) {
      try {
        var table = figureTable(figure(), 'The figures of ' + box.id);
        if (table) box.appendChild(table);
      } catch (err) { /* the chart itself reports a figure it cannot read */ }
    }
    later(el, figure);
  }

  function drawAll() {
    // A figure in the page itself (a chart pasted into a review).
    Array.prototype.forEach.call(document.querySelectorAll('.chart-box > script.chart-figure'), function (data) {
      if (!data.textContent.trim()) return;
      drawBox(data.parentNode, function () { return JSON.parse(data.textContent); });
    });
    // A card page's charts: their figures in one file beside the page (data-charts), asked for once.
    var boxes = document.querySelectorAll('[data-charts] .chart-box[data-figure]');
    if (!boxes.length) return;
    var source = new URL(document.querySelector('[data-charts]').getAttribute('data-charts'), document.baseURI);
    fetch(source, { credentials: 'same-origin' })
      .then(function (response) {
        if (!response.ok) throw new Error('HTTP ' + response.status);
        return response.json();
      })
      .then(function (figures) {
        Array.prototype.forEach.call(boxes, function (box) {
          var figure = Object.prototype.hasOwnProperty.call(figures, box.id) ? figures[box.id] : null;
          if (!figure) return;
          drawBox(box, function () { return JSON.parse(JSON.stringify(figure)); });  // Plotly keeps what it is given
        });
      })
      .catch(function (err) {
        Array.prototype.forEach.call(boxes, function (box) {
          box.querySelector('.chart').textContent = 'The chart could not be loaded (' + err.message + '); its figures are in the table.';
        });
      });
  }

  // Every string a figure brings is Plotly plain text already (scripts/cardbench/site/plottext.py).
  window.cardbenchCharts = { plot: plot, later: later, figuresTable: figuresTable, chartBox: chartBox };
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', drawAll);
  } else {
    drawAll();
  }
})();
