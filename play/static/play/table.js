// Live updates of a table: server-sent events tell that an action was played, and htmx reloads
// the board (its "play-update" trigger). A stream ends after a while: the page opens the next one
// after the board's reconnect delay, and while none is open, or without EventSource at all, the
// board polls every 2 s instead. A stream refused (too many open: a 429) is asked for again
// after REFUSED_MS, the board polling meanwhile.
(function () {
  "use strict";
  var REFUSED_MS = 30000;
  function listen(board) {
    var source = new EventSource(board.dataset.stream);
    source.onopen = function () { window.playStreaming = true; };
    source.addEventListener("update", function (event) {
      var data = JSON.parse(event.data);
      var shown = board.querySelector(".play-board");
      // Only a newer board: the board of an action of this page can be shown before its event.
      // Same count, other status: the invited player took the seat. A Draft table counts its
      // picks, then its actions.
      var count = data.action_count + data.pick_count;
      var shownCount = shown ? Number(shown.dataset.actionCount) + Number(shown.dataset.pickCount) : 0;
      if (!shown || count > shownCount || (count === shownCount && data.status !== shown.dataset.status)) {
        board.dispatchEvent(new CustomEvent("play-update"));
      }
      if (data.status === "finished") { source.close(); window.playStreaming = false; }
    });
    source.onerror = function () {
      // Closed before it opened: the server refused the stream (or the table is gone).
      var refused = source.readyState === EventSource.CLOSED && !window.playStreaming;
      source.close();
      window.playStreaming = false;
      var finished = board.querySelector('.play-board[data-status="finished"]');
      if (!finished) {
        window.setTimeout(function () { listen(board); },
          refused ? REFUSED_MS : Number(board.dataset.reconnectMs));
      }
    };
  }
  document.addEventListener("DOMContentLoaded", function () {
    var board = document.getElementById("board");
    if (board && window.EventSource) { listen(board); }
  });
  // Answers come back in any order: a board the page asked for (an event, the poll) after the
  // board of this page's own action, or an action's answer after the event's board of that same
  // action. Swapping a board no newer than the one shown would throw away what the player began
  // to choose on it (a pick's card).
  document.addEventListener("htmx:beforeRequest", function (event) {
    event.detail.xhr.playBoardShown = document.querySelector(".play-board");
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var shown = event.detail.target.querySelector(".play-board");
    // The board's own requests always; another request (an action, choosing a card, which asks
    // for the same board with other marks) only once another board came in since it was sent.
    var ownRequest = event.detail.requestConfig.elt.id === "board";
    if (!shown || (!ownRequest && shown === event.detail.xhr.playBoardShown)) { return; }
    var next = new DOMParser().parseFromString(event.detail.serverResponse, "text/html")
      .querySelector(".play-board");
    if (!next) { return; }
    var count = Number(next.dataset.actionCount) + Number(next.dataset.pickCount);
    var shownCount = Number(shown.dataset.actionCount) + Number(shown.dataset.pickCount);
    // Same board, other rematch: a player of the finished game offered one (its result screen).
    if (count < shownCount || (count === shownCount && next.dataset.status === shown.dataset.status &&
        next.dataset.rematch === shown.dataset.rematch)) {
      event.detail.shouldSwap = false;
    }
  });
  // "Your turn" in the title follows the board (its title is rendered in the page's language).
  document.addEventListener("htmx:afterSwap", function () {
    var board = document.querySelector(".play-board");
    if (board && board.dataset.title) { document.title = board.dataset.title; }
  });
})();
// The 2 s poll while no stream is open (or without EventSource at all): htmx's
// `every 2s[!window.playStreaming]` filter needs eval, which the Content-Security-Policy refuses,
// so the board's trigger listens for `play-poll`, sent from here.
(function () {
  "use strict";
  var board = document.getElementById("board");
  if (!board || !board.dataset.stream) { return; }
  window.setInterval(function () {
    if (!window.playStreaming && document.body.contains(board)) {
      board.dispatchEvent(new CustomEvent("play-poll"));
    }
  }, 2000);
})();
