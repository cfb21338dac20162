// A suite on the comparison page: its members ticked in and out, any member added by name, redrawn on each change.
import { el } from './el.js';
import { combobox } from './combobox.js';
import { fetchEntries } from './pieces.js';
import { drawSet } from './draw.js';

var DEFAULT_MEMBERS = 12;  // the same as DEFAULT_MEMBERS in scripts/cardbench/site/pagemodel.py

function memberItem(list, m, checked, onChange) {
  var li = el('li');
  var lab = el('label');
  var box = el('input');
  box.type = 'checkbox';
  box.value = m.slug;
  box.checked = checked;
  box.addEventListener('change', onChange);
  lab.appendChild(box);
  lab.appendChild(document.createTextNode(' ' + m.title));
  li.appendChild(lab);
  list.appendChild(li);
}

function memberList(section, members, chosen, onChange) {
  var list = el('ul', 'members');
  list.setAttribute('aria-label', 'Cards drawn');
  members.forEach(function (m) { memberItem(list, m, chosen.indexOf(m.slug) !== -1, onChange); });
  section.insertBefore(list, section.querySelector('.suite-charts'));
  return list;
}

// A suite with more members than it embeds: add any member by name from the catalogue.
function memberAdder(section, suite, list, onChange) {
  var form = el('form', 'member-add');
  form.setAttribute('autocomplete', 'off');
  var id = 'suite-add-' + suite.id;
  var lab = el('label', '', 'Add one of the ' + suite.count + ' cards ');
  lab.htmlFor = id;
  var combo = el('div', 'combo');
  var input = el('input');
  input.id = id;
  input.type = 'text';
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-expanded', 'false');
  input.setAttribute('aria-controls', id + '-options');
  input.placeholder = 'type a brand or model…';
  var options = el('ul');
  options.id = id + '-options';
  options.setAttribute('role', 'listbox');
  options.setAttribute('aria-label', 'Matching cards');
  options.hidden = true;
  combo.appendChild(input);
  combo.appendChild(options);
  var button = el('button', '', 'Add');
  button.type = 'submit';
  form.appendChild(lab);
  form.appendChild(combo);
  form.appendChild(button);
  section.insertBefore(form, section.querySelector('.suite-charts'));
  function members(catalogue) {
    var index = catalogue.suites.indexOf(suite.id);
    return catalogue.cards.filter(function (c) { return c[2].indexOf(index) !== -1; });
  }
  var submit = combobox(input, options, members, function (slug, title) {
    if (list.querySelector('input[value="' + CSS.escape(slug) + '"]')) return;
    memberItem(list, { slug: slug, title: title }, true, onChange);
    onChange();
  });
  form.addEventListener('submit', function (e) { e.preventDefault(); submit(function () {}); });
}

export function setupSuite(section) {
  var suite = JSON.parse(section.getAttribute('data-suite'));
  var container = section.querySelector('.suite-charts');
  var note = section.querySelector('.members-note');
  var chosen = suite.cards.slice(0, DEFAULT_MEMBERS).map(function (m) { return m.slug; });
  // The sessions pooled into each member's bar, by slug (a Map: a slug is only ever a name).
  var sessions = new Map(suite.cards.filter(function (m) { return m.sessions && m.sessions.length; })
    .map(function (m) { return [m.slug, m.sessions]; }));
  var list;
  function redraw() {
    var slugs = Array.prototype.filter.call(list.querySelectorAll('input'), function (b) { return b.checked; })
      .map(function (b) { return b.value; });
    var count = suite.count || suite.cards.length;
    note.textContent = slugs.length === count ? 'All ' + count + ' cards of this suite are drawn.'
      : slugs.length + ' of the ' + count + ' cards are drawn' +
        (count > DEFAULT_MEMBERS ? ' (the first ' + DEFAULT_MEMBERS + ' on load, to keep the chart readable)' : '') +
        '; tick a card to add it.';
    fetchEntries(slugs).then(function (got) {
      drawSet(container, got.entries, suite.tests, suite.ops, { caption: suite.name + ': every subtest', labels: suite.labels,
        sessions: sessions });
      if (got.bad.length) container.insertBefore(el('p', 'problem', 'Not found: ' + got.bad.join(', ') + '.'), container.firstChild);
    });
  }
  list = memberList(section, suite.cards, chosen, redraw);
  if ((suite.count || suite.cards.length) > suite.cards.length) memberAdder(section, suite, list, redraw);
  redraw();
}
