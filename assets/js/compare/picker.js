// The reader's own set of cards: picked by name, kept in the address (?cards=a,b@2,c), drawn together.
import { el } from './el.js';
import { combobox } from './combobox.js';
import { fetchEntries, pathEntry } from './pieces.js';
import { drawHeadlines, drawSet, testsAndOps } from './draw.js';

// The main picker offers every card and, for a card read through several paths, each path of it.
var withPaths = null;
function pickable(catalogue) {
  if (!withPaths) {
    withPaths = [];
    catalogue.cards.forEach(function (c) {
      withPaths.push(c);
      (c[3] || []).forEach(function (path, i) { withPaths.push([c[0] + '@' + (i + 1), c[1] + ' — ' + path, c[2]]); });
    });
  }
  return withPaths;
}

// The keys of the subtests every entry has (or, for a card's paths side by side, any of them has).
function subtestKeys(entries, any) {
  var keys = [];
  entries.forEach(function (e) { Object.keys(e.bars).forEach(function (k) { if (keys.indexOf(k) === -1) keys.push(k); }); });
  return any ? keys : keys.filter(function (k) { return entries.every(function (e) { return e.bars[k]; }); });
}

export function setupPicker() {
  var form = document.getElementById('pick-form');
  if (!form) return;
  var input = document.getElementById('pick-input');
  var options = document.getElementById('pick-options');
  var picked = document.getElementById('picked');
  var status = document.getElementById('pick-status');
  var container = document.getElementById('picked-charts');
  var params = new URLSearchParams(window.location.search);
  var tokens = (params.get('cards') || '').split(',').map(function (s) { return s.trim(); }).filter(Boolean)
    .filter(function (s, i, all) { return all.indexOf(s) === i; });
  var titles = new Map();
  var missing = [];
  function titleOf(token) { return titles.get(token) || token; }

  function render() {
    picked.textContent = '';
    tokens.forEach(function (token) {
      var li = el('li');
      var bad = missing.indexOf(token) !== -1;
      li.appendChild(document.createTextNode(titleOf(token) + ' '));
      if (bad) li.appendChild(el('span', 'problem', '(not found) '));
      var remove = el('button', '', 'remove');
      remove.type = 'button';
      remove.setAttribute('aria-label', 'Remove ' + titleOf(token));
      remove.addEventListener('click', function () { tokens = tokens.filter(function (s) { return s !== token; }); update(); });
      li.appendChild(remove);
      picked.appendChild(li);
    });
  }
  function update() {
    var url = new URL(window.location.href);
    if (tokens.length) url.searchParams.set('cards', tokens.join(',')); else url.searchParams.delete('cards');
    window.history.replaceState(window.history.state, '', url);
    render();
    if (!tokens.length) { container.textContent = ''; status.textContent = ''; return; }
    fetchEntries(tokens, true).then(function (got) {
      var entries = got.entries;
      missing = got.bad;
      entries.forEach(function (e) { titles.set(e.token, e.title); });
      render();
      status.textContent = missing.length
        ? 'No card is named ' + missing.map(function (s) { return '“' + s + '”'; }).join(', ') +
          ' — left out; ' + (entries.length ? 'the others are drawn.' : 'pick a card above.')
        : '';
      // A card picked alone that was read through several paths: each path a bar of its own.
      var lone = entries.length === 1 && entries[0].piece.paths && entries[0].token === entries[0].slug ? entries[0].piece : null;
      if (lone) {
        var paths = lone.paths.map(function (p, i) {  // bars named by their path alone; the caption names the card
          return Object.assign(pathEntry(lone, i + 1), { label: p.label_path, labelSlug: p.label_path });
        });
        var keys = subtestKeys(paths, true);
        var split = testsAndOps(paths, keys);
        drawSet(container, paths, split.tests, split.ops, { caption: lone.title + ': every subtest through each host and reader',
          note: lone.title + ' was read through ' + paths.length + ' host and reader paths: each is a bar of its own, ' +
            'pooled over the sessions through it.' });
        return;
      }
      var shared = subtestKeys(entries, false);
      if (!entries.length) container.textContent = '';
      else if (entries.length > 1 && !shared.length) drawHeadlines(container, entries);
      else {
        var parts = testsAndOps(entries, shared);
        drawSet(container, entries, parts.tests, parts.ops, { caption: 'Every subtest the picked cards share' });
      }
    });
  }
  var submit = combobox(input, options, pickable, function (token, title) {
    titles.set(token, title);
    if (tokens.indexOf(token) === -1) tokens.push(token);
    status.textContent = title + ' added.';
    update();
  });
  form.addEventListener('submit', function (e) {
    e.preventDefault();
    submit(function (typed) { status.textContent = 'No card matches “' + typed + '”.'; });
  });
  if (tokens.length) update();
}
