// Loose matching of a typed name against card titles and slugs, best match first.

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

// The catalogue's cards ([slug, title, …]) that `query` names, best first (ties by title).
export function matches(query, cards) {
  var scored = cards.map(function (c) { return { card: c, score: score(query, c[1], c[0]) }; })
    .filter(function (m) { return m.score >= 0; });
  scored.sort(function (a, b) { return b.score - a.score || (a.card[1] < b.card[1] ? -1 : a.card[1] > b.card[1] ? 1 : 0); });
  return scored.map(function (m) { return m.card; });
}
