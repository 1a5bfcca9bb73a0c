// The new-table form shows only the seats and the AI level the chosen mode has; without
// JavaScript every field shows, each saying which modes read it.
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
  function show() {
    Object.keys(fields).forEach(function (name) {
      var input = document.getElementById("id_" + name);
      if (input) input.parentElement.hidden = fields[name].indexOf(mode.value) < 0;
    });
  }
  mode.addEventListener("change", show);
  show();
})();
