/* Runs after htmx (both deferred, in order) and before htmx starts (DOMContentLoaded): htmx must not
   inject its indicator <style>, which the Content-Security-Policy would block (no inline styles); the
   same rules are in css/sotom.css. */
(function () {
  "use strict";
  if (window.htmx) { window.htmx.config.includeIndicatorStyles = false; }
})();
