// What happened since the page's last board, played out on the board (play/_playback.html): each
// step of the log in its order shows its board (the board before an Assault's action while it is
// played out, the board after any other action), marks the creature that attacks and the one it
// attacks, shows the damage dealt, removes the creature that leaves its line and moves the
// Stronghold's HP. Play, Pause, Step, Step back, Skip and the speed (kept in the browser) set the
// pace; the buttons and the step's words sit in a box of fixed size and the board keeps the
// height of its tallest step, so the page never moves. With reduced motion the board shows the end at once and the steps stay listed.
(function () {
  "use strict";
  function cards(board, ids) {
    var found = [];
    (ids || "").split(" ").forEach(function (id) {
      if (id) {
        board.querySelectorAll('.board-card[data-card="' + id + '"]').forEach(function (card) {
          found.push(card);
        });
      }
    });
    return found;
  }
  var SPEED_KEY = "cod_site.playback_speed";
  function setHp(board, seat, hp) {
    var kingdom = board.querySelector('.board-seat[data-seat="' + seat + '"]');
    if (!kingdom) { return; }
    kingdom.querySelectorAll(".board-stronghold, .board-stronghold-card .board-card-stats")
      .forEach(function (stronghold) {
        // Its words as the board drew them, for the page's own board to show them again.
        if (!("playbackText" in stronghold.dataset)) { stronghold.dataset.playbackText = stronghold.textContent; }
        stronghold.textContent = stronghold.textContent.replace(/\d+(?=\D*$)/, hp);
        stronghold.classList.add("is-step-hit");
      });
  }
  // A step's marks on the board it shows (the marks of the steps before it on that board stay).
  function mark(board, step) {
    var data = step.dataset;
    board.querySelectorAll(".is-attacking, .is-attacked, .is-step, .is-step-hit").forEach(function (card) {
      card.classList.remove("is-attacking", "is-attacked", "is-step", "is-step-hit");
    });
    cards(board, data.attacker).forEach(function (card) { card.classList.add("is-attacking"); });
    cards(board, data.target).forEach(function (card) { card.classList.add("is-attacked"); });
    cards(board, data.cards).forEach(function (card) { card.classList.add("is-step"); });
    cards(board, data.hit).forEach(function (card) {
      card.classList.add("is-attacked");
      var hit = document.createElement("span");
      hit.className = "playback-hit";
      hit.textContent = "−" + data.amount;
      card.appendChild(hit);
      if (data.note) {
        var note = card.querySelector(".board-damage");
        if (!note) {
          note = document.createElement("span");
          note.className = "board-damage";
          card.querySelector(".board-card-stats").appendChild(note);
        }
        note.textContent = data.note;
      }
    });
    cards(board, data.gone).forEach(function (card) {
      if (card.classList.contains("board-creature")) { card.hidden = true; }
    });
    if (data.stronghold) { setHp(board, data.stronghold, data.hp); }
  }
  // The page's own board without the marks of the steps (a step's board is drawn anew each time
  // from its template: the page's own board holds the forms, it stays the same element).
  function unmark(board) {
    board.querySelectorAll(".is-attacking, .is-attacked, .is-step, .is-step-hit").forEach(function (card) {
      card.classList.remove("is-attacking", "is-attacked", "is-step", "is-step-hit");
    });
    board.querySelectorAll(".playback-hit").forEach(function (hit) { hit.remove(); });
    board.querySelectorAll(".board-creature[hidden]").forEach(function (card) { card.hidden = false; });
    board.querySelectorAll("[data-playback-text]").forEach(function (stronghold) {
      stronghold.textContent = stronghold.dataset.playbackText;
      delete stronghold.dataset.playbackText;
    });
  }
  function storedSpeed() {
    try { return window.localStorage.getItem(SPEED_KEY); } catch (error) { return null; }
  }
  function storeSpeed(speed) {
    try { window.localStorage.setItem(SPEED_KEY, speed); } catch (error) { /* private mode: this page only */ }
  }
  function play(root) {
    var bar = root.querySelector(".playback");
    var list = root.querySelector(".playback-steps");
    var stage = root.querySelector(".play-stage");
    if (!bar || !list || !stage) { return; }
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) {
      list.open = true;
      return;
    }
    var steps = list.querySelectorAll("li");
    var live = stage.querySelector(".board");
    var text = bar.querySelector(".playback-text");
    var backButton = bar.querySelector(".playback-back");
    var playButton = bar.querySelector(".playback-play");
    var stepButton = bar.querySelector(".playback-step");
    var skipButton = bar.querySelector(".playback-skip");
    var speedChoice = bar.querySelector(".playback-speed");
    var speed = speedChoice.querySelector("select");
    var at = -1;
    var shownNumber = null;
    var shown = live;
    var timer = null;
    var tallest = 0;
    // A step's board, drawn anew (`number` null: the page's own board).
    function show(number) {
      var template = bar.querySelector('template[data-board="' + number + '"]');
      if (shown !== live) { shown.remove(); }
      unmark(live);
      shown = template ? template.content.firstElementChild.cloneNode(true) : live;
      shown.classList.toggle("is-playback", shown !== live);
      live.hidden = shown !== live;
      if (shown !== live) { stage.insertBefore(shown, live); }
      shownNumber = number;
      // The board keeps the height of its tallest step: what is under it never moves.
      tallest = Math.max(tallest, stage.offsetHeight);
      stage.style.minHeight = tallest + "px";
    }
    function say(words) { text.textContent = words; }
    function buttons() {
      backButton.disabled = at <= 0;
      playButton.disabled = stepButton.disabled = skipButton.disabled = at >= steps.length;
    }
    // Step `index`: onward from the step before it, its board marked by this step; else (back,
    // or a board of its own) its board drawn anew with the marks of its steps up to this one.
    function go(index) {
      var step = steps[index];
      var number = step.dataset.board;
      if (index === at + 1 && number === shownNumber) {
        mark(shown, step);
      } else {
        var first = index;
        while (first > 0 && steps[first - 1].dataset.board === number) { first -= 1; }
        show(number);
        for (var earlier = first; earlier <= index; earlier += 1) { mark(shown, steps[earlier]); }
      }
      at = index;
      steps.forEach(function (item) { item.removeAttribute("aria-current"); });
      step.setAttribute("aria-current", "step");
      say((index + 1) + "/" + steps.length + " · " + step.textContent);
      buttons();
    }
    function stop() {
      window.clearTimeout(timer);
      timer = null;
      playButton.textContent = playButton.dataset.play;
    }
    function finish() {
      stop();
      at = steps.length;
      show(null);
      steps.forEach(function (item) { item.removeAttribute("aria-current"); });
      buttons();
      say(text.dataset.done);
    }
    function next() {
      if (at + 1 >= steps.length) { finish(); return false; }
      go(at + 1);
      return true;
    }
    function wait() {
      window.clearTimeout(timer);
      timer = window.setTimeout(tick, Number(root.dataset.stepMs) / Number(speed.value));
    }
    function tick() {
      if (next()) { wait(); } else { timer = null; }
    }
    function start() {
      playButton.textContent = playButton.dataset.pause;
      tick();
    }
    playButton.addEventListener("click", function () {
      if (timer !== null) { stop(); } else { start(); }
    });
    stepButton.addEventListener("click", function () { stop(); next(); });
    backButton.addEventListener("click", function () {
      if (at <= 0) { return; }
      stop();
      go(at - 1);
    });
    skipButton.addEventListener("click", finish);
    var kept = storedSpeed();
    if (kept && speed.querySelector('option[value="' + kept + '"]')) { speed.value = kept; }
    // A new pace from now on: the step shown waits the new time.
    speed.addEventListener("change", function () {
      storeSpeed(speed.value);
      if (timer !== null) { wait(); }
    });
    backButton.hidden = playButton.hidden = stepButton.hidden = skipButton.hidden = false;
    speedChoice.hidden = false;
    start();
  }
  document.addEventListener("DOMContentLoaded", function () {
    var board = document.getElementById("board");
    if (board) { play(board); }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    // The board's own swap: the header's count of turns swapped in with it (out of band) fires
    // this too, for the same target, and the steps were played twice over.
    if (event.target.id === "board") { play(event.target); }
  });
})();
