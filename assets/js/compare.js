// The comparison page's script: sets up the reader's own picker and each suite (its parts in js/compare/).
// It fetches only the chosen cards' bars (/compare/cards/<slug>.json, written finished by
// cardbench aggregate: means, whiskers, hover fields and table texts in MB/s and MiB/s) and puts them
// into the chart frame the page carries (data-chart): a bar per card and direction at its mean, a whisker
// from its worst to its best run, cards ranked fastest first; one test at a time (a menu picks it), every
// figure in a table below. It computes no figure: it joins, ranks and picks the unit's values.
// A suite embeds a few members by name; the catalogue of every card (slug, title, suites, paths) is
// fetched once, when a reader first uses a picker, so the page stays light with thousands of cards.
// A card read through several (host, reader) paths can be picked per path (slug@n in the address);
// a card picked alone is drawn path by path.
// Hugo bundles these ES modules into one script (layouts/_partials/lib/bundle.html).
'use strict';

import { setupPicker } from './compare/picker.js';
import { setupSuite } from './compare/suites.js';

setupPicker();
Array.prototype.forEach.call(document.querySelectorAll('.suite[data-suite]'), setupSuite);
