(function () {
  if (!window.EventSource) return;
  var slug = document.body.getAttribute("data-marque-slug");
  var seen = null;
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
  // Connect once the page has loaded: an open stream started earlier keeps
  // the page "loading" (a spinning tab, and headless screenshots wait).
  function connect() {
    var events = new EventSource("/events");
    events.addEventListener("snapshot", function (e) {
      var generation = JSON.parse(e.data).generation;
      if (seen !== null && generation !== seen) {
        location.reload();
        return;
      }
      seen = generation;
      check();
    });
  }
  if (document.readyState === "complete") setTimeout(connect, 0);
  else window.addEventListener("load", function () { setTimeout(connect, 0); });
})();
