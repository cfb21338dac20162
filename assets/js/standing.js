// A card page's standing: its sequential read on each host beside every other card of its size read on that
// host by the same source (/standing.json, written by cardbench aggregate), e.g. "sequential read faster than 62 %
// of the 13 other microSD cards <source> read on Raspberry Pi 4 model B". Said only where at least MIN_OTHERS
// other cards were read there: a host's name alone ("Laptop, Linux") may be two machines, a source's is one.
(function () {
  'use strict';
  var MIN_OTHERS = 3;
  var box = document.getElementById('standing');
  if (!box || !window.fetch) return;
  var mine;
  try { mine = JSON.parse(box.getAttribute('data-standing') || '[]'); } catch (e) { return; }
  var base = document.documentElement.getAttribute('data-base') || '/';
  fetch(base + 'standing.json').then(function (r) { return r.ok ? r.json() : null; }).then(function (groups) {
    if (!groups) return;
    var said = [];
    mine.forEach(function (entry) {
      var others = (groups[entry.group] || []).slice();
      var at = others.indexOf(entry.mb_s);
      if (at !== -1) others.splice(at, 1);  // the card itself
      if (others.length < MIN_OTHERS) return;
      var slower = others.filter(function (v) { return v < entry.mb_s; }).length;
      var share = Math.round(100 * slower / others.length);
      said.push('sequential read faster than ' + share + ' % of the ' + others.length + ' other ' +
        entry.form_factor + ' cards ' + entry.source + ' read on ' + entry.host);
    });
    if (!said.length) return;
    box.querySelector('.standing-text').textContent = said.join('; ') + '.';
    box.hidden = false;
  });
})();
