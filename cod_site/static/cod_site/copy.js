// Copy buttons on every page: <button data-copy="#field" data-copied="Copied"> puts the field's value
// on the clipboard (deck codes and share links, Mutation join links). Everything else is htmx.
(function () {
  "use strict";

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    // Plain-HTTP pages have no Clipboard API: fall back to a selection and execCommand.
    return new Promise(function (resolve, reject) {
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.appendChild(area);
      area.select();
      var done = document.execCommand("copy");
      document.body.removeChild(area);
      if (done) { resolve(); } else { reject(new Error("copy refused")); }
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) { return; }
    var source = document.querySelector(button.getAttribute("data-copy"));
    if (!source) { return; }
    var label = button.textContent;
    copyText(source.value).then(function () {
      button.textContent = button.getAttribute("data-copied") || label;
      button.setAttribute("data-state", "copied");
      window.setTimeout(function () {
        button.textContent = label;
        button.removeAttribute("data-state");
      }, 1500);
    }, function () {
      source.focus();
      source.select();
    });
  });
})();
