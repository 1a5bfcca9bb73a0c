// The new-table form shows only the seats and the AI level the chosen mode has, and the deck
// or pool fields of the chosen format; without JavaScript every field shows, each saying which
// modes or formats read it.
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
    code: ["constructed"],
    mutation_session: ["mutation"],
  };
  function show() {
    Object.keys(fields).forEach(function (name) {
      var input = document.getElementById("id_" + name);
      if (input) input.parentElement.hidden = fields[name].indexOf(mode.value) < 0;
    });
    Object.keys(byFormat).forEach(function (name) {
      var input = document.getElementById("id_" + name);
      if (input && format) input.parentElement.hidden = byFormat[name].indexOf(format.value) < 0;
    });
  }
  mode.addEventListener("change", show);
  if (format) format.addEventListener("change", show);
  show();
})();
