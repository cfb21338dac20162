// The card pickers' text box: suggestions as the reader types, chosen with the mouse or the keys.
import { el } from './el.js';
import { matches } from './match.js';
import { loadCatalogue } from './pieces.js';

var MATCHES_SHOWN = 8;

// An input that suggests cards as the reader types (ARIA combobox with a list box); `choices(catalogue)`
// gives the cards it may offer, `onPick(slug, title)` takes the chosen one.
export function combobox(input, list, choices, onPick) {
  var shown = [];
  var active = -1;
  function close() {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  }
  function setActive(index) {
    active = index;
    Array.prototype.forEach.call(list.children, function (li, i) { li.setAttribute('aria-selected', String(i === index)); });
    if (index >= 0 && list.children[index]) {
      input.setAttribute('aria-activedescendant', list.children[index].id);
      list.children[index].scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  }
  function render(catalogue) {
    shown = matches(input.value, choices(catalogue)).slice(0, MATCHES_SHOWN);
    list.textContent = '';
    shown.forEach(function (c, i) {
      var li = el('li');
      li.id = list.id + '-' + i;
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', 'false');
      li.appendChild(document.createTextNode(c[1]));
      li.addEventListener('mousedown', function (e) { e.preventDefault(); });
      li.addEventListener('click', function () { pick(c); });
      list.appendChild(li);
    });
    list.hidden = !shown.length;
    input.setAttribute('aria-expanded', String(shown.length > 0));
    setActive(-1);
  }
  function refresh() { loadCatalogue().then(render); }
  function pick(c) {
    input.value = '';
    close();
    onPick(c[0], c[1]);
  }
  input.addEventListener('focus', refresh);
  input.addEventListener('input', refresh);
  input.addEventListener('blur', function () { setTimeout(close, 100); });
  input.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (list.hidden) { refresh(); return; }
      var n = shown.length;
      if (n) setActive(e.key === 'ArrowDown' ? (active + 1) % n : (active - 1 + n) % n);
    } else if (e.key === 'Escape') {
      close();
    } else if (e.key === 'Enter' && active >= 0 && shown[active]) {
      e.preventDefault();
      pick(shown[active]);
    }
  });
  // The form's own button (or Enter with no suggestion chosen): the best match of the typed text.
  return function submit(onNone) {
    var typed = input.value.trim();
    if (!typed) return;
    loadCatalogue().then(function (catalogue) {
      var best = matches(typed, choices(catalogue))[0];
      if (best) pick(best); else onNone(typed);
    });
  };
}
