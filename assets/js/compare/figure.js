// The Plotly figure of one test from the entries' bars and the page's chart frame, entries ranked fastest first.
import { frame } from './page.js';

// An entry's bar in one subtest; `view`: 'bars' (its measured subtests) or 'headline' (its headline figures).
export function barOf(entry, view, test, op) {
  var bars = entry[view];
  return bars && Object.prototype.hasOwnProperty.call(bars, test + ' ' + op) ? bars[test + ' ' + op] : null;
}

// Entries ranked by the first direction's mean (fastest first); those without it last.
export function ranked(entries, view, test, ops) {
  return entries.slice().sort(function (a, b) {
    for (var i = 0; i < ops.length; i++) {
      var x = barOf(a, view, test, ops[i]), y = barOf(b, view, test, ops[i]);
      if (x && !y) return -1;
      if (y && !x) return 1;
      if (x && y && x.x.mb !== y.x.mb) return x.x.mb > y.x.mb ? -1 : 1;
    }
    return 0;
  });
}

// "n=5" (runs behind the bar), or per direction when they differ: two runs never pass for ten.
function runsText(entry, view, test, ops) {
  var counts = ops.map(function (op) { var b = barOf(entry, view, test, op); return b && b.runs ? b.runs : null; });
  var known = counts.filter(function (n) { return n !== null; });
  if (!known.length) return '';
  if (known.every(function (n) { return n === known[0]; })) return 'n=' + known[0];
  return ops.map(function (op, i) { return counts[i] === null ? '' : op + ' n=' + counts[i]; })
    .filter(Boolean).join(', ');
}

// The figure of one test: per direction a trace of the entries' bars, its MiB/s values as alt.mib.
export function figure(entries, view, test, ops) {
  var seen = new Set();
  var labels = entries.map(function (e) {
    var label = seen.has(e.label) ? e.labelSlug : e.label;  // two cards of one title: the slug tells them apart
    seen.add(e.label);
    var n = runsText(e, view, test, ops);
    return n ? label + ' (' + n + ')' : label;
  });
  var data = [], alt = [];
  ops.forEach(function (op) {
    var bars = entries.map(function (e) { return barOf(e, view, test, op); });
    var ranged = bars.some(function (b) { return b && b.ranged; });
    var named = entries.filter(function (e) { return e.opNames[op]; })[0];
    function series(u) {
      var out = { x: bars.map(function (b) { return b ? b.x[u] : null; }),
        customdata: bars.map(function (b) { return b ? b.hover[u] : null; }),
        hovertemplate: frame.hover[ranged ? 'range' : 'basis'][u] };
      if (ranged) {
        out.error_x = Object.assign({}, frame.whisker, {
          array: bars.map(function (b) { return b && b.plus ? b.plus[u] : null; }),
          arrayminus: bars.map(function (b) { return b && b.minus ? b.minus[u] : null; }) });
      }
      return out;
    }
    data.push(Object.assign({ type: 'bar', orientation: 'h', name: named ? named.opNames[op] : '', y: labels,
      offsetgroup: op, meta: { role: op === 'read' || op === 'write' ? op : '' } }, series('mb')));
    alt.push(series('mib'));
  });
  var perCard = frame.card_px[Math.min(ops.length, frame.card_px.length - 1)];
  return { data: data, layout: Object.assign({}, frame.layout, { height: frame.frame_px + entries.length * perCard }),
    alt: { mib: { data: alt, layout: frame.alt_layout.mib } } };
}
