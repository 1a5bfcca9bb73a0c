// On a phone the sections fold behind a "Menu" button. Without JavaScript the button stays hidden
// and the sections stay listed, so the page never depends on this script.
(function () {
  var toggle = document.querySelector(".menu-toggle");
  var nav = document.getElementById("site-nav");
  if (!toggle || !nav) return;
  toggle.hidden = false;
  document.documentElement.classList.add("has-menu-toggle");
  toggle.addEventListener("click", function () {
    var open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", String(open));
    nav.classList.toggle("is-open", open);
  });
})();
