// Leaderboard: sort by a column, filter by search text, form factor, bus, brand, host and reader (a card
// matches a host or reader when any of its sessions used it: data-hosts, data-readers). The state is kept
// in the address (?q=…&bus=…&sort=seq_write&dir=asc), so a filtered view can be shared; the count of
// shown cards is announced, and an empty result says so. Search ignores case and spaces ("1TB" finds
// "1 TB"). Each figure gets a bar against the fastest card in its column, on a log scale. A figure the source only
// stated (data-stated, no runs recorded) sorts after every measured one in either direction, as the page ranks it.
// The matching rows show a page at a time (the table's data-page-size; a "Show more" button under it reveals the
// next page, and any new filter or sort starts again at the first page), so a keystroke lays out one page of rows
// however many cards there are. Sorting and filtering work on an array of each row's facts: a change hides, shows
// or moves only the rows entering or leaving the shown page, which always lead the table body in their order.
// Without scripts every row shows.
(function () {
  'use strict';
  var table = document.getElementById('leaderboard-table');
  var form = document.getElementById('filters');
  if (!table || !form) return;
  var body = table.tBodies[0];
  var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
  var count = document.getElementById('result-count');
  var none = document.getElementById('no-matches');
  var more = document.getElementById('show-more');
  var total = body.rows.length;
  var FILTERS = ['form_factor', 'bus', 'brand'];
  var PATH_FILTERS = { host: 'data-hosts', reader: 'data-readers' };
  var ALL_FILTERS = FILTERS.concat(Object.keys(PATH_FILTERS));
  var DEFAULT_SORT = { key: 'seq_read', dir: 'desc' };
  var sortState = { key: DEFAULT_SORT.key, dir: DEFAULT_SORT.dir };

  function squash(text) {
    return String(text || '').toLowerCase().replace(/\s+/g, '');
  }

  function isStated(row, index) {
    return row.cells[index].hasAttribute('data-stated');
  }

  function cellValue(row, index, kind) {
    var cell = row.cells[index];
    if (kind === 'num') {
      var v = parseFloat(cell.getAttribute('data-value'));
      return isNaN(v) ? null : v;
    }
    return cell.textContent.trim().toLowerCase();
  }

  // Bars on a log scale (drawn by CSS from --share): the full bar is the column's largest figure, an
  // empty one a thousandth of it, so a 20 MB/s card and a 900 MB/s one both show (a linear bar would
  // leave UHS-I cards a sliver beside SD Express); each tenth less takes a third of the bar off.
  var DECADES = 3;
  function logShare(value, top) {
    if (!(value > 0) || !(top > 0)) return 0;
    var share = 1 + Math.log10(value / top) / DECADES;
    return Math.max(0.02, Math.min(1, share));
  }
  function drawBars() {
    headers.forEach(function (th, index) {
      var cells = Array.prototype.map.call(body.rows, function (row) { return row.cells[index]; })
        .filter(function (cell) { return cell && cell.classList.contains('bar'); });
      if (!cells.length) return;
      var top = Math.max.apply(null, cells.map(function (c) { return parseFloat(c.getAttribute('data-value')) || 0; }));
      cells.forEach(function (c) {
        var v = parseFloat(c.getAttribute('data-value')) || 0;
        c.style.setProperty('--share', logShare(v, top).toFixed(4));
      });
    });
  }

  // The hosts or readers a row's card was measured through (a JSON list in the attribute).
  function usedPaths(row, attribute) {
    try { return JSON.parse(row.getAttribute(attribute) || '[]') || []; } catch (e) { return []; }
  }

  // What the filters compare, read from each row once: a keystroke then only compares strings.
  var facts = Array.prototype.map.call(body.rows, function (row, at) {
    var fact = { row: row, at: at, search: squash(row.getAttribute('data-search')), keep: false };
    FILTERS.forEach(function (key) { fact[key] = row.getAttribute('data-' + key); });
    Object.keys(PATH_FILTERS).forEach(function (key) { fact[key] = usedPaths(row, PATH_FILTERS[key]); });
    return fact;
  });
  var order = facts.slice();  // every row in the sorted order; the page ranks them by sequential read
  var matching = order;       // the rows the filters leave, in that order
  var shownFacts = facts.slice();  // the rows shown now (every row until the first update)
  var pageSize = parseInt(table.getAttribute('data-page-size'), 10) || Infinity;
  var limit = pageSize;

  // A column's sort keys, read from its cells once (a comparison then reads no DOM).
  var columnKeys = {};
  function keysOf(index, kind) {
    if (!columnKeys[index]) {
      columnKeys[index] = facts.map(function (fact) {
        return { value: cellValue(fact.row, index, kind), stated: isStated(fact.row, index) };
      });
    }
    return columnKeys[index];
  }

  function sortBy(key, dir) {
    var index = -1;
    headers.forEach(function (th, i) {
      if (th.getAttribute('data-key') === key) index = i;
      if (th.hasAttribute('aria-sort')) th.setAttribute('aria-sort', 'none');
    });
    if (index === -1) return;
    var th = headers[index];
    var keys = keysOf(index, th.getAttribute('data-sort'));
    th.setAttribute('aria-sort', dir === 'asc' ? 'ascending' : 'descending');
    sortState = { key: key, dir: dir };
    // Ties keep the order the rows had before (a stable sort over their positions in it).
    var keyed = order.map(function (fact, position) {
      var k = keys[fact.at];
      return { fact: fact, value: k.value, stated: k.stated, position: position };
    });
    keyed.sort(function (a, b) {
      var x = a.value, y = b.value;
      if (x === null || y === null) return x === y ? a.position - b.position : x === null ? 1 : -1;  // missing last
      if (a.stated !== b.stated) return a.stated ? 1 : -1;  // stated figures after measured ones
      var comparison = x < y ? -1 : x > y ? 1 : 0;
      return (dir === 'asc' ? comparison : -comparison) || a.position - b.position;
    });
    order = keyed.map(function (k) { return k.fact; });
  }

  function wantedNow() {
    var wanted = { q: squash(form.elements.q.value) };
    ALL_FILTERS.forEach(function (key) { wanted[key] = form.elements[key].value; });
    return wanted;
  }

  function matches(fact, wanted) {
    if (wanted.q && fact.search.indexOf(wanted.q) === -1) return false;
    for (var i = 0; i < FILTERS.length; i += 1) {
      if (wanted[FILTERS[i]] && fact[FILTERS[i]] !== wanted[FILTERS[i]]) return false;
    }
    for (var key in PATH_FILTERS) {
      if (wanted[key] && fact[key].indexOf(wanted[key]) === -1) return false;
    }
    return true;
  }

  function number(n) {
    return n.toLocaleString('en');
  }

  // The first `limit` matching rows shown, in order, at the top of the table body; every other row hidden.
  // Only rows that enter or leave the page, or stand out of place, are touched.
  function showPage() {
    var next = matching.slice(0, limit);
    next.forEach(function (fact) { fact.keep = true; });
    shownFacts.forEach(function (fact) {
      if (fact.keep) return;
      fact.row.hidden = true;
      if (picking) picking.leave(fact);
    });
    var previous = null;
    next.forEach(function (fact) {
      var expected = previous ? previous.nextElementSibling : body.firstElementChild;
      if (fact.row !== expected) body.insertBefore(fact.row, expected);
      if (fact.row.hidden) fact.row.hidden = false;
      if (picking) picking.enter(fact);
      fact.keep = false;
      previous = fact.row;
    });
    shownFacts = next;
    var shown = next.length, found = matching.length;
    var ranking = sortState.key === DEFAULT_SORT.key && sortState.dir === DEFAULT_SORT.dir
      ? ', fastest sequential read first' : '';
    count.textContent = found === 0 ? 'No card matches.'
      : shown < found && found === total
        ? 'Showing ' + number(shown) + ' of all ' + number(total) + ' cards' + ranking + '.'
      : shown < found ? 'Showing ' + number(shown) + ' of ' + number(found) + ' matching cards (' + number(total)
        + ' in all)' + ranking + '.'
      : found === total ? 'Showing all ' + number(total) + ' cards' + ranking + '.'
      : 'Showing ' + number(found) + ' of ' + number(total) + ' cards' + ranking + '.';
    none.hidden = found !== 0;
    if (more) {
      var left = found - shown;
      more.hidden = left <= 0;
      more.textContent = left > pageSize ? 'Show ' + number(pageSize) + ' more' : 'Show the remaining ' + number(left);
    }
  }

  // A new filter or sort: the matching rows again, from the first page.
  function applyFilters() {
    var wanted = wantedNow();
    matching = order.filter(function (fact) { return matches(fact, wanted); });
    limit = pageSize;
    showPage();
  }

  // The next page of the same matches; focus moves to the first card it reveals, so the keyboard carries on there.
  if (more) {
    more.addEventListener('click', function () {
      var first = matching[limit];
      limit += pageSize;
      showPage();
      var link = first && first.row.cells[0].querySelector('a');
      if (link) link.focus();
    });
  }

  // The address holds every choice that differs from the default view.
  function saveState() {
    var url = new URL(window.location.href);
    var q = form.elements.q.value.trim();
    if (q) url.searchParams.set('q', q); else url.searchParams.delete('q');
    ALL_FILTERS.forEach(function (key) {
      var v = form.elements[key].value;
      if (v) url.searchParams.set(key, v); else url.searchParams.delete(key);
    });
    var isDefault = sortState.key === DEFAULT_SORT.key && sortState.dir === DEFAULT_SORT.dir;
    if (isDefault) { url.searchParams.delete('sort'); url.searchParams.delete('dir'); } else {
      url.searchParams.set('sort', sortState.key);
      url.searchParams.set('dir', sortState.dir);
    }
    window.history.replaceState(window.history.state, '', url);
  }

  function loadState() {
    var params = new URLSearchParams(window.location.search);
    form.elements.q.value = params.get('q') || '';
    ALL_FILTERS.forEach(function (key) {
      var v = params.get(key) || '';
      var select = form.elements[key];
      var known = Array.prototype.some.call(select.options, function (o) { return o.value === v; });
      select.value = known ? v : '';
    });
    var key = params.get('sort') || DEFAULT_SORT.key;
    var dir = params.get('dir') === 'asc' ? 'asc' : params.get('dir') === 'desc' ? 'desc' : DEFAULT_SORT.dir;
    if (key !== DEFAULT_SORT.key || dir !== DEFAULT_SORT.dir) sortBy(key, dir); else sortState = { key: key, dir: dir };
  }

  headers.forEach(function (th) {
    var button = th.querySelector('button');
    if (!button || !th.getAttribute('data-sort')) return;
    button.addEventListener('click', function () {
      var key = th.getAttribute('data-key');
      // Figures sort fastest first on the first click, text A to Z; a second click reverses.
      var first = th.getAttribute('data-sort') === 'num' ? 'desc' : 'asc';
      var dir = sortState.key === key ? (sortState.dir === 'asc' ? 'desc' : 'asc') : first;
      sortBy(key, dir);
      applyFilters();
      saveState();
    });
  });
  form.addEventListener('input', function () { applyFilters(); saveState(); });
  form.addEventListener('change', function () { applyFilters(); saveState(); });
  form.addEventListener('reset', function () { setTimeout(function () { applyFilters(); saveState(); }, 0); });
  form.addEventListener('submit', function (e) { e.preventDefault(); });

  // Picking cards to compare: a labelled checkbox in each shown row (added here, so a page without scripts
  // shows no dead controls), and a button that opens the comparison page with the picked cards in the order
  // they were ticked. The button stays disabled until two are picked; the count is announced. A row leaving
  // the shown page drops its box unless it is ticked: Chromium saves every form control's state whenever the
  // address changes, which takes a tenth of a second at 10,000 boxes.
  function setUpPicking() {
    var bar = document.getElementById('compare-pick');
    var button = document.getElementById('compare-selected');
    var status = document.getElementById('compare-pick-status');
    if (!bar || !button || !status) return null;
    var picked = [];
    var idle = status.textContent;
    function enter(fact) {
      if (fact.box) return;
      var link = fact.row.cells[0].querySelector('a');
      if (!link) return;
      var box = document.createElement('input');
      box.type = 'checkbox';
      box.className = 'pick';
      box.value = link.getAttribute('href').replace(/\/$/, '').split('/').pop();
      box.setAttribute('aria-label', 'Compare ' + link.textContent);
      fact.row.cells[0].insertBefore(box, fact.row.cells[0].firstChild);
      fact.box = box;
    }
    function leave(fact) {
      if (!fact.box || fact.box.checked) return;
      fact.box.remove();
      fact.box = null;
    }
    function update() {
      button.disabled = picked.length < 2;
      status.textContent = picked.length === 0 ? idle
        : picked.length === 1 ? '1 card picked: tick one more to compare.'
        : picked.length + ' cards picked.';
    }
    body.addEventListener('change', function (event) {
      var box = event.target;
      if (!box.classList || !box.classList.contains('pick')) return;
      picked = picked.filter(function (slug) { return slug !== box.value; });
      if (box.checked) picked.push(box.value);
      update();
    });
    button.addEventListener('click', function () {
      if (picked.length < 2) return;
      var base = document.documentElement.getAttribute('data-base') || '/';
      window.location.href = base + 'compare/?cards=' + picked.map(encodeURIComponent).join(',');
    });
    bar.hidden = false;
    update();
    return { enter: enter, leave: leave };
  }

  drawBars();
  var picking = setUpPicking();
  loadState();
  applyFilters();
})();
