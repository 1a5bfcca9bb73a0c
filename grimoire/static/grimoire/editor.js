// The puzzle editor's drawn board. The board itself is the server's (the check panel, drawn
// from the form at each change); this script only adds buttons to it and writes the form's
// fields: choose a card, then a place (a line or a hand) to put it there; select a card of the
// board to set its damage, move it or remove it, and a creature's Symbiote, the card enchained
// under it (each chosen in the card search) and its marks (entered this turn, Protection used):
// the fields of its slot's "More". Every edit is a change of the form, which htmx
// checks and draws again, and which Save submits as typed: without this script the form is the
// editor. Where the board's nth card of a place is in the form: the nth slot of that place that
// holds a card the board knows (the catalogue's or a custom card; an unknown name is left out of
// the board and stays in its field, where its problem is named).
(function () {
  "use strict";
  var LINES = ["top", "bottom"];
  var SLOTS = { hand: 10, line: 4 };
  // A creature's fields beyond its card: moved with it from line to line.
  var PARTS = ["card", "damage", "new", "protection_used", "symbiote", "enchained"];

  function fill(message, card, place, host) {
    return message
      .replace("{card}", card)
      .replace("{place}", place || "")
      .replace("{host}", host || "");
  }

  function folded(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  function start(tools) {
    var form = tools.closest("form");
    var dock = form.querySelector("[data-editor-dock]");
    var places = JSON.parse(tools.dataset.places);
    var search = tools.querySelector("#editor-search");
    var found = tools.querySelector(".editor-found");
    var selectedBox = dock.querySelector(".editor-selected");
    var damage = dock.querySelector("#editor-damage");
    var creatureBox = dock.querySelector(".editor-creature");
    var status = dock.querySelector(".editor-status");
    // chosen: a card to put ({name, label, kind}); selected: a slot of the form ("a_top_1",
    // "b_hand_0") whose card the board shows; moving: the selected card waits for its place;
    // attaching: the selected creature's field ("symbiote", "enchained") that the next card
    // chosen in the search fills.
    var state = { chosen: null, selected: null, moving: false, attaching: null };
    var drawn = null;

    function isHand(place) {
      return /_hand$/.test(place);
    }
    function placeOf(slot) {
      return slot.replace(/_\d+$/, "");
    }
    function field(name) {
      return form.elements.namedItem(name);
    }
    function cardField(slot) {
      return field(isHand(placeOf(slot)) ? slot : slot + "_card");
    }

    // The page's list of the catalogue's cards (the form's fields suggest them too).
    var listed = Array.prototype.map.call(document.querySelectorAll("#cards option"), function (o) {
      return { name: o.value, label: o.textContent, kind: o.dataset.kind };
    });
    function catalogue() {
      return listed;
    }
    function customs() {
      var cards = [];
      for (var index = 0; field("custom_" + index + "_name"); index++) {
        var name = field("custom_" + index + "_name").value.trim();
        if (name) {
          var kind = field("custom_" + index + "_type").value || "creature";
          cards.push({ name: name, label: name, kind: kind });
        }
      }
      return cards;
    }
    function known(name) {
      var all = customs().concat(catalogue());
      for (var i = 0; i < all.length; i++) {
        if (all[i].name === name) return all[i];
      }
      return null;
    }
    function labelOf(name) {
      var card = known(name);
      return card ? card.label : name;
    }

    function read(slot) {
      if (isHand(placeOf(slot))) return { card: field(slot).value.trim() };
      var entry = {};
      PARTS.forEach(function (part) {
        var input = field(slot + "_" + part);
        entry[part] = input.type === "checkbox" ? input.checked : input.value.trim();
      });
      return entry;
    }
    function writeSlot(slot, entry) {
      if (isHand(placeOf(slot))) {
        field(slot).value = entry ? entry.card : "";
        return;
      }
      PARTS.forEach(function (part) {
        var input = field(slot + "_" + part);
        var value = entry ? entry[part] : "";
        if (input.type === "checkbox") input.checked = Boolean(value);
        else input.value = value || "";
      });
    }
    function count(place) {
      return isHand(place) ? SLOTS.hand : SLOTS.line;
    }
    // The place's cards left to right, each with its slot, gaps closed up.
    function entries(place) {
      var list = [];
      for (var index = 0; index < count(place); index++) {
        var entry = read(place + "_" + index);
        if (entry.card) list.push({ slot: place + "_" + index, entry: entry });
      }
      return list;
    }
    function write(place, list) {
      for (var index = 0; index < count(place); index++) {
        writeSlot(place + "_" + index, list[index] ? list[index].entry : null);
      }
    }
    // The slots of the cards the board draws for `place`, in its order.
    function drawnSlots(place) {
      return entries(place)
        .filter(function (item) {
          return known(item.entry.card) !== null;
        })
        .map(function (item) {
          return item.slot;
        });
    }

    function say(message) {
      status.textContent = message;
    }
    // A change of the form: htmx checks it and draws the board again; until then the board's
    // buttons would point at the slots as they were.
    function changed(input) {
      var board = document.querySelector("#editor-check .board");
      if (board) board.classList.add("is-stale");
      clearButtons();
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }

    // Why `entry` cannot go to `place` (null: it can), `from` the place it leaves.
    function refusal(place, entry, from) {
      if (!isHand(place)) {
        var card = known(entry.card);
        if (card && card.kind === "incantation") return tools.dataset.notCreature;
      }
      if (place !== from && entries(place).length >= count(place)) {
        return isHand(place) ? tools.dataset.fullHand : tools.dataset.fullLine;
      }
      return null;
    }
    // Take the card of `slot` out of its place; a hand's card to the left of its Stronghold
    // keeps the Stronghold's hit points (the cards to its right).
    function take(slot) {
      var place = placeOf(slot);
      var list = entries(place);
      var at = list.findIndex(function (item) {
        return item.slot === slot;
      });
      list.splice(at, 1);
      write(place, list);
      if (isHand(place)) {
        var left = field(place.replace("_hand", "_stronghold_at"));
        if (at < Number(left.value)) left.value = Number(left.value) - 1;
      }
    }
    // Put `entry` last in `place` (a hand's card to the right of its Stronghold: one more hit
    // point); the slot it took.
    function put(place, entry) {
      var list = entries(place);
      var full = {};
      if (isHand(place)) {
        full = { card: entry.card };
      } else {
        PARTS.forEach(function (part) {
          full[part] = entry[part] || "";
        });
      }
      list.push({ entry: full });
      write(place, list);
      return place + "_" + (list.length - 1);
    }

    function placeClicked(place) {
      var entry;
      var from = null;
      if (state.moving && state.selected) {
        entry = read(state.selected);
        from = placeOf(state.selected);
        // A creature's damage and marks stay on the board; in a hand it is a card again.
        if (isHand(place) || isHand(from)) entry = { card: entry.card };
      } else if (state.chosen) {
        entry = { card: state.chosen.name };
      } else {
        return;
      }
      var refused = refusal(place, entry, from);
      if (refused) {
        say(refused);
        return;
      }
      if (from) take(state.selected);
      var slot = put(place, entry);
      state.chosen = null;
      state.moving = false;
      // A creature put on a line is selected, its damage next; a card in a hand is done.
      state.selected = isHand(place) ? null : slot;
      state.focus = "select:" + slot;
      say(fill(tools.dataset.placed, labelOf(entry.card), places[place]));
      showSelected(false);
      showFound();
      changed(cardField(slot));
    }

    function showSelected(announce) {
      var entry = state.selected ? read(state.selected) : null;
      if (!entry || !entry.card) {
        state.selected = null;
        selectedBox.hidden = true;
        return;
      }
      var text = fill(tools.dataset.selected, labelOf(entry.card), places[state.selected]);
      selectedBox.querySelector(".editor-selected-name").textContent = text;
      var creature = !isHand(placeOf(state.selected));
      damage.closest(".editor-damage").hidden = !creature;
      damage.value = creature ? entry.damage || "0" : "";
      creatureBox.hidden = !creature;
      if (creature) showMarks(entry);
      selectedBox.hidden = false;
      // The panel's own words say what is selected (a live region): the status is for what
      // happens next.
      if (announce) say("");
    }

    // The selected creature's marks and the cards attached to it, as its fields hold them.
    function showMarks(entry) {
      creatureBox.querySelectorAll("[data-editor-flag]").forEach(function (flag) {
        flag.setAttribute("aria-pressed", String(Boolean(entry[flag.dataset.editorFlag])));
      });
      ["symbiote", "enchained"].forEach(function (part) {
        var name = entry[part];
        var text = name
          ? fill(tools.dataset[part], labelOf(name))
          : tools.dataset[part === "symbiote" ? "noSymbiote" : "noEnchained"];
        creatureBox.querySelector('[data-editor-shows="' + part + '"]').textContent = text;
        creatureBox.querySelector('[data-editor-detach="' + part + '"]').hidden = !name;
      });
    }
    // The card chosen in the search goes onto the selected creature: its Symbiote, or the card
    // enchained under it.
    function attach(card) {
      var slot = state.selected;
      var part = state.attaching;
      var input = field(slot + "_" + part);
      input.value = card.name;
      state.attaching = null;
      var host = labelOf(read(slot).card);
      var key = part === "symbiote" ? "attachedSymbiote" : "attachedEnchained";
      say(fill(tools.dataset[key], card.label, "", host));
      state.focus = "select:" + slot;
      showSelected(false);
      showFound();
      changed(input);
    }

    function button(text, label, key, pressed) {
      var element = document.createElement("button");
      element.type = "button";
      element.textContent = text;
      element.setAttribute("aria-label", label);
      element.dataset.editorKey = key;
      if (pressed !== undefined) element.setAttribute("aria-pressed", String(pressed));
      return element;
    }
    function clearButtons() {
      document.querySelectorAll("#editor-check [data-editor-added]").forEach(function (element) {
        element.remove();
      });
    }
    function addSelect(card, slot) {
      if (!slot) return;
      var name = labelOf(read(slot).card);
      var label = fill(tools.dataset.select, name, places[slot]);
      var pressed = state.selected === slot;
      var select = button(tools.dataset.selectText, label, "select:" + slot, pressed);
      select.className = "editor-select";
      select.dataset.editorAdded = "";
      select.addEventListener("click", function () {
        state.selected = state.selected === slot ? null : slot;
        state.chosen = null;
        state.moving = false;
        state.attaching = null;
        showSelected(true);
        showFound();
        decorate();
        if (state.selected && !damage.closest(".editor-damage").hidden) damage.focus();
      });
      card.classList.toggle("is-selected", pressed);
      card.appendChild(select);
    }
    function addPlace(list, place) {
      var name = state.moving ? labelOf(read(state.selected).card) : state.chosen.label;
      var item = document.createElement("li");
      item.className = "editor-place";
      item.dataset.editorAdded = "";
      var here = button(tools.dataset.here, fill(tools.dataset.put, name, places[place]), "place:" + place);
      here.addEventListener("click", function () {
        placeClicked(place);
      });
      item.appendChild(here);
      list.appendChild(item);
    }
    // The board's buttons, for the board drawn now: a select button on each card, and while a
    // card waits for its place, a button at the end of each line and hand.
    function decorate() {
      var check = document.getElementById("editor-check");
      drawn = check;
      clearButtons();
      var board = check && check.querySelector(".board");
      if (!board) return;
      var waiting = Boolean(state.chosen || (state.moving && state.selected));
      board.querySelectorAll(".board-line").forEach(function (line, number) {
        line.querySelectorAll(".board-half").forEach(function (half) {
          var place = half.dataset.seat.toLowerCase() + "_" + LINES[number];
          var slots = drawnSlots(place);
          half.querySelectorAll(":scope > .board-creature").forEach(function (creature, index) {
            addSelect(creature, slots[index]);
          });
          if (waiting) addPlace(half, place);
        });
      });
      board.querySelectorAll(".board-seat").forEach(function (seat) {
        var hand = seat.querySelector(".board-hand");
        if (!hand) return;
        var place = seat.dataset.seat.toLowerCase() + "_hand";
        var slots = drawnSlots(place);
        hand.querySelectorAll(":scope > .play-card").forEach(function (card, index) {
          addSelect(card, slots[index]);
        });
        if (waiting) addPlace(hand, place);
      });
      if (state.focus) {
        var target = board.querySelector('[data-editor-key="' + state.focus + '"]');
        if (target) {
          target.focus();
          state.focus = null;
        }
      }
    }

    function showFound() {
      var query = folded(search.value.trim());
      var cards = query
        ? customs()
            .concat(catalogue())
            .filter(function (card) {
              return folded(card.label).includes(query) || folded(card.name).includes(query);
            })
            .slice(0, 12)
        : customs();
      found.replaceChildren();
      if (query && !cards.length) {
        var none = document.createElement("li");
        none.textContent = tools.dataset.noneFound;
        found.appendChild(none);
      }
      cards.forEach(function (card) {
        var item = document.createElement("li");
        var chosen = Boolean(state.chosen && state.chosen.name === card.name);
        var choose = button(card.label, card.label, "choose:" + card.name, chosen);
        choose.removeAttribute("aria-label");
        choose.addEventListener("click", function () {
          if (state.attaching && state.selected) {
            attach(card);
            return;
          }
          state.chosen = chosen ? null : card;
          state.selected = null;
          state.moving = false;
          showSelected(false);
          showFound();
          decorate();
          if (state.chosen) {
            say(fill(tools.dataset.chosen, card.label));
            var first = document.querySelector("#editor-check .editor-place button");
            if (first) first.focus();
          }
        });
        item.appendChild(choose);
        found.appendChild(item);
      });
    }

    search.addEventListener("input", showFound);
    // The tools' own inputs have no name: their changes are not the form's, and a check they
    // sent would draw the board again under the keyboard's focus.
    [search, damage].forEach(function (input) {
      input.addEventListener("change", function (event) {
        event.stopPropagation();
      });
    });
    // A check drawn while a button of the board has the focus: the new board's same button
    // takes it.
    document.addEventListener("htmx:beforeSwap", function () {
      var active = document.activeElement;
      if (active && active.dataset && active.dataset.editorKey && active.closest("#editor-check")) {
        state.focus = state.focus || active.dataset.editorKey;
      }
    });
    // Enter in the search or the damage must not submit the form (its first button is Save).
    search.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") return;
      event.preventDefault();
      var first = found.querySelector("button");
      if (first) first.click();
    });
    damage.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") return;
      event.preventDefault();
      damage.dispatchEvent(new Event("change"));
    });
    damage.addEventListener("change", function () {
      if (!state.selected || isHand(placeOf(state.selected))) return;
      var input = field(state.selected + "_damage");
      var value = Math.max(0, Math.floor(Number(damage.value) || 0));
      input.value = value ? String(value) : "";
      state.focus = null;
      changed(input);
    });
    creatureBox.querySelectorAll("[data-editor-flag]").forEach(function (flag) {
      flag.addEventListener("click", function () {
        if (!state.selected || isHand(placeOf(state.selected))) return;
        var input = field(state.selected + "_" + flag.dataset.editorFlag);
        input.checked = !input.checked;
        flag.setAttribute("aria-pressed", String(input.checked));
        state.focus = null;
        changed(input);
      });
    });
    creatureBox.querySelectorAll("[data-editor-attach]").forEach(function (attaching) {
      attaching.addEventListener("click", function () {
        if (!state.selected || isHand(placeOf(state.selected))) return;
        var part = attaching.dataset.editorAttach;
        state.attaching = part;
        state.chosen = null;
        state.moving = false;
        var key = part === "symbiote" ? "attachingSymbiote" : "attachingEnchained";
        say(fill(tools.dataset[key], labelOf(read(state.selected).card)));
        decorate();
        search.focus();
      });
    });
    creatureBox.querySelectorAll("[data-editor-detach]").forEach(function (detach) {
      detach.addEventListener("click", function () {
        if (!state.selected || isHand(placeOf(state.selected))) return;
        var input = field(state.selected + "_" + detach.dataset.editorDetach);
        input.value = "";
        state.attaching = null;
        state.focus = null;
        showSelected(false);
        say("");
        changed(input);
        creatureBox.querySelector('[data-editor-attach="' + detach.dataset.editorDetach + '"]').focus();
      });
    });
    dock.querySelector("[data-editor-move]").addEventListener("click", function () {
      if (!state.selected) return;
      state.moving = true;
      state.attaching = null;
      state.chosen = null;
      say(fill(tools.dataset.moving, labelOf(read(state.selected).card)));
      decorate();
      var first = document.querySelector("#editor-check .editor-place button");
      if (first) first.focus();
    });
    dock.querySelector("[data-editor-remove]").addEventListener("click", function () {
      if (!state.selected) return;
      var slot = state.selected;
      var name = labelOf(read(slot).card);
      take(slot);
      state.selected = null;
      state.moving = false;
      state.attaching = null;
      showSelected(false);
      say(fill(tools.dataset.removed, name));
      search.focus();
      changed(cardField(slot));
    });
    dock.querySelector("[data-editor-cancel]").addEventListener("click", function () {
      state.selected = null;
      state.moving = false;
      state.attaching = null;
      showSelected(false);
      decorate();
      search.focus();
    });
    // The check panel is swapped by htmx after each change: its new board gets its buttons,
    // and a form typed by hand updates the selection.
    new MutationObserver(function () {
      if (document.getElementById("editor-check") !== drawn) {
        showSelected(false);
        decorate();
      }
    }).observe(form, { childList: true, subtree: true });

    tools.hidden = false;
    dock.hidden = false;
    showFound();
    decorate();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var tools = document.querySelector("[data-editor-tools]");
    if (tools) start(tools);
  });
})();
