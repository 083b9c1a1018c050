// The decode calculator recomputes as its form changes: the form's own GET
// address is asked in the background, its result and its problems take the
// place of the page's, and the address bar follows, so what is on screen
// can still be linked. Without JavaScript the Calculate button does the
// same by loading the page.
(function () {
  "use strict";
  var form = document.getElementById("calc-form");
  if (!form || !window.fetch || !window.DOMParser || !window.URLSearchParams) return;
  var timer = null, asked = 0;
  function address() {
    return form.getAttribute("action") + "?" + new URLSearchParams(new FormData(form)).toString();
  }
  function swap(doc, id) {
    var now = document.getElementById(id), next = doc.getElementById(id);
    if (now && next) now.replaceWith(next);
  }
  function recompute() {
    var url = address(), n = ++asked;
    fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        if (n !== asked) return; // a later change is on its way
        var doc = new DOMParser().parseFromString(html, "text/html");
        swap(doc, "calc-problems");
        swap(doc, "calc-out");
        history.replaceState(null, "", url);
      })
      .catch(function () { /* the button still works */ });
  }
  function later(ms) {
    return function () { clearTimeout(timer); timer = setTimeout(recompute, ms); };
  }
  form.addEventListener("input", later(400)); // typing: wait for a pause
  form.addEventListener("change", later(50));
})();
