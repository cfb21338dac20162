// Draws a set of entries: the chart of one test at a time (a menu picks it), its caption and the table below.
import { charts, frame } from './page.js';
import { el } from './el.js';
import { figure, ranked } from './figure.js';
import { table } from './table.js';

var chartCount = 0;
// One chart (a test at a time, chosen from a menu) and the table of every figure, in `container`.
// options: view ('bars' or 'headline'), labels (test → its name), testLabel, caption, note, sessions (token → labels).
export function drawSet(container, entries, tests, ops, options) {
  options = options || {};
  var view = options.view || 'bars';
  container.textContent = '';
  if (!entries.length || !tests.length) {
    container.appendChild(el('p', 'chart-note', entries.length ? 'These cards share no subtest measured in MB/s.' : 'No card chosen.'));
    return;
  }
  var labels = options.labels || {};
  function labelOf(test) { return Object.prototype.hasOwnProperty.call(labels, test) ? labels[test] : test; }
  var id = 'cmp-' + (++chartCount);
  var box = charts.chartBox();  // the page's empty chart box (charts.js)
  var cap = box.querySelector('figcaption');
  var chart = box.querySelector('.chart');
  var select = null;
  if (tests.length > 1) {
    var controls = el('div', 'suite-controls');
    var label = el('label', '', (options.testLabel || 'Subtest') + ' ');
    select = el('select');
    select.id = id + '-test';
    label.htmlFor = select.id;
    tests.forEach(function (test) { select.appendChild(el('option', '', labelOf(test))).value = test; });
    controls.appendChild(label);
    controls.appendChild(select);
    box.insertBefore(controls, chart);
  }
  if (options.note) box.appendChild(el('p', 'chart-note', options.note));
  var sessions = options.sessions || new Map();
  var pooledFrom = entries.filter(function (e) { return e.sessions || sessions.has(e.token); });
  if (pooledFrom.length) {
    var list = el('ul', 'chart-note pooled-from');
    list.setAttribute('aria-label', 'Sessions behind each card');
    pooledFrom.forEach(function (e) {
      list.appendChild(el('li', '', e.title + ': ' + (e.sessions || sessions.get(e.token)).join('; ')));
    });
    box.appendChild(el('p', 'chart-note', 'Sessions pooled into each bar:'));
    box.appendChild(list);
  }
  box.appendChild(table(entries, view, tests, ops, options.caption || 'Every subtest of every card', labelOf));
  container.appendChild(box);

  function draw() {
    var test = select ? select.value : tests[0];
    var fig = figure(ranked(entries, view, test, ops), view, test, ops);
    cap.textContent = labelOf(test) + ': ' + ops.join(' and ') + ', fastest ' + (ops[0] || '') + ' first' +
      ' (n: runs behind each bar)';
    chart.setAttribute('aria-label', cap.textContent + ' (bar: mean; whisker: slowest to fastest run). The figures are in the table below.');
    chart.style.height = fig.layout.height + 'px';  // the box keeps its place while Plotly draws
    chart.removeAttribute('data-drawn');
    charts.later(chart, function () { return fig; });
  }
  if (select) select.addEventListener('change', draw);
  draw();
}

// The tests and directions of the given subtest keys, in the order they first appear.
export function testsAndOps(entries, keys) {
  var tests = [], ops = [];
  keys.forEach(function (key) {
    var bar = entries.map(function (e) { return e.bars[key]; }).filter(Boolean)[0];
    if (tests.indexOf(bar.test) === -1) tests.push(bar.test);
    if (ops.indexOf(bar.op) === -1) ops.push(bar.op);
  });
  return { tests: tests, ops: ops };
}

// Cards measured with different tests share no subtest: compare their headline figures instead,
// naming the test behind each.
export function drawHeadlines(container, entries) {
  drawSet(container, entries, frame.headlines.tests, frame.headlines.ops, {
    view: 'headline', testLabel: 'Figure', caption: 'Headline figures of every card',
    note: 'These cards were measured with different tests, so they share no subtest. Shown: each card\'s ' +
      'headline means (the table names the test behind each) — a rough comparison only.'
  });
}
