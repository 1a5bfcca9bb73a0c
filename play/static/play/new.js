// The new-table form shows only the seats and the AI level the chosen mode has, a seat's
// username only when the seat is an invited friend, and the deck or pool fields of the chosen
// format; without JavaScript every field shows, each saying which modes or formats read it.
(function () {
  "use strict";
  var mode = document.getElementById("id_mode");
  if (!mode) return;
  var fields = {
    opponent: ["duel", "free_for_all", "teams", "coop"],
    seat_c: ["free_for_all", "teams"],
    seat_d: ["free_for_all", "teams"],
    ai_level: ["solo", "coop"],
  };
  // By format: a Draft table takes a pool and no deck; a Preconstructed one no saved deck.
  var format = document.getElementById("id_format");
  var byFormat = {
    pool: ["draft"],
    preconstructed: ["preconstructed"],
    deck: ["constructed"],
    deck_search: ["constructed"],
    public_deck: ["constructed"],
    code: ["constructed"],
    mutation_session: ["mutation"],
  };
  function show() {
    Object.keys(fields).forEach(function (name) {
      var input = document.getElementById("id_" + name);
      if (input) input.parentElement.hidden = fields[name].indexOf(mode.value) < 0;
      var username = document.getElementById("id_" + name + "_username");
      if (input && username) {
        username.parentElement.hidden = input.parentElement.hidden || input.value !== "invite";
      }
    });
    Object.keys(byFormat).forEach(function (name) {
      var input = document.getElementById("id_" + name);
      if (input && format) input.parentElement.hidden = byFormat[name].indexOf(format.value) < 0;
    });
  }
  // Co-op offers only what can start (issue 29): its AI needs 48 cards of the players'
  // expansions that neither deck holds, which the preconstructed decks cannot leave; the
  // mode's help text says why. The Draft is chosen instead, and my decks too small are disabled.
  function coopOnly() {
    var coop = mode.value === "coop";
    if (format) {
      var precon = format.querySelector("option[value='preconstructed']");
      if (precon) precon.disabled = coop;
      if (coop && format.value === "preconstructed") format.value = "draft";
    }
    document.querySelectorAll("#id_deck option[data-coop='no']").forEach(function (option) {
      option.disabled = coop;
      if (coop && option.selected) option.parentElement.value = "";
    });
  }
  mode.addEventListener("change", function () {
    coopOnly();
    show();
  });
  coopOnly();
  if (format) format.addEventListener("change", show);
  ["opponent", "seat_c", "seat_d"].forEach(function (name) {
    var seat = document.getElementById("id_" + name);
    if (seat) seat.addEventListener("change", show);
  });
  show();
})();
