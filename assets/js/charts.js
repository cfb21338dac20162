// Draws every chart on the page from the figure JSON in its data-figure attribute, with defaults
// that keep charts readable on a phone. Exposes cardbenchCharts.plot for the comparison page.
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

  // One chart per task, in page order: the first shows as soon as it is drawn, and the page stays
  // responsive while the others follow.
  function drawAll() {
    var charts = document.querySelectorAll('.chart[data-figure]');
    var i = 0;
    function next() {
      if (i >= charts.length) return;
      var el = charts[i++];
      try {
        plot(el, JSON.parse(el.getAttribute('data-figure')));
      } catch (err) {
        el.textContent = 'This chart could not be drawn: ' + err.message;
      }
      setTimeout(next, 0);
    }
    next();
  }

  // Plotly reads a few HTML-like tags in labels; user text is escaped so it stays text.
  function plainText(value) {
    return String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  }

  window.cardbenchCharts = { plot: plot, plainText: plainText };
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', drawAll);
  } else {
    drawAll();
  }
})();
