/* The scripts' text is Vietnamese; Django's JavaScript catalog (/jsi18n/, loaded just before this
 * file) gives `gettext` and `interpolate` in the page's language. Without a catalog (a page opened
 * offline before one was kept) they fall back to the Vietnamese text, so a script never stops on it. */
(function () {
  "use strict";
  if (typeof window.gettext !== "function") {
    window.gettext = function (text) { return text; };
  }
  if (typeof window.ngettext !== "function") {
    window.ngettext = function (one, many, n) { return n === 1 ? one : many; };
  }
  if (typeof window.interpolate !== "function") {
    window.interpolate = function (format, values, named) {
      if (named) return format.replace(/%\(\w+\)s/g, function (m) { return String(values[m.slice(2, -2)]); });
      var i = 0;
      return format.replace(/%s/g, function () { return String(values[i++]); });
    };
  }
})();
