// Fetching and caching what the comparison draws: the card catalogue and each chosen card's piece.
import { catalogueUrl, piecesUrl } from './page.js';

// Keyed by slug: a Map, so a name such as "constructor" or "__proto__" is only ever a name.
var cache = new Map();
// A card's slug (data/schema/card.schema.json), or a slug and a path's number: nothing else is fetched.
var TOKEN_FORM = /^([a-z0-9][a-z0-9-]*[a-z0-9])(?:@([1-9][0-9]{0,2}))?$/;
var cataloguePromise = null;

// {suites: [suite id, …], cards: [[slug, title, [suite index, …], [path name, …]?], …]}
export function loadCatalogue() {
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
export function pathEntry(piece, number) {
  var path = piece.paths[number - 1];
  return { token: piece.slug + '@' + number, slug: piece.slug, title: path.title, label: path.label, labelSlug: path.label,
    bars: path.bars, headline: {}, opNames: piece.op_names, sessions: path.sessions, piece: piece };
}

// Every requested entry that loads, and the names that did not: one bad name never hides the rest.
// `checkListed`: names typed by a reader (the address) must be among the site's cards.
export function fetchEntries(tokens, checkListed) {
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
