// Comparison page: fetches only the chosen cards' statistics (/cards/<slug>/index.json) and draws
// averages, worsts and bests per subtest, for each suite and for the cards the reader picks.
// A suite embeds a few members by name; the catalogue of every card (slug, title, suites) is
// fetched once, when a reader first uses a picker, so the page stays light with thousands of cards.
(function () {
  'use strict';
  var charts = window.cardbenchCharts;
  var base = document.documentElement.getAttribute('data-base') || '/';
  var DEFAULT_MEMBERS = 8;
  var STATS = [
    { key: 'mean', title: 'Averages', note: 'Mean of all runs of each subtest.' },
    { key: 'min', title: 'Worsts', note: 'Slowest run of each subtest.' },
    { key: 'max', title: 'Bests', note: 'Fastest run of each subtest.' }
  ];
  var cache = {};
  var catalogueUrl = (document.getElementById('picker') || document.documentElement).getAttribute('data-catalogue');
  var cataloguePromise = null;

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

  // Fill a datalist with the titles of the given cards the first time its input is used.
  function fillOnFirstUse(input, datalist, pick) {
    var filled = false;
    function fill() {
      if (filled) return;
      filled = true;
      loadCatalogue().then(function (catalogue) {
        var fragment = document.createDocumentFragment();
        pick(catalogue).forEach(function (c) {
          var opt = document.createElement('option');
          opt.value = c[1];
          fragment.appendChild(opt);
        });
        datalist.appendChild(fragment);
      });
    }
    input.addEventListener('focus', fill);
    input.addEventListener('input', fill);
  }

  function fetchCard(slug) {
    if (!cache[slug]) {
      cache[slug] = fetch(base + 'cards/' + encodeURIComponent(slug) + '/index.json').then(function (r) {
        if (!r.ok) throw new Error('no data for card ' + slug);
        return r.json();
      });
    }
    return cache[slug];
  }

  function label(subtest) {
    var parts = subtest.split(' ');
    var op = parts.pop();
    return parts.join(' ') + ' ' + op.charAt(0).toUpperCase() + op.slice(1);
  }

  function figure(cards, subtests, stat) {
    var data = cards.map(function (card) {
      return {
        type: 'bar', orientation: 'h', name: charts.plainText(card.title),
        y: subtests.map(label),
        x: subtests.map(function (s) { var p = card.pooled[s]; return p && p.mb_s ? p.mb_s[stat] : null; }),
        texttemplate: '%{x:.0f}', textposition: 'outside', cliponaxis: false,
        hovertemplate: '%{y}: %{x:.1f} MB/s<extra>%{fullData.name}</extra>'
      };
    });
    var height = 90 + subtests.length * (10 + 16 * cards.length);
    return {
      data: data,
      layout: {
        barmode: 'group', height: height,
        xaxis: { title: { text: 'MB/s (10⁶ bytes/s)' }, rangemode: 'tozero' },
        yaxis: { autorange: 'reversed' },
        legend: { traceorder: 'normal' }
      }
    };
  }

  function drawSet(container, cards, subtests) {
    container.textContent = '';
    if (!cards.length || !subtests.length) {
      var p = document.createElement('p');
      p.className = 'chart-note';
      p.textContent = cards.length ? 'These cards share no subtest measured in MB/s.' : 'No card chosen.';
      container.appendChild(p);
      return;
    }
    STATS.forEach(function (stat) {
      var fig = document.createElement('figure');
      fig.className = 'chart-box';
      var cap = document.createElement('figcaption');
      cap.textContent = stat.title + ' — ' + stat.note;
      var el = document.createElement('div');
      el.className = 'chart';
      el.setAttribute('data-stat', stat.key);
      fig.appendChild(cap);
      fig.appendChild(el);
      container.appendChild(fig);
      charts.later(el, function () { return figure(cards, subtests, stat.key); });
    });
  }

  // Cards measured with different tools share no subtest: compare their headline means instead,
  // naming the subtest behind each bar.
  var HEADLINES = [['seq_read', 'Sequential read'], ['seq_write', 'Sequential write'],
    ['rnd4k_read', 'Random 4K read Q1'], ['rnd4k_write', 'Random 4K write Q1']];

  function drawHeadlines(container, cards) {
    container.textContent = '';
    var note = document.createElement('p');
    note.className = 'chart-note';
    note.textContent = 'These cards were measured with different tests, so they share no subtest. ' +
      'Below: each card\'s headline means (hover a bar for the test behind it) — a rough comparison only.';
    container.appendChild(note);
    var el = document.createElement('div');
    el.className = 'chart';
    container.appendChild(el);
    var data = cards.map(function (card) {
      return {
        type: 'bar', orientation: 'h', name: charts.plainText(card.title),
        y: HEADLINES.map(function (h) { return h[1]; }),
        x: HEADLINES.map(function (h) { var p = card.headline[h[0]]; return p ? p.mb_s : null; }),
        hovertext: HEADLINES.map(function (h) { var p = card.headline[h[0]]; return p ? charts.plainText(p.from) : 'not measured'; }),
        texttemplate: '%{x:.0f}', textposition: 'outside', cliponaxis: false,
        hovertemplate: '%{y}: %{x:.1f} MB/s<br>%{hovertext}<extra>%{fullData.name}</extra>'
      };
    });
    charts.later(el, function () {
      return { data: data, layout: { barmode: 'group', height: 120 + HEADLINES.length * 16 * cards.length,
        xaxis: { title: { text: 'MB/s (10⁶ bytes/s)' }, rangemode: 'tozero' }, yaxis: { autorange: 'reversed' } } };
    });
  }

  function memberItem(list, m, checked, onChange) {
    var li = document.createElement('li');
    var lab = document.createElement('label');
    var box = document.createElement('input');
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
    var list = document.createElement('ul');
    list.className = 'members';
    members.forEach(function (m) { memberItem(list, m, chosen.indexOf(m.slug) !== -1, onChange); });
    section.insertBefore(list, section.querySelector('.suite-charts'));
    return list;
  }

  // A suite with more members than it embeds: add any member by name from the catalogue.
  function memberAdder(section, suite, list, onChange) {
    var form = document.createElement('form');
    form.className = 'member-add';
    form.setAttribute('autocomplete', 'off');
    var id = 'suite-add-' + suite.id;
    var lab = document.createElement('label');
    lab.htmlFor = id;
    lab.textContent = 'Add one of the ' + suite.count + ' cards ';
    var input = document.createElement('input');
    input.id = id;
    input.setAttribute('list', id + '-options');
    input.placeholder = 'type a brand or model…';
    var options = document.createElement('datalist');
    options.id = id + '-options';
    var button = document.createElement('button');
    button.type = 'submit';
    button.textContent = 'Add';
    form.appendChild(lab);
    form.appendChild(input);
    form.appendChild(options);
    form.appendChild(button);
    section.insertBefore(form, section.querySelector('.suite-charts'));
    function members(catalogue) {
      var index = catalogue.suites.indexOf(suite.id);
      return catalogue.cards.filter(function (c) { return c[2].indexOf(index) !== -1; });
    }
    fillOnFirstUse(input, options, members);
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var wanted = input.value.trim();
      input.value = '';
      loadCatalogue().then(function (catalogue) {
        var found = members(catalogue).filter(function (c) { return c[1] === wanted || c[0] === wanted; })[0];
        if (!found || list.querySelector('input[value="' + found[0] + '"]')) return;
        memberItem(list, { slug: found[0], title: found[1] }, true, onChange);
        onChange();
      });
    });
  }

  function setupSuite(section) {
    var suite = JSON.parse(section.getAttribute('data-suite'));
    var container = section.querySelector('.suite-charts');
    var chosen = suite.cards.slice(0, DEFAULT_MEMBERS).map(function (m) { return m.slug; });
    var list;
    function redraw() {
      var slugs = Array.prototype.filter.call(list.querySelectorAll('input'), function (b) { return b.checked; })
        .map(function (b) { return b.value; });
      Promise.all(slugs.map(fetchCard)).then(function (cards) {
        drawSet(container, cards, suite.subtests);
      }).catch(function (err) { container.textContent = err.message; });
    }
    list = memberList(section, suite.cards, chosen, redraw);
    if ((suite.count || suite.cards.length) > suite.cards.length) memberAdder(section, suite, list, redraw);
    redraw();
  }

  // Reader's own set: ?cards=a,b,c in the address, editable with the picker.
  function setupPicker() {
    var form = document.getElementById('pick-form');
    if (!form) return;
    var input = document.getElementById('pick-input');
    var options = document.getElementById('pick-options');
    var picked = document.getElementById('picked');
    var container = document.getElementById('picked-charts');
    var params = new URLSearchParams(window.location.search);
    var slugs = (params.get('cards') || '').split(',').filter(Boolean);
    var titles = {};

    function render() {
      picked.textContent = '';
      slugs.forEach(function (slug) {
        var li = document.createElement('li');
        li.appendChild(document.createTextNode((titles[slug] || slug) + ' '));
        var remove = document.createElement('button');
        remove.type = 'button';
        remove.textContent = 'remove';
        remove.addEventListener('click', function () { slugs = slugs.filter(function (s) { return s !== slug; }); update(); });
        li.appendChild(remove);
        picked.appendChild(li);
      });
    }
    function update() {
      var url = new URL(window.location.href);
      if (slugs.length) url.searchParams.set('cards', slugs.join(',')); else url.searchParams.delete('cards');
      window.history.replaceState(null, '', url);
      render();
      Promise.all(slugs.map(fetchCard)).then(function (cards) {
        cards.forEach(function (c) { titles[c.slug] = c.title; });
        render();
        var shared = cards.length ? Object.keys(cards[0].pooled).filter(function (s) {
          return cards.every(function (c) { return c.pooled[s] && c.pooled[s].mb_s; });
        }) : [];
        if (cards.length > 1 && !shared.length) drawHeadlines(container, cards);
        else drawSet(container, cards, shared);
      }).catch(function (err) { container.textContent = err.message; });
    }
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var wanted = input.value.trim();
      input.value = '';
      loadCatalogue().then(function (catalogue) {
        var entry = catalogue.cards.filter(function (c) { return c[1] === wanted || c[0] === wanted; })[0];
        if (entry && slugs.indexOf(entry[0]) === -1) {
          titles[entry[0]] = entry[1];
          slugs.push(entry[0]);
        }
        update();
      });
    });
    fillOnFirstUse(input, options, function (catalogue) { return catalogue.cards; });
    if (slugs.length) update();
  }

  setupPicker();
  Array.prototype.forEach.call(document.querySelectorAll('.suite[data-suite]'), setupSuite);
})();
