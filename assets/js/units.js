// MB/s (10⁶ bytes/s) or MiB/s (2²⁰ bytes/s): every figure on the page is written in both units
// (data-mb, data-mib), so the switch only picks which text shows. The choice is kept in the address
// (?unit=mib) and announced to the charts (event 'cardbench:unit').
(function () {
  'use strict';
  var UNITS = ['mb', 'mib'];

  function fromAddress() {
    var unit = new URLSearchParams(window.location.search).get('unit');
    return UNITS.indexOf(unit) === -1 ? 'mb' : unit;
  }
  var current = fromAddress();

  // Show the chosen unit's text in every element (of `root`) that carries both.
  function show(root) {
    Array.prototype.forEach.call((root || document).querySelectorAll('[data-mib]'), function (el) {
      var text = el.getAttribute(current === 'mib' ? 'data-mib' : 'data-mb');
      if (text !== null && el.textContent !== text) el.textContent = text;
    });
  }

  function choose(unit) {
    if (UNITS.indexOf(unit) === -1 || unit === current) return;
    current = unit;
    var url = new URL(window.location.href);
    if (unit === 'mb') url.searchParams.delete('unit'); else url.searchParams.set('unit', unit);
    window.history.replaceState(window.history.state, '', url);
    document.documentElement.setAttribute('data-unit', unit);
    show(document);
    syncSwitches();
    document.dispatchEvent(new CustomEvent('cardbench:unit', { detail: unit }));
  }

  function syncSwitches() {
    Array.prototype.forEach.call(document.querySelectorAll('[data-unit-switch] input'), function (input) {
      input.checked = input.value === current;
    });
  }

  function setup() {
    Array.prototype.forEach.call(document.querySelectorAll('[data-unit-switch]'), function (box) {
      box.hidden = false;
      box.addEventListener('change', function (e) { if (e.target.checked) choose(e.target.value); });
    });
    syncSwitches();
    document.documentElement.setAttribute('data-unit', current);
    if (current !== 'mb') show(document);
  }

  window.cardbenchUnits = {
    current: function () { return current; },
    show: show,
    // The unit's name as the page writes it.
    name: function () { return current === 'mib' ? 'MiB/s' : 'MB/s'; }
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', setup); else setup();
})();
