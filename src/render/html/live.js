(function () {
  if (!window.EventSource) return;
  var slug = document.body.getAttribute("data-marque-slug");
  var seen = null;
  var tag = null;
  function banner(diags) {
    var old = document.getElementById("marque-diagnostics");
    if (old) old.remove();
    if (!diags.length) return;
    var box = document.createElement("aside");
    box.id = "marque-diagnostics";
    box.setAttribute("role", "alert");
    var title = document.createElement("strong");
    title.textContent = "This brand has errors; the last good version is shown.";
    box.appendChild(title);
    var list = document.createElement("ul");
    diags.forEach(function (d) {
      var li = document.createElement("li");
      li.textContent = d.file + ":" + d.line + ":" + d.column + ": " + d.message;
      list.appendChild(li);
    });
    box.appendChild(list);
    document.body.insertBefore(box, document.body.firstChild);
  }
  function check() {
    if (!slug) return;
    fetch("/status", { cache: "no-store" }).then(function (r) { return r.json(); }).then(function (s) {
      var errors = [];
      (s.brands || []).concat(s.unpublished || []).forEach(function (b) {
        if (b.slug !== slug) return;
        (b.diagnostics || []).forEach(function (d) { if (d.severity === "error") errors.push(d); });
      });
      banner(errors);
    }).catch(function () {});
  }
  // This page's version: its ETag, which changes exactly when the page does
  // (its brand, or the brands an index lists).
  function pageTag() {
    return fetch(location.pathname, { method: "HEAD", cache: "no-store" })
      .then(function (r) { return r.headers.get("etag"); })
      .catch(function () { return null; });
  }
  // Input the reader typed and has not sent: a reload would lose it.
  function unsent() {
    var fields = document.querySelectorAll("input, textarea, select");
    for (var i = 0; i < fields.length; i++) {
      var f = fields[i];
      if (f.type === "checkbox" || f.type === "radio") {
        if (f.checked !== f.defaultChecked) return true;
      } else if (f.tagName === "SELECT") {
        for (var j = 0; j < f.options.length; j++) {
          if (f.options[j].selected !== f.options[j].defaultSelected) return true;
        }
      } else if (f.value !== f.defaultValue) {
        return true;
      }
    }
    return false;
  }
  function notice() {
    if (document.getElementById("marque-changed")) return;
    var box = document.createElement("aside");
    box.id = "marque-changed";
    box.setAttribute("role", "status");
    box.textContent = "This page has changed. Your unsent input is kept until you reload. ";
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = "Reload";
    button.addEventListener("click", function () { location.reload(); });
    box.appendChild(button);
    document.body.insertBefore(box, document.body.firstChild);
  }
  function changed() {
    pageTag().then(function (now) {
      if (now && tag && now === tag) {
        check();
        return;
      }
      if (unsent()) {
        notice();
        check();
        return;
      }
      location.reload();
    });
  }
  // Connect once the page has loaded: an open stream started earlier keeps
  // the page "loading" (a spinning tab, and headless screenshots wait).
  function connect() {
    pageTag().then(function (t) { tag = t; });
    var events = new EventSource("/events");
    events.addEventListener("snapshot", function (e) {
      var generation = JSON.parse(e.data).generation;
      if (seen !== null && generation !== seen) {
        seen = generation;
        changed();
        return;
      }
      seen = generation;
      check();
    });
  }
  if (document.readyState === "complete") setTimeout(connect, 0);
  else window.addEventListener("load", function () { setTimeout(connect, 0); });
})();
