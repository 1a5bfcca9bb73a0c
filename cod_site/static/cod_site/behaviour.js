// Small behaviours named by data attributes, in place of inline handlers (onclick="…"): the
// Content-Security-Policy runs no script written in the markup (issue 25, fault 7). Listeners sit
// on the document, so markup htmx swaps in later (the Champion price) behaves the same.
//   <select data-submit-on-change>          submits its form when changed (the language menu)
//   <form data-confirm="Delete?">           asks before it submits
//   <button data-print>                     prints the page
//   <input data-select-on-click>            selects its text when clicked (join links)
//   <input type=checkbox data-count="id">   writes into #id how many boxes of its name are checked
//   <button data-use-value="#field" data-value="4">  puts 4 into #field (an `input` event follows)
(function () {
  "use strict";

  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target.matches("select[data-submit-on-change]") && target.form) {
      target.form.submit();
    }
    if (target.matches("input[data-count]") && target.form) {
      var output = document.getElementById(target.getAttribute("data-count"));
      if (output) {
        var checked = target.form.querySelectorAll("input[name='" + target.name + "']:checked");
        output.value = checked.length;
      }
    }
  });

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (target.matches("input[data-select-on-click]")) {
      target.select();
    }
    var printer = target.closest("[data-print]");
    if (printer) {
      window.print();
    }
    var user = target.closest("[data-use-value]");
    if (user) {
      var field = document.querySelector(user.getAttribute("data-use-value"));
      if (field) {
        field.value = user.getAttribute("data-value");
        field.dispatchEvent(new Event("input", { bubbles: true }));
      }
    }
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.matches("form[data-confirm]") && !window.confirm(form.getAttribute("data-confirm"))) {
      event.preventDefault();
    }
  });
})();
