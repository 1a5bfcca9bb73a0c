// The designer's live preview follows every edit but a chosen file (an upload has its own
// request). htmx could say so in a trigger filter (`input[target.type!='file']`), but it runs
// filters through eval, which the Content-Security-Policy refuses: the filter is here instead,
// and the form's trigger listens for the `designer-edit` event it sends.
(function () {
  "use strict";
  function relay(event) {
    var designer = event.target.closest && event.target.closest(".designer");
    if (designer && event.target.type !== "file") {
      designer.dispatchEvent(new CustomEvent("designer-edit"));
    }
  }
  document.addEventListener("input", relay);
  document.addEventListener("change", relay);
})();
