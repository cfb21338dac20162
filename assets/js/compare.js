// Comparison page: fetches only the chosen cards' bars (/compare/cards/<slug>.json, written finished by
// cardbench aggregate: means, whiskers, hover fields and table texts in MB/s and MiB/s) and puts them
// into the chart frame the page carries (data-chart): a bar per card and direction at its mean, a whisker
// from its worst to its best run, cards ranked fastest first; one test at a time (a menu picks it), every
// figure in a table below. It computes no figure: it joins, ranks and picks the unit's values.
// A suite embeds a few members by name; the catalogue of every card (slug, title, suites, paths) is
// fetched once, when a reader first uses a picker, so the page stays light with thousands of cards.
// A card read through several (host, reader) paths can be picked per path (slug@n in the address);
// a card picked alone is drawn path by path.
(function () {
  'use strict';
  var charts = window.cardbenchCharts;
  var base = document.documentElement.getAttribute('data-base') || '/';
  var DEFAULT_MEMBERS = 12;  // the same as DEFAULT_MEMBERS in scripts/cardbench/site/pagemodel.py
  var MATCHES_SHOWN = 8;
  // Keyed by slug: a Map, so a name such as "constructor" or "__proto__" is only ever a name.
  var cache = new Map();
  // A card's slug (data/schema/card.schema.json), or a slug and a path's number: nothing else is fetched.
  var TOKEN_FORM = /^([a-z0-9][a-z0-9-]*[a-z0-9])(?:@([1-9][0-9]{0,2}))?$/;
  var picker = document.getElementById('picker') || document.documentElement;
  var catalogueUrl = picker.getAttribute('data-catalogue');
  var piecesUrl = picker.getAttribute('data-cards') || base + 'compare/cards/';
  var frame = JSON.parse(picker.getAttribute('data-chart') || 'null');
  var cataloguePromise = null;

  function unit() { return window.cardbenchUnits ? window.cardbenchUnits.current() : 'mb'; }
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // {suites: [suite id, …], cards: [[slug, title, [suite index, …], [path name, …]?], …]}
  function loadCatalogue() {
    if (!cataloguePromise) {
      cataloguePromise = catalogueUrl ? fetch(catalogueUrl).then(function (r) {
        if (!r.ok) throw new Error('the card catalogue could not be loaded');
        return r.json();
      }) : Promise.resolve({ suites: [], cards: [] });
    }
    return cataloguePromise;
  }

  // Slugs of the site's cards, from the catalogue; null when it cannot be had (then the slug's form and
  // the card's own file decide).
  var listedPromise = null;
  function listedSlugs() {
    if (!listedPromise) {
      listedPromise = loadCatalogue().then(function (catalogue) {
        return catalogueUrl ? new Set(catalogue.cards.map(function (c) { return c[0]; })) : null;
      }, function () { return null; });
    }
    return listedPromise;
  }

  // What a card brings to a comparison. The slug is checked first (its form, so '..' cannot reach
  // another file, and, when `listed` is given, the site's card list).
  function fetchPiece(slug, listed) {
    if (listed && !listed.has(slug)) return Promise.reject(new Error('not listed'));
    if (!cache.has(slug)) {
      cache.set(slug, fetch(piecesUrl + encodeURIComponent(slug) + '.json').then(function (r) {
        if (!r.ok) throw new Error('not found');
        return r.json();
      }).then(function (piece) {
        if (!piece || piece.slug !== slug) throw new Error('not found');
        return piece;
      }));
    }
    return cache.get(slug);
  }

  // One bar per entry: a card (its pooled figures) or one of its paths.
  function cardEntry(piece) {
    return { token: piece.slug, slug: piece.slug, title: piece.title, label: piece.label, labelSlug: piece.label_slug,
      bars: piece.bars, headline: piece.headline, opNames: piece.op_names, piece: piece };
  }
  function pathEntry(piece, number) {
    var path = piece.paths[number - 1];
    return { token: piece.slug + '@' + number, slug: piece.slug, title: path.title, label: path.label, labelSlug: path.label,
      bars: path.bars, headline: {}, opNames: piece.op_names, sessions: path.sessions, piece: piece };
  }

  // Every requested entry that loads, and the names that did not: one bad name never hides the rest.
  // `checkListed`: names typed by a reader (the address) must be among the site's cards.
  function fetchEntries(tokens, checkListed) {
    var listed = checkListed ? listedSlugs() : Promise.resolve(null);
    return listed.then(function (known) {
      return Promise.all(tokens.map(function (token) {
        var form = typeof token === 'string' ? TOKEN_FORM.exec(token) : null;
        if (!form) return { bad: token };
        return fetchPiece(form[1], known).then(function (piece) {
          if (!form[2]) return { entry: cardEntry(piece) };
          var number = Number(form[2]);
          return piece.paths && piece.paths[number - 1] ? { entry: pathEntry(piece, number) } : { bad: token };
        }, function () { cache.delete(form[1]); return { bad: token }; });
      }));
    }).then(function (results) {
      return {
        entries: results.filter(function (r) { return r.entry; }).map(function (r) { return r.entry; }),
        bad: results.filter(function (r) { return r.bad; }).map(function (r) { return r.bad; })
      };
    });
  }

  // --- loose matching of a typed name against card titles and slugs -------------------------------

  function normal(text) {
    return String(text).toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z0-9]+/g, ' ').trim();
  }

  // Edit distance of two short words, stopping early once it passes `limit`.
  function within(a, b, limit) {
    if (Math.abs(a.length - b.length) > limit) return false;
    var prev = [], i, j;
    for (j = 0; j <= b.length; j++) prev[j] = j;
    for (i = 1; i <= a.length; i++) {
      var cur = [i], best = i;
      for (j = 1; j <= b.length; j++) {
        cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (cur[j] < best) best = cur[j];
      }
      if (best > limit) return false;
      prev = cur;
    }
    return prev[b.length] <= limit;
  }

  function subsequence(word, text) {
    var at = 0;
    for (var i = 0; i < word.length; i++) {
      at = text.indexOf(word[i], at);
      if (at === -1) return false;
      at += 1;
    }
    return true;
  }

  // How well `query` names a card: every word must be found (as a word's start, anywhere, with a typo,
  // or as letters in order); -1 when one is not. "sandisk extreme pro", "1tb" and "sandsk" all match.
  function score(query, title, slug) {
    var words = normal(query).split(' ').filter(Boolean);
    if (!words.length) return 0;
    var hay = normal(title + ' ' + slug);
    var tokens = hay.split(' ');
    var compact = hay.replace(/ /g, '');
    var total = normal(title).indexOf(words.join(' ')) === 0 ? 2 : 0;
    for (var i = 0; i < words.length; i++) {
      var w = words[i];
      if (tokens.indexOf(w) !== -1) total += 4;
      else if (tokens.some(function (t) { return t.indexOf(w) === 0; })) total += 3;
      else if (compact.indexOf(w) !== -1) total += 2;
      else if (w.length >= 4 && tokens.some(function (t) { return within(w, t, w.length >= 7 ? 2 : 1); })) total += 1;
      else if (w.length >= 3 && subsequence(w, compact)) total += 0.5;
      else return -1;
    }
    return total;
  }

  function matches(query, cards) {
    var scored = cards.map(function (c) { return { card: c, score: score(query, c[1], c[0]) }; })
      .filter(function (m) { return m.score >= 0; });
    scored.sort(function (a, b) { return b.score - a.score || (a.card[1] < b.card[1] ? -1 : a.card[1] > b.card[1] ? 1 : 0); });
    return scored.map(function (m) { return m.card; });
  }

  // An input that suggests cards as the reader types (ARIA combobox with a list box); `choices(catalogue)`
  // gives the cards it may offer, `onPick(slug, title)` takes the chosen one.
  function combobox(input, list, choices, onPick) {
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

  // --- the chart and its table: the entries' bars put into the page's chart frame --------------------

  // An entry's bar in one subtest; `view`: 'bars' (its measured subtests) or 'headline' (its headline figures).
  function barOf(entry, view, test, op) {
    var bars = entry[view];
    return bars && Object.prototype.hasOwnProperty.call(bars, test + ' ' + op) ? bars[test + ' ' + op] : null;
  }

  // Entries ranked by the first direction's mean (fastest first); those without it last.
  function ranked(entries, view, test, ops) {
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
  function figure(entries, view, test, ops) {
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

  // A cell's figure in both units, as written by cardbench aggregate; the shown one follows the units switch.
  function rateSpan(bar, index) {
    var span = el('span');
    span.setAttribute('data-mb', bar.cells.mb[index]);
    span.setAttribute('data-mib', bar.cells.mib[index]);
    span.textContent = span.getAttribute(unit() === 'mib' ? 'data-mib' : 'data-mb');
    return span;
  }

  function table(entries, view, tests, ops, caption, labelOf) {
    var details = el('details', 'figures-table');
    details.appendChild(el('summary', '', 'The figures as a table'));
    var scroll = el('div', 'table-scroll');
    scroll.tabIndex = 0;
    scroll.setAttribute('role', 'region');
    scroll.setAttribute('aria-label', caption);
    var t = el('table', 'figures');
    var cap = el('caption', '', caption + ' ');
    var unitLabel = el('span', 'unit');
    unitLabel.setAttribute('data-mb', '(MB/s: mean, slowest–fastest)');
    unitLabel.setAttribute('data-mib', '(MiB/s: mean, slowest–fastest)');
    unitLabel.textContent = unitLabel.getAttribute(unit() === 'mib' ? 'data-mib' : 'data-mb');
    cap.appendChild(unitLabel);
    t.appendChild(cap);
    var head = el('tr');
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
    t.appendChild(el('thead')).appendChild(head);
    var body = t.appendChild(el('tbody'));
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
    scroll.appendChild(t);
    details.appendChild(scroll);
    return details;
  }

  var chartCount = 0;
  // One chart (a test at a time, chosen from a menu) and the table of every figure, in `container`.
  // options: view ('bars' or 'headline'), labels (test → its name), testLabel, caption, note, sessions (token → labels).
  function drawSet(container, entries, tests, ops, options) {
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
    var box = el('figure', 'chart-box');
    var cap = el('figcaption');
    box.appendChild(cap);
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
      box.appendChild(controls);
    }
    var chart = el('div', 'chart');
    chart.setAttribute('role', 'img');
    box.appendChild(chart);
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
  function testsAndOps(entries, keys) {
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
  function drawHeadlines(container, entries) {
    drawSet(container, entries, frame.headlines.tests, frame.headlines.ops, {
      view: 'headline', testLabel: 'Figure', caption: 'Headline figures of every card',
      note: 'These cards were measured with different tests, so they share no subtest. Shown: each card\'s ' +
        'headline means (the table names the test behind each) — a rough comparison only.'
    });
  }

  // --- suites -------------------------------------------------------------------------------------

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

  function setupSuite(section) {
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

  // --- the reader's own set: ?cards=a,b@2,c in the address, editable with the picker ---------------

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

  function setupPicker() {
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

  setupPicker();
  Array.prototype.forEach.call(document.querySelectorAll('.suite[data-suite]'), setupSuite);
})();
