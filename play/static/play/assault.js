// What happened since the page's last board, played out on the board (play/_playback.html): each
// step of the log in its order shows its board (the board before an Assault's action while it is
// played out, the board after any other action), marks the creature that attacks and the one it
// attacks, shows the damage dealt, removes the creature that leaves its line and moves the
// Stronghold's HP. Play, Pause, Step and Skip set the pace; the buttons and the step's words sit
// in a box of fixed size and the board keeps the height of its tallest step, so the page never
// moves. With reduced motion the board shows the end at once and the steps stay listed.
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
  function setHp(board, seat, hp) {
    var kingdom = board.querySelector('.board-seat[data-seat="' + seat + '"]');
    if (!kingdom) { return; }
    kingdom.querySelectorAll(".board-stronghold, .board-stronghold-card .board-card-stats")
      .forEach(function (stronghold) {
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
    var playButton = bar.querySelector(".playback-play");
    var stepButton = bar.querySelector(".playback-step");
    var skipButton = bar.querySelector(".playback-skip");
    var at = -1;
    var shownNumber = null;
    var shown = live;
    var timer = null;
    var tallest = 0;
    function show(number) {
      if (number === shownNumber) { return; }
      var template = bar.querySelector('template[data-board="' + number + '"]');
      if (shown !== live) { shown.remove(); }
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
    function go(index) {
      at = index;
      var step = steps[index];
      show(step.dataset.board);
      mark(shown, step);
      steps.forEach(function (item) { item.removeAttribute("aria-current"); });
      step.setAttribute("aria-current", "step");
      say((index + 1) + "/" + steps.length + " · " + step.textContent);
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
      live.querySelectorAll(".is-attacking, .is-attacked, .is-step").forEach(function (card) {
        card.classList.remove("is-attacking", "is-attacked", "is-step");
      });
      steps.forEach(function (item) { item.removeAttribute("aria-current"); });
      playButton.disabled = stepButton.disabled = skipButton.disabled = true;
      say(text.dataset.done);
    }
    function next() {
      if (at + 1 >= steps.length) { finish(); return false; }
      go(at + 1);
      return true;
    }
    function tick() {
      timer = next() ? window.setTimeout(tick, Number(root.dataset.stepMs)) : null;
    }
    function start() {
      playButton.textContent = playButton.dataset.pause;
      tick();
    }
    playButton.addEventListener("click", function () {
      if (timer !== null) { stop(); } else { start(); }
    });
    stepButton.addEventListener("click", function () { stop(); next(); });
    skipButton.addEventListener("click", finish);
    playButton.hidden = stepButton.hidden = skipButton.hidden = false;
    start();
  }
  document.addEventListener("DOMContentLoaded", function () {
    var board = document.getElementById("board");
    if (board) { play(board); }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target.id === "board") { play(event.detail.target); }
  });
})();
