// The search results' "add" buttons go through one queue, not one htmx request each: every request
// carries the deck as the page holds it when it leaves, so quick clicks raced each other and the
// last answer dropped the cards the others added (issue 29: seven clicks 50 ms apart gave four
// cards). Clicks made while a request is out are sent together once its answer is on the page.
(() => {
  const pending = [];
  let busy = false;

  function flush() {
    const form = document.getElementById("builder");
    if (busy || !pending.length || !form) return;
    busy = true;
    const slugs = pending.splice(0);
    const done = () => {
      busy = false;
      flush();
    };
    htmx
      .ajax("POST", form.dataset.panelUrl, { source: form, target: "#deck-panel", values: { add: slugs } })
      .then(done, done);
  }

  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element && event.target.closest("#search-results button.add-card");
    if (!button) return;
    event.preventDefault();
    if (!pending.includes(button.value)) pending.push(button.value);
    flush();
  });
})();
