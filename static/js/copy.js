// Copy buttons: <button data-copy="ID" hidden> copies the text of #ID (the
// value of a textarea).
// Without JavaScript the button stays hidden and the text stays selectable.
(function () {
  "use strict";
  function fallback(el) {
    if (typeof el.select === "function") { // a textarea selects its value
      el.select();
      try { return document.execCommand("copy"); } catch (e) { return false; }
    }
    var range = document.createRange();
    range.selectNodeContents(el);
    var sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    try { return document.execCommand("copy"); } catch (e) { return false; }
  }
  function say(btn, text) {
    var label = btn.getAttribute("data-label") || btn.textContent;
    btn.setAttribute("data-label", label);
    btn.textContent = text;
    setTimeout(function () { btn.textContent = label; }, 2000);
  }
  document.querySelectorAll("button[data-copy]").forEach(function (btn) {
    var el = document.getElementById(btn.getAttribute("data-copy"));
    if (!el) return;
    btn.hidden = false;
    btn.addEventListener("click", function () {
      var text = typeof el.value === "string" ? el.value : el.textContent;
      var done = function () { say(btn, btn.getAttribute("data-copied")); };
      var failed = function () {
        if (fallback(el)) done(); else say(btn, btn.getAttribute("data-failed"));
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, failed);
      } else {
        failed();
      }
    });
  });
})();
