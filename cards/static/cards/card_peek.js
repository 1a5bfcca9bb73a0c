// A card drawn small (a table's board, hand, discard, draft) shows its whole face and rules text
// on hover, on keyboard focus or on a long press (touch): its name is a button whose data-peek
// names the fragment to show (cards.views.card_peek). The fragment is fetched on demand, once per
// card for the page's life (the browser's cache keeps it across pages), rather than written into
// every board the table sends after each action. A click on the name (or a long press) keeps the
// face open (aria-expanded) until Escape, another click or a click elsewhere; the face goes right
// after the name in the page, so that Tab reaches its link to the card page. Delegated from the
// document: boards swapped in by htmx need nothing more.
(function () {
  "use strict";
  var LONG_PRESS_MS = 450;
  var MARGIN = 8;
  var GAP = 4;
  var fragments = {};
  var popup = null;
  var shownFor = null;
  var pinned = false;
  var pressTimer = null;
  var pressed = false;
  // Escape sent the focus back to the name: that focus does not open the face again.
  var returning = false;

  function fragment(url) {
    if (!fragments[url]) {
      fragments[url] = window.fetch(url, { credentials: "same-origin" }).then(function (response) {
        if (!response.ok) { throw new Error(String(response.status)); }
        return response.text();
      });
      fragments[url].catch(function () { delete fragments[url]; });
    }
    return fragments[url];
  }
  function box() {
    if (!popup) {
      popup = document.createElement("div");
      popup.id = "card-peek";
      popup.className = "card-peek-popup";
      popup.setAttribute("role", "tooltip");
      popup.hidden = true;
    }
    return popup;
  }
  // Fixed under or over the name, inside the viewport: it never widens nor scrolls the page,
  // and never covers the name (where there is no room for all of it, it scrolls).
  function place(trigger) {
    popup.style.maxHeight = "";
    var around = trigger.getBoundingClientRect();
    var width = popup.offsetWidth;
    var height = popup.offsetHeight;
    var right = document.documentElement.clientWidth - MARGIN;
    var below = window.innerHeight - MARGIN - (around.bottom + GAP);
    var above = around.top - GAP - MARGIN;
    var top;
    if (height <= below || below >= above) {
      top = around.bottom + GAP;
      if (height > below) { popup.style.maxHeight = below + "px"; }
    } else {
      if (height > above) { popup.style.maxHeight = above + "px"; }
      top = around.top - GAP - Math.min(height, above);
    }
    popup.style.left = Math.max(MARGIN, Math.min(around.left, right - width)) + "px";
    popup.style.top = top + "px";
  }
  function hide() {
    if (shownFor) {
      shownFor.removeAttribute("aria-describedby");
      shownFor.setAttribute("aria-expanded", "false");
    }
    if (popup) { popup.hidden = true; }
    shownFor = null;
    pinned = false;
  }
  function show(trigger, pin) {
    if (shownFor && shownFor !== trigger) { hide(); }
    shownFor = trigger;
    pinned = pinned || pin;
    trigger.setAttribute("aria-expanded", pinned ? "true" : "false");
    fragment(trigger.dataset.peek).then(function (html) {
      if (shownFor !== trigger || !document.body.contains(trigger)) { return; }
      var element = box();
      // The site's own fragment, every value in it escaped by the template engine.
      element.innerHTML = html;
      trigger.insertAdjacentElement("afterend", element);
      element.hidden = false;
      trigger.setAttribute("aria-describedby", element.id);
      place(trigger);
    }, function () { if (shownFor === trigger) { hide(); } });
  }
  function peekOf(target) {
    return target instanceof Element ? target.closest("[data-peek]") : null;
  }
  function inPopup(target) {
    return popup !== null && target instanceof Node && popup.contains(target);
  }
  document.addEventListener("mouseover", function (event) {
    var trigger = peekOf(event.target);
    if (trigger && !pinned) { show(trigger, false); }
  });
  document.addEventListener("mouseout", function (event) {
    if (pinned || !shownFor) { return; }
    var from = event.target;
    var to = event.relatedTarget;
    if ((peekOf(from) === shownFor || inPopup(from)) && peekOf(to) !== shownFor && !inPopup(to)) { hide(); }
  });
  document.addEventListener("focusin", function (event) {
    var trigger = peekOf(event.target);
    if (trigger && trigger !== shownFor && !returning) { show(trigger, false); }
  });
  document.addEventListener("focusout", function (event) {
    if (!shownFor || pinned) { return; }
    if (peekOf(event.relatedTarget) !== shownFor && !inPopup(event.relatedTarget)) { hide(); }
  });
  document.addEventListener("click", function (event) {
    if (pressed) {
      // The click that ends a long press: the face stays open, the card is not chosen.
      pressed = false;
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    var trigger = peekOf(event.target);
    if (trigger) {
      event.preventDefault();
      if (pinned && shownFor === trigger) { hide(); } else { pinned = false; show(trigger, true); }
    } else if (shownFor && !inPopup(event.target)) {
      hide();
    }
  }, true);
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !shownFor) { return; }
    var back = inPopup(document.activeElement) ? shownFor : null;
    hide();
    if (back) {
      returning = true;
      back.focus();
      returning = false;
    }
  });
  // A long press on a card (touch): its face, kept open.
  document.addEventListener("pointerdown", function (event) {
    if (event.pointerType !== "touch" || !(event.target instanceof Element)) { return; }
    var card = event.target.closest(".board-card");
    var trigger = peekOf(event.target) || (card && card.querySelector("[data-peek]"));
    if (!trigger) { return; }
    window.clearTimeout(pressTimer);
    pressTimer = window.setTimeout(function () {
      pressed = true;
      pinned = false;
      show(trigger, true);
    }, LONG_PRESS_MS);
  });
  ["pointerup", "pointercancel", "pointermove"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (name !== "pointermove" || event.pointerType === "touch") { window.clearTimeout(pressTimer); }
    });
  });
  document.addEventListener("contextmenu", function (event) {
    if (pressed || (event.target instanceof Element && event.target.closest("[data-peek]"))) { event.preventDefault(); }
  });
  // A board swapped in (htmx) takes the face away with the old board.
  document.addEventListener("htmx:beforeSwap", function () { hide(); });
})();
