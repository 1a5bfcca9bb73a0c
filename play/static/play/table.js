// Live updates of a table: server-sent events tell that an action was played, and htmx reloads
// the board (its "play-update" trigger). A stream ends after a while (it holds a server thread):
// the page opens the next one after the board's reconnect delay, and while none is open, or
// without EventSource at all, the board polls every 2 s instead.
(function () {
  "use strict";
  function listen(board) {
    var source = new EventSource(board.dataset.stream);
    source.onopen = function () { window.playStreaming = true; };
    source.addEventListener("update", function (event) {
      var data = JSON.parse(event.data);
      var shown = board.querySelector(".play-board");
      // Only a newer board: the board of an action of this page can be shown before its event.
      if (!shown || data.action_count > Number(shown.dataset.actionCount)) {
        board.dispatchEvent(new CustomEvent("play-update"));
      }
      if (data.status === "finished") { source.close(); window.playStreaming = false; }
    });
    source.onerror = function () {
      var finished = source.readyState === EventSource.CLOSED && !window.playStreaming;
      source.close();
      window.playStreaming = false;
      if (!finished) {
        window.setTimeout(function () { listen(board); }, Number(board.dataset.reconnectMs));
      }
    };
  }
  document.addEventListener("DOMContentLoaded", function () {
    var board = document.getElementById("board");
    if (board && window.EventSource) { listen(board); }
  });
  // "Your turn" in the title follows the board (its title is rendered in the page's language).
  document.addEventListener("htmx:afterSwap", function () {
    var board = document.querySelector(".play-board");
    if (board && board.dataset.title) { document.title = board.dataset.title; }
  });
})();
