// Esc hides the card preview of the search result under the pointer or focus (it shows again
// once the pointer or focus leaves that result and comes back): content that appears on hover
// must be dismissible without moving (WCAG 1.4.13).
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  for (const result of document.querySelectorAll(".search-result:hover, .search-result:focus-within")) {
    result.classList.add("popover-dismissed");
  }
});
for (const leave of ["mouseleave", "focusout"]) {
  document.addEventListener(leave, (event) => {
    const result = event.target instanceof Element && event.target.closest(".search-result");
    if (result && !result.contains(event.relatedTarget)) result.classList.remove("popover-dismissed");
  }, true);
}
