/* What a person cannot see on the page as it is laid out now: a list of findings (empty when all
   is well). Evaluated in the page by tests/a11y/layout.py.
   - the page wider than the window (the whole page scrolls sideways);
   - text cut off: an element that hides what overflows it (overflow hidden or clip) while its
     content is wider or taller than its box, or text shortened with an ellipsis;
   - content spilling out of its box (a number wider than its card);
   - an element that sticks out of the window, unless it is inside a box that scrolls sideways
     (a wide table in its scrolling frame is not cut off: it scrolls) or placed wholly off screen on
     purpose (the "skip to content" link). */
(function () {
  "use strict";
  var out = [];
  var root = document.documentElement;
  var width = root.clientWidth;
  if (root.scrollWidth > width + 1) { out.push("the page is " + root.scrollWidth + " px wide in a " + width + " px window"); }

  function describe(el) {
    var name = el.tagName.toLowerCase();
    if (el.id) { name += "#" + el.id; }
    if (el.classList.length) { name += "." + Array.prototype.join.call(el.classList, "."); }
    var text = (el.innerText || el.value || "").replace(/\s+/g, " ").trim().slice(0, 40);
    return name + (text ? " «" + text + "»" : "");
  }
  function scrollsSideways(el) {
    for (var p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      var x = getComputedStyle(p).overflowX;
      if (x === "auto" || x === "scroll") { return true; }
    }
    return false;
  }
  var SKIP = /^(INPUT|SELECT|TEXTAREA|OPTION|SCRIPT|STYLE|CANVAS|SVG|IMG|VIDEO|IFRAME|BR|HTML|HEAD)$/;
  var all = document.body.querySelectorAll("*");
  for (var i = 0; i < all.length; i++) {
    var el = all[i];
    if (SKIP.test(el.tagName.toUpperCase()) || el.closest("svg")) { continue; }
    var style = getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden" || style.display === "contents") { continue; }
    var box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) { continue; }
    if (box.width <= 1 && box.height <= 1 && style.overflow === "hidden") { continue; }  // for screen readers only (.vh)
    if (style.position === "absolute" && parseFloat(style.opacity) === 0) { continue; }  // a native control under its picture
    var clipsX = style.overflowX === "hidden" || style.overflowX === "clip";
    var clipsY = style.overflowY === "hidden" || style.overflowY === "clip";
    var scrollsX = style.overflowX === "auto" || style.overflowX === "scroll";
    var inline = style.display === "inline";
    if (!inline && clipsX && el.scrollWidth > el.clientWidth + 1) {
      out.push("cut off sideways (" + el.scrollWidth + " > " + el.clientWidth + " px): " + describe(el));
    } else if (!inline && clipsY && el.scrollHeight > el.clientHeight + 2 && el.textContent.trim()) {
      out.push("cut off at the bottom (" + el.scrollHeight + " > " + el.clientHeight + " px): " + describe(el));
    } else if (!inline && !scrollsX && !clipsX && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      out.push("spills out of its box (" + el.scrollWidth + " > " + el.clientWidth + " px): " + describe(el));
    }
    if (style.textOverflow === "ellipsis" && el.scrollWidth > el.clientWidth) {
      out.push("shortened with …: " + describe(el));
    }
    if (box.right <= 0 || box.bottom <= 0) { continue; }  // off screen on purpose (the skip link)
    if ((box.right > width + 1 || box.left < -1) && style.position !== "fixed" && !scrollsSideways(el)) {
      out.push("sticks out of the " + width + " px window (" + Math.round(box.left) + "…" + Math.round(box.right) + "): " + describe(el));
    }
  }
  return out;
})()
