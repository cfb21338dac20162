// The table of every figure below a comparison chart, each cell in MB/s and MiB/s for the units switch.
import { base, charts, unit } from './page.js';
import { el } from './el.js';
import { barOf } from './figure.js';

// A cell's figure in both units, as written by cardbench aggregate; the shown one follows the units switch.
function rateSpan(bar, index) {
  var span = el('span');
  span.setAttribute('data-mb', bar.cells.mb[index]);
  span.setAttribute('data-mib', bar.cells.mib[index]);
  span.textContent = span.getAttribute(unit() === 'mib' ? 'data-mib' : 'data-mb');
  return span;
}

export function table(entries, view, tests, ops, caption, labelOf) {
  var details = charts.figuresTable(caption);  // the page's empty table under a chart (charts.js)
  var t = details.querySelector('table');
  var cap = t.querySelector('caption');
  cap.textContent = caption + ' ';
  var unitLabel = el('span', 'unit');
  unitLabel.setAttribute('data-mb', '(MB/s: mean, slowest–fastest)');
  unitLabel.setAttribute('data-mib', '(MiB/s: mean, slowest–fastest)');
  unitLabel.textContent = unitLabel.getAttribute(unit() === 'mib' ? 'data-mib' : 'data-mb');
  cap.appendChild(unitLabel);
  var head = t.querySelector('thead tr');
  var corner = el('th', '', 'Card');
  corner.scope = 'col';
  head.appendChild(corner);
  tests.forEach(function (test) {
    ops.forEach(function (op) {
      var th = el('th', 'num', labelOf(test) + ' ' + op);
      th.scope = 'col';
      head.appendChild(th);
    });
  });
  var body = t.querySelector('tbody');
  entries.forEach(function (entry) {
    var tr = body.appendChild(el('tr'));
    var th = el('th');
    th.scope = 'row';
    var a = el('a', '', entry.title);
    a.href = base + 'cards/' + encodeURIComponent(entry.slug) + '/';
    th.appendChild(a);
    tr.appendChild(th);
    tests.forEach(function (test) {
      ops.forEach(function (op) {
        var bar = barOf(entry, view, test, op);
        var td = el('td', 'num');
        if (!bar) { td.textContent = '–'; tr.appendChild(td); return; }
        td.appendChild(el('strong')).appendChild(rateSpan(bar, 0));
        if (bar.ranged) {
          td.appendChild(document.createTextNode(' '));
          var range = el('span', 'muted');
          range.appendChild(rateSpan(bar, 1));
          range.appendChild(document.createTextNode('–'));
          range.appendChild(rateSpan(bar, 2));
          td.appendChild(range);
        } else if (bar.basis) {
          td.appendChild(el('span', 'by', bar.basis));
        }
        tr.appendChild(td);
      });
    });
  });
  return details;
}
