// The upload form's drop zone and progress bar. Without JavaScript the
// form is a plain file input (browsers accept files dropped on it) and a
// submit button, with the browser's own progress. With it, files dropped
// anywhere on the zone are put in the input, their names are listed, and
// the form is sent by XMLHttpRequest so its upload events drive a progress
// bar. An accepted upload leads to its preview; a refused one replaces the
// page's main part with the answer and moves the focus to its summary.
(function () {
  "use strict";
  function init() {
    var form = document.getElementById("upload-form");
    if (!form || form.getAttribute("data-bound") || !window.FormData || !window.XMLHttpRequest) return;
    form.setAttribute("data-bound", "1");
    var zone = document.getElementById("drop-zone");
    var input = document.getElementById("f-file");
    var wrap = document.getElementById("upload-progress-wrap");
    var bar = document.getElementById("upload-progress");
    var status = document.getElementById("upload-status");
    var button = document.getElementById("upload-submit");
    var chosen = document.createElement("ul");
    chosen.className = "chosen";
    zone.appendChild(chosen);
    function say(text) { status.textContent = text; }
    function listNames() {
      chosen.textContent = "";
      var files = input.files || [];
      for (var i = 0; i < files.length && i < 20; i++) {
        var li = document.createElement("li");
        li.textContent = files[i].name;
        chosen.appendChild(li);
      }
      if (files.length > 1) say(zone.getAttribute("data-many").replace("#", files.length));
    }
    ["dragenter", "dragover"].forEach(function (name) {
      zone.addEventListener(name, function (ev) { ev.preventDefault(); zone.classList.add("over"); });
    });
    ["dragleave", "dragend"].forEach(function (name) {
      zone.addEventListener(name, function () { zone.classList.remove("over"); });
    });
    zone.addEventListener("drop", function (ev) {
      ev.preventDefault();
      zone.classList.remove("over");
      if (ev.dataTransfer && ev.dataTransfer.files.length) {
        input.files = ev.dataTransfer.files;
        listNames();
      }
    });
    input.addEventListener("change", listNames);
    form.addEventListener("submit", function (ev) {
      if (!input.files || !input.files.length) return; // the browser says the file is required
      ev.preventDefault();
      send(form, wrap, bar, button, say, status);
    });
  }

  function send(form, wrap, bar, button, say, status) {
    var xhr = new XMLHttpRequest();
    var last = -10;
    xhr.open("POST", form.action);
    xhr.upload.addEventListener("progress", function (e) {
      if (!e.lengthComputable) return;
      var p = Math.floor(e.loaded * 100 / e.total);
      bar.value = p;
      if (p >= last + 10) { // a screen reader hears every tenth, not every event
        last = p - p % 10;
        say(status.getAttribute("data-sending").replace("#", p));
      }
    });
    xhr.upload.addEventListener("load", function () { bar.value = 100; say(status.getAttribute("data-reading")); });
    xhr.addEventListener("load", function () {
      var url = xhr.responseURL || "";
      if (xhr.status < 400 && url.indexOf("/upload/drafts/") >= 0) {
        window.location.assign(url);
        return;
      }
      replaceMain(xhr.responseText, function () { done(wrap, button); say(status.getAttribute("data-failed")); });
    });
    xhr.addEventListener("error", function () { done(wrap, button); say(status.getAttribute("data-failed")); });
    wrap.hidden = false;
    button.disabled = true;
    xhr.send(new FormData(form));
  }

  function done(wrap, button) { wrap.hidden = true; button.disabled = false; }

  // replaceMain shows a refusal as the page a plain form post would have
  // shown: its title, its main part, the focus on its error summary.
  function replaceMain(html, fail) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var main = doc.querySelector("main");
    var here = document.querySelector("main");
    if (!main || !here) { fail(); return; }
    document.title = doc.title;
    here.replaceWith(document.importNode(main, true));
    init();
    var summary = document.getElementById("upload-errors") || document.querySelector("main h1");
    if (summary) {
      if (!summary.hasAttribute("tabindex")) summary.setAttribute("tabindex", "-1");
      summary.focus();
    }
  }

  init();
})();
