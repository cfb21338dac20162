// What the comparison page gives its script: the site's base, the picker's data attributes, the unit shown.
export var charts = window.cardbenchCharts;
export var base = document.documentElement.getAttribute('data-base') || '/';
var picker = document.getElementById('picker') || document.documentElement;
export var catalogueUrl = picker.getAttribute('data-catalogue');
export var piecesUrl = picker.getAttribute('data-cards') || base + 'compare/cards/';
// The frame every comparison chart shares (layout, hover templates, whisker style, heights).
export var frame = JSON.parse(picker.getAttribute('data-chart') || 'null');

export function unit() { return window.cardbenchUnits ? window.cardbenchUnits.current() : 'mb'; }
