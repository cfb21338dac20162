// Sorts the leaderboard by a clicked column and filters it by search text, form factor, bus and brand.
(function () {
  'use strict';
  var table = document.getElementById('leaderboard-table');
  var form = document.getElementById('filters');
  if (!table || !form) return;
  var body = table.tBodies[0];
  var headers = table.tHead.rows[0].cells;

  function cellValue(row, index, kind) {
    var cell = row.cells[index];
    if (kind === 'num') {
      var v = parseFloat(cell.getAttribute('data-value'));
      return isNaN(v) ? null : v;
    }
    return cell.textContent.trim().toLowerCase();
  }

  Array.prototype.forEach.call(headers, function (th, index) {
    var kind = th.getAttribute('data-sort');
    if (!kind) return;
    th.tabIndex = 0;
    th.setAttribute('aria-sort', 'none');
    function sort() {
      var descending = th.getAttribute('aria-sort') !== 'descending';
      Array.prototype.forEach.call(headers, function (h) { if (h.hasAttribute('aria-sort')) h.setAttribute('aria-sort', 'none'); });
      th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = cellValue(a, index, kind), y = cellValue(b, index, kind);
        if (x === null && y === null) return 0;
        if (x === null) return 1;  // missing figures always last
        if (y === null) return -1;
        var order = x < y ? -1 : x > y ? 1 : 0;
        return descending ? -order : order;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    }
    th.addEventListener('click', sort);
    th.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sort(); } });
  });

  function applyFilters() {
    var q = form.elements.q.value.trim().toLowerCase();
    var wanted = { form_factor: form.elements.form_factor.value, bus: form.elements.bus.value, brand: form.elements.brand.value };
    Array.prototype.forEach.call(body.rows, function (row) {
      var show = (!q || row.cells[0].textContent.toLowerCase().indexOf(q) !== -1);
      Object.keys(wanted).forEach(function (key) {
        if (wanted[key] && row.getAttribute('data-' + key) !== wanted[key]) show = false;
      });
      row.hidden = !show;
    });
  }
  form.addEventListener('input', applyFilters);
  form.addEventListener('submit', function (e) { e.preventDefault(); });
})();
