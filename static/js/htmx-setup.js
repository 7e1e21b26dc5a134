/* Runs after htmx (both deferred, in order) and before htmx starts (DOMContentLoaded): htmx must not
   inject its indicator <style>, which the Content-Security-Policy would block (no inline styles); the
   same rules are in css/sotom.css. Nor may it copy a `style` attribute while settling a swap
   (htmx's default attributesToSettle has it): an input the browser had given an empty style="" got
   it set again, and the policy refused that too (a console error after tapping cards on Kiểm bài). */
(function () {
  "use strict";
  if (window.htmx) {
    window.htmx.config.includeIndicatorStyles = false;
    window.htmx.config.attributesToSettle = ["class", "width", "height"];
  }
})();
