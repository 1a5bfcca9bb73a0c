// The replay viewer's keys: each follows the link of the button that carries it (data-key), so
// keys and buttons go to the same positions. Keys typed into a field keep their own meaning.
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  if (event.target.closest("input, select, textarea, [contenteditable]")) return;
  const link = document.querySelector(`#replay-frame a[data-key="${event.key}"]`);
  if (!link) return;
  event.preventDefault();
  link.click();
});
