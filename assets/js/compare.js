// Comparison page: fetches only the chosen cards' statistics (/cards/<slug>/index.json) and draws one
// chart per set of cards: a bar per card and direction at its mean, a whisker from its worst to its best
// run, cards ranked fastest first; one test at a time (a menu picks it), every figure in a table below.
// A suite embeds a few members by name; the catalogue of every card (slug, title, suites) is fetched
// once, when a reader first uses a picker, so the page stays light with thousands of cards.
(function () {
  'use strict';
  var charts = window.cardbenchCharts;
  var base = document.documentElement.getAttribute('data-base') || '/';
  var DEFAULT_MEMBERS = 12;  // the same as DEFAULT_MEMBERS in scripts/cardbench/site/pagemodel.py
  var MATCHES_SHOWN = 8;
  // Keyed by slug: a Map, so a name such as "constructor" or "__proto__" is only ever a name.
  var cache = new Map();
  // The form of a card's slug (data/schema/card.schema.json); nothing else is ever fetched as a card.
  var SLUG_FORM = /^[a-z0-9][a-z0-9-]*[a-z0-9]$/;
  var catalogueUrl = (document.getElementById('picker') || document.documentElement).getAttribute('data-catalogue');
  var cataloguePromise = null;

  function unit() { return window.cardbenchUnits ? window.cardbenchUnits.current() : 'mb'; }
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // {suites: [suite id, …], cards: [[slug, title, [suite index, …]], …]}
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

  // A card's statistics. A name from the address is checked first: the slug form (so '..' cannot
  // reach another file) and, when `listed` is given, the site's card list.
  function fetchCard(slug, listed) {
    var notFound = new Error('no card is named “' + slug + '”');
    if (typeof slug !== 'string' || !SLUG_FORM.test(slug)) return Promise.reject(notFound);
    if (listed && !listed.has(slug)) return Promise.reject(notFound);
    if (!cache.has(slug)) {
      cache.set(slug, fetch(base + 'cards/' + encodeURIComponent(slug) + '/index.json').then(function (r) {
        if (!r.ok) throw notFound;
        return r.json();
      }).then(function (card) {
        if (!card || card.slug !== slug) throw notFound;
        return card;
      }));
    }
    return cache.get(slug);
  }

  // Every requested card that loads, and the slugs that did not: one bad name never hides the rest.
  // `checkListed`: names typed by a reader (the address) must be among the site's cards.
  function fetchCards(slugs, checkListed) {
    var listed = checkListed ? listedSlugs() : Promise.resolve(null);
    return listed.then(function (known) {
      return Promise.all(slugs.map(function (slug) {
        return fetchCard(slug, known).then(function (card) { return { card: card }; },
          function (err) { cache.delete(slug); return { bad: slug, error: err }; });
      }));
    }).then(function (results) {
      return {
        cards: results.filter(function (r) { return r.card; }).map(function (r) { return r.card; }),
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

  // --- the chart and its table --------------------------------------------------------------------

  function upperFirst(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

  // Subtest names "SEQ1M Q8T1 read" as tests ["SEQ1M Q8T1"] and directions ["read", "write"], in order.
  function splitSubtests(subtests) {
    var tests = [], ops = [];
    subtests.forEach(function (s) {
      var at = s.lastIndexOf(' ');
      var test = s.slice(0, at), op = s.slice(at + 1);
      if (tests.indexOf(test) === -1) tests.push(test);
      if (ops.indexOf(op) === -1) ops.push(op);
    });
    return { tests: tests, ops: ops };
  }

  function statOf(card, test, op) {
    var p = card.pooled && card.pooled[test + ' ' + op];
    if (!p || !p.mb_s) return null;
    // A figure the tool printed in MiB/s keeps the tool's decimals there (13, not 13.0).
    var mibDecimals = p.printed && p.printed.unit === 'MiB/s' ? p.printed.decimals : null;
    return { mb: p.mb_s, mib: p.mib_s || null, runs: p.run_count, mibDecimals: mibDecimals };
  }

  function fixed(value, decimals) {
    if (value === null || value === undefined) return '–';
    if (typeof decimals === 'number') {
      return value.toLocaleString('en-US', { maximumFractionDigits: decimals, minimumFractionDigits: decimals });
    }
    var size = Math.abs(value);
    return value.toLocaleString('en-US', { maximumFractionDigits: size >= 100 ? 0 : size >= 10 ? 1 : 2,
      minimumFractionDigits: size >= 100 ? 0 : size >= 10 ? 1 : 2 });
  }

  function uniqueLabels(cards) {
    var seen = new Set();
    return cards.map(function (c) {
      var label = charts.plainText(c.title);
      if (seen.has(label)) label += ' (' + charts.plainText(c.slug) + ')';
      seen.add(label);
      return label;
    });
  }

  // Cards ranked by the first direction's mean (fastest first); those without it last.
  function ranked(cards, stat, test, ops) {
    return cards.slice().sort(function (a, b) {
      for (var i = 0; i < ops.length; i++) {
        var x = stat(a, test, ops[i]), y = stat(b, test, ops[i]);
        if (x && !y) return -1;
        if (y && !x) return 1;
        if (x && y && x.mb.mean !== y.mb.mean) return y.mb.mean - x.mb.mean;
      }
      return 0;
    });
  }

  // Hovers of a bar: customdata is [slowest, fastest, runs, basis, subtest]. Card text (titles, subtest
  // names, a reviewer's summary) reaches a hover only as plain text in y and customdata, never in the
  // template, so neither Plotly's markup nor a %{…} in it is read.
  var RANGE_HOVER = '%{y}<br>%{customdata[4]}: mean %{x:.1f} {unit}<br>slowest %{customdata[0]:.1f}, ' +
    'fastest %{customdata[1]:.1f}<br>%{customdata[2]} runs<extra></extra>';
  var BASIS_HOVER = '%{y}<br>%{customdata[4]}: mean %{x:.1f} {unit}<br>%{customdata[3]}<extra></extra>';

  // "n=5" (runs behind the bar), or per direction when they differ: two runs never pass for ten.
  function runsText(card, stat, test, ops) {
    var counts = ops.map(function (op) { var s = stat(card, test, op); return s && s.runs ? s.runs : null; });
    var known = counts.filter(function (n) { return n !== null; });
    if (!known.length) return '';
    if (known.every(function (n) { return n === known[0]; })) return 'n=' + known[0];
    return ops.map(function (op, i) { return counts[i] === null ? '' : op + ' n=' + counts[i]; })
      .filter(Boolean).join(', ');
  }

  function figure(cards, stat, test, ops) {
    var labels = uniqueLabels(cards).map(function (label, i) {
      var n = runsText(cards[i], stat, test, ops);
      return n ? label + ' (' + n + ')' : label;
    });
    var data = [], alt = [];
    ops.forEach(function (op) {
      var stats = cards.map(function (c) { return stat(c, test, op); });
      var subtest = charts.plainText(test + ' ' + op);
      function series(key) {
        var pick = function (s) { return s && (key === 'mib' ? s.mib : s.mb); };
        var mean = stats.map(function (s) { var v = pick(s); return v ? v.mean : null; });
        var hasRange = stats.some(function (s) { var v = pick(s); return v && v.min !== undefined && v.max !== undefined; });
        var out = { x: mean, customdata: stats.map(function (s) {
          var v = pick(s);
          return v ? [v.min === undefined ? null : v.min, v.max === undefined ? null : v.max, s.runs || '',
            charts.plainText(s.basis || ''), subtest] : [null, null, '', '', subtest];
        }) };
        if (hasRange) {
          out.error_x = { type: 'data', symmetric: false, thickness: 1.5, width: 5,
            array: stats.map(function (s) { var v = pick(s); return v && v.max !== undefined ? v.max - v.mean : null; }),
            arrayminus: stats.map(function (s) { var v = pick(s); return v && v.min !== undefined ? v.mean - v.min : null; }) };
        }
        out.hovertemplate = (hasRange ? RANGE_HOVER : BASIS_HOVER).replace('{unit}', key === 'mib' ? 'MiB/s' : 'MB/s');
        return out;
      }
      var mb = series('mb');
      data.push(Object.assign({ type: 'bar', orientation: 'h', name: charts.plainText(upperFirst(op)), y: labels, offsetgroup: op,
        meta: { role: op === 'read' || op === 'write' ? op : '' } }, mb));
      alt.push(series('mib'));
    });
    var height = 110 + cards.length * (18 + 22 * ops.length);
    return {
      data: data,
      layout: {
        barmode: 'group', height: height, bargap: 0.25, margin: { t: 40 },
        xaxis: { title: { text: 'MB/s (10⁶ bytes/s)' }, rangemode: 'tozero' },
        yaxis: { autorange: 'reversed', automargin: true },
        legend: { orientation: 'h', x: 0, y: 1.02, yanchor: 'bottom' }
      },
      alt: { mib: { data: alt, layout: { xaxis: { title: { text: 'MiB/s (2²⁰ bytes/s)' } } } } }
    };
  }

  // A cell with the figure in both units; the shown one follows the units switch.
  function rateSpan(s, key) {
    var span = el('span');
    if (!s) { span.textContent = '–'; return span; }
    var mb = s.mb[key], mib = s.mib ? s.mib[key] : null;
    span.setAttribute('data-mb', fixed(mb));
    span.setAttribute('data-mib', mib === null || mib === undefined ? fixed(mb) : fixed(mib, s.mibDecimals));
    span.textContent = span.getAttribute(unit() === 'mib' ? 'data-mib' : 'data-mb');
    return span;
  }

  function table(cards, stat, tests, ops, caption, keys) {
    keys = keys || tests;
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
        var th = el('th', 'num', test + ' ' + op);
        th.scope = 'col';
        head.appendChild(th);
      });
    });
    t.appendChild(el('thead')).appendChild(head);
    var body = t.appendChild(el('tbody'));
    cards.forEach(function (card) {
      var tr = body.appendChild(el('tr'));
      var th = el('th');
      th.scope = 'row';
      var a = el('a', '', card.title);
      a.href = base + 'cards/' + encodeURIComponent(card.slug) + '/';
      th.appendChild(a);
      tr.appendChild(th);
      keys.forEach(function (test) {
        ops.forEach(function (op) {
          var s = stat(card, test, op);
          var td = el('td', 'num');
          var mean = el('strong');
          mean.appendChild(rateSpan(s, 'mean'));
          td.appendChild(mean);
          if (s && s.mb.min !== undefined) {
            td.appendChild(document.createTextNode(' '));
            var range = el('span', 'muted');
            range.appendChild(rateSpan(s, 'min'));
            range.appendChild(document.createTextNode('–'));
            range.appendChild(rateSpan(s, 'max'));
            td.appendChild(range);
          } else if (s && s.basis) {
            td.appendChild(el('span', 'by', s.basis));
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
  function drawSet(container, cards, subtests, options) {
    options = options || {};
    var stat = options.stat || statOf;
    container.textContent = '';
    if (!cards.length || !subtests.length) {
      container.appendChild(el('p', 'chart-note', cards.length ? 'These cards share no subtest measured in MB/s.' : 'No card chosen.'));
      return;
    }
    var parts = splitSubtests(subtests);
    var labels = options.labels || {};
    function labelOf(test) { return Object.prototype.hasOwnProperty.call(labels, test) ? labels[test] : test; }
    var id = 'cmp-' + (++chartCount);
    var box = el('figure', 'chart-box');
    var cap = el('figcaption');
    box.appendChild(cap);
    var controls = el('div', 'suite-controls');
    var select = null;
    if (parts.tests.length > 1) {
      var label = el('label', '', (options.testLabel || 'Subtest') + ' ');
      select = el('select');
      select.id = id + '-test';
      label.htmlFor = select.id;
      parts.tests.forEach(function (test) { select.appendChild(el('option', '', labelOf(test))).value = test; });
      controls.appendChild(label);
      controls.appendChild(select);
      box.appendChild(controls);
    }
    var chart = el('div', 'chart');
    chart.setAttribute('role', 'img');
    box.appendChild(chart);
    if (options.note) box.appendChild(el('p', 'chart-note', options.note));
    var pooledFrom = cards.filter(function (c) { return options.sessions && options.sessions.has(c.slug); });
    if (pooledFrom.length) {
      var list = el('ul', 'chart-note pooled-from');
      list.setAttribute('aria-label', 'Sessions behind each card');
      pooledFrom.forEach(function (c) {
        list.appendChild(el('li', '', charts.plainText(c.title) + ': ' + options.sessions.get(c.slug).join('; ')));
      });
      box.appendChild(el('p', 'chart-note', 'Sessions pooled into each bar:'));
      box.appendChild(list);
    }
    box.appendChild(table(cards, stat, parts.tests.map(labelOf), parts.ops, options.caption || 'Every subtest of every card', parts.tests));
    container.appendChild(box);

    function draw() {
      var test = select ? select.value : parts.tests[0];
      var order = ranked(cards, stat, test, parts.ops);
      var fig = figure(order, stat, test, parts.ops);
      cap.textContent = labelOf(test) + ': ' + parts.ops.join(' and ') + ', fastest ' + (parts.ops[0] || '') + ' first' +
        ' (n: runs behind each bar)';
      chart.setAttribute('aria-label', cap.textContent + ' (bar: mean; whisker: slowest to fastest run). The figures are in the table below.');
      chart.style.height = fig.layout.height + 'px';  // the box keeps its place while Plotly draws
      chart.removeAttribute('data-drawn');
      charts.later(chart, function () { return fig; });
    }
    if (select) select.addEventListener('change', draw);
    draw();
  }

  // Cards measured with different tests share no subtest: compare their headline figures instead,
  // naming the test behind each.
  var HEADLINES = [['Sequential', 'seq_read', 'seq_write'], ['Random 4K Q1', 'rnd4k_read', 'rnd4k_write']];

  function headlineStat(card, test, op) {
    var row = HEADLINES.filter(function (h) { return h[0] === test; })[0];
    var pick = row && card.headline ? card.headline[op === 'read' ? row[1] : row[2]] : null;
    if (!pick) return null;
    return { mb: { mean: pick.mb_s }, mib: { mean: pick.mib_s !== undefined ? pick.mib_s : pick.mb_s },
      basis: pick.basis || pick.from || '' };
  }

  function drawHeadlines(container, cards) {
    var subtests = [];
    HEADLINES.forEach(function (h) { subtests.push(h[0] + ' read', h[0] + ' write'); });
    drawSet(container, cards, subtests, {
      stat: headlineStat, testLabel: 'Figure', caption: 'Headline figures of every card',
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
      fetchCards(slugs).then(function (got) {
        drawSet(container, got.cards, suite.subtests, { caption: suite.name + ': every subtest', labels: suite.labels,
          sessions: sessions });
        if (got.bad.length) container.insertBefore(el('p', 'problem', 'Not found: ' + got.bad.join(', ') + '.'), container.firstChild);
      });
    }
    list = memberList(section, suite.cards, chosen, redraw);
    if ((suite.count || suite.cards.length) > suite.cards.length) memberAdder(section, suite, list, redraw);
    redraw();
  }

  // --- the reader's own set: ?cards=a,b,c in the address, editable with the picker ----------------

  function setupPicker() {
    var form = document.getElementById('pick-form');
    if (!form) return;
    var input = document.getElementById('pick-input');
    var options = document.getElementById('pick-options');
    var picked = document.getElementById('picked');
    var status = document.getElementById('pick-status');
    var container = document.getElementById('picked-charts');
    var params = new URLSearchParams(window.location.search);
    var slugs = (params.get('cards') || '').split(',').map(function (s) { return s.trim(); }).filter(Boolean)
      .filter(function (s, i, all) { return all.indexOf(s) === i; });
    var titles = new Map();
    var missing = [];
    function titleOf(slug) { return titles.get(slug) || slug; }

    function render() {
      picked.textContent = '';
      slugs.forEach(function (slug) {
        var li = el('li');
        var bad = missing.indexOf(slug) !== -1;
        li.appendChild(document.createTextNode(titleOf(slug) + ' '));
        if (bad) li.appendChild(el('span', 'problem', '(not found) '));
        var remove = el('button', '', 'remove');
        remove.type = 'button';
        remove.setAttribute('aria-label', 'Remove ' + titleOf(slug));
        remove.addEventListener('click', function () { slugs = slugs.filter(function (s) { return s !== slug; }); update(); });
        li.appendChild(remove);
        picked.appendChild(li);
      });
    }
    function update() {
      var url = new URL(window.location.href);
      if (slugs.length) url.searchParams.set('cards', slugs.join(',')); else url.searchParams.delete('cards');
      window.history.replaceState(window.history.state, '', url);
      render();
      if (!slugs.length) { container.textContent = ''; status.textContent = ''; return; }
      fetchCards(slugs, true).then(function (got) {
        var cards = got.cards;
        missing = got.bad;
        cards.forEach(function (c) { titles.set(c.slug, c.title); });
        render();
        status.textContent = missing.length
          ? 'No card is named ' + missing.map(function (s) { return '“' + s + '”'; }).join(', ') +
            ' — left out; ' + (cards.length ? 'the others are drawn.' : 'pick a card above.')
          : '';
        var shared = cards.length ? Object.keys(cards[0].pooled || {}).filter(function (s) {
          return cards.every(function (c) { return c.pooled && c.pooled[s] && c.pooled[s].mb_s; });
        }) : [];
        if (!cards.length) container.textContent = '';
        else if (cards.length > 1 && !shared.length) drawHeadlines(container, cards);
        else drawSet(container, cards, shared, { caption: 'Every subtest the picked cards share' });
      });
    }
    var submit = combobox(input, options, function (catalogue) { return catalogue.cards; }, function (slug, title) {
      titles.set(slug, title);
      if (slugs.indexOf(slug) === -1) slugs.push(slug);
      status.textContent = title + ' added.';
      update();
    });
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      submit(function (typed) { status.textContent = 'No card matches “' + typed + '”.'; });
    });
    if (slugs.length) update();
  }

  setupPicker();
  Array.prototype.forEach.call(document.querySelectorAll('.suite[data-suite]'), setupSuite);
})();
