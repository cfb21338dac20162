// Draws every chart on the page from the figure JSON in the data block beside it, with defaults
// that keep charts readable on a phone. A chart is drawn when it comes near the screen, so a page
// of many charts shows its first at once and stays responsive. Exposes cardbenchCharts.plot,
// .later and .plainText for the comparison page.
(function () {
  'use strict';

  var PALETTE = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#4d7c0f',
    '#a16207', '#ea580c', '#0d9488', '#64748b'];

  function plot(el, figure) {
    var width = el.clientWidth || 600;
    var narrow = width < 600;
    var layout = Object.assign({}, figure.layout || {});
    layout.autosize = true;
    if (layout.width && layout.width > width) delete layout.width;
    layout.colorway = layout.colorway || PALETTE;
    layout.font = Object.assign({ family: 'system-ui, sans-serif', size: narrow ? 11 : 13 }, layout.font || {});
    layout.margin = Object.assign({ t: 10, r: 16, b: 50, l: 10 }, layout.margin || {});
    layout.yaxis = Object.assign({ automargin: true }, layout.yaxis || {});
    layout.xaxis = Object.assign({ automargin: true }, layout.xaxis || {});
    layout.paper_bgcolor = 'rgba(0,0,0,0)';
    layout.plot_bgcolor = 'rgba(0,0,0,0)';
    if (narrow) {
      layout.margin.l = Math.min(layout.margin.l, 10);
      layout.legend = Object.assign({}, layout.legend || {}, { orientation: 'h', x: 0, y: -0.12, yanchor: 'top' });
      layout.margin.b = Math.max(layout.margin.b, 40);
    }
    var config = Object.assign({ responsive: true, displaylogo: false }, figure.config || {});
    config.responsive = true;
    return window.Plotly.newPlot(el, figure.data || [], layout, config).then(function () {
      el.setAttribute('data-drawn', 'true');
    });
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

  // Charts within a screen's height of the view are drawn; the rest wait until scrolled near.
  var waiting = typeof Map === 'function' ? new Map() : null;
  var observer = waiting && 'IntersectionObserver' in window ? new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) {
      if (!entry.isIntersecting || !waiting.has(entry.target)) return;
      observer.unobserve(entry.target);
      enqueue(entry.target, waiting.get(entry.target));
      waiting.delete(entry.target);
    });
  }, { rootMargin: '100% 0px' }) : null;

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

  function drawAll() {
    Array.prototype.forEach.call(document.querySelectorAll('.chart-box > script.chart-figure'), function (data) {
      var el = data.parentNode.querySelector('.chart');
      if (data.textContent.trim()) later(el, function () { return JSON.parse(data.textContent); });
    });
  }

  // Plotly reads a few HTML-like tags in labels; user text is escaped so it stays text.
  function plainText(value) {
    return String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  }

  window.cardbenchCharts = { plot: plot, later: later, plainText: plainText };
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', drawAll);
  } else {
    drawAll();
  }
})();
