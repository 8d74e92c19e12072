document.addEventListener("click", function (e) {
  var button = e.target.closest ? e.target.closest("button[data-copy]") : null;
  if (!button) return;
  var code = document.getElementById(button.getAttribute("data-copy"));
  if (!code || !navigator.clipboard) return;
  navigator.clipboard.writeText(code.textContent).then(function () {
    button.textContent = "Copied";
    setTimeout(function () { button.textContent = "Copy"; }, 1500);
  });
});

// The values a Try-it form would send: every filled field, and every
// required one.
function tryVariables(form) {
  var variables = {};
  Array.prototype.forEach.call(form.querySelectorAll("input, textarea"), function (f) {
    if (f.value !== "" || f.required) variables[f.name] = f.value;
  });
  return variables;
}

function tryBody(form) {
  return JSON.stringify({ promptId: form.getAttribute("data-prompt"), variables: tryVariables(form) });
}

// The curl snippet under a form follows what is typed in it.
document.addEventListener("input", function (e) {
  var form = e.target.closest ? e.target.closest("form.try") : null;
  if (!form) return;
  var code = form.parentNode.querySelector(".snippet code");
  if (!code) return;
  var quoted = "'" + tryBody(form).replace(/'/g, "'\\''") + "'";
  code.textContent = "curl -sS -X POST " + form.getAttribute("data-demo") +
    " \\\n  -H 'content-type: application/json' \\\n  -d " + quoted;
});

// A labelled block of text in the result panel.
function block(out, label, text) {
  var h = document.createElement("p");
  h.className = "label";
  h.textContent = label;
  var pre = document.createElement("pre");
  pre.textContent = text;
  out.appendChild(h);
  out.appendChild(pre);
}

document.addEventListener("submit", function (e) {
  var form = e.target;
  if (!form.matches || !form.matches("form.try")) return;
  e.preventDefault();
  var out = form.querySelector("output");
  var button = form.querySelector("button[type=submit]");
  if (button.disabled) return;
  button.disabled = true;
  out.setAttribute("data-state", "running");
  out.removeAttribute("role");
  out.textContent = "Running…";
  function done() { button.disabled = false; }
  fetch(form.getAttribute("data-demo"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: tryBody(form)
  })
    .then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (body) { return [r, body]; });
    })
    .then(function (rb) {
      var r = rb[0], body = rb[1];
      out.textContent = "";
      if (!r.ok) {
        out.setAttribute("data-state", "refused");
        out.setAttribute("role", "alert");
        var title = document.createElement("p");
        title.className = "label";
        title.textContent = r.status + " " + (body.title || r.statusText);
        out.appendChild(title);
        var detail = document.createElement("p");
        detail.textContent = body.detail || "";
        out.appendChild(detail);
        var retry = r.headers.get("retry-after");
        if (retry && !/try again in/i.test(detail.textContent)) {
          var wait = document.createElement("p");
          wait.textContent = "Try again in " + retry + " s.";
          out.appendChild(wait);
        }
      } else if (body.output != null) {
        out.setAttribute("data-state", "answer");
        block(out, "Answer from " + body.model, body.output);
      } else {
        out.setAttribute("data-state", "dry-run");
        var note = document.createElement("p");
        note.textContent = "Dry run: no model is configured, so nothing was sent. These are the messages a model would get.";
        out.appendChild(note);
        (body.messages || []).forEach(function (m) { block(out, m.role, m.content); });
      }
      done();
    })
    .catch(function (err) {
      out.setAttribute("data-state", "refused");
      out.setAttribute("role", "alert");
      out.textContent = "The demo could not be reached: " + err;
      done();
    });
});

// The table of contents follows the reader: the section being read is
// marked current.
(function () {
  var toc = document.getElementById("toc");
  if (!toc || !window.IntersectionObserver) return;
  var links = {};
  Array.prototype.forEach.call(toc.querySelectorAll("a"), function (a) {
    links[a.getAttribute("href").slice(1)] = a;
  });
  var observer = new IntersectionObserver(function (entries) {
    entries.forEach(function (e) {
      if (!e.isIntersecting) return;
      Array.prototype.forEach.call(toc.querySelectorAll("a[aria-current]"), function (a) {
        a.removeAttribute("aria-current");
      });
      var link = links[e.target.id];
      if (link) link.setAttribute("aria-current", "true");
    });
  }, { rootMargin: "-60px 0px -70% 0px" });
  Object.keys(links).forEach(function (id) {
    var section = document.getElementById(id);
    if (section) observer.observe(section);
  });
})();

// A type specimen says when the brand's font is not installed here and the
// text shows in a fallback: measured, as the font loading API calls a
// missing system font "loaded".
(function () {
  var samples = document.querySelectorAll(".specimen .sample");
  if (!samples.length) return;
  var generic = /^(serif|sans-serif|monospace|cursive|fantasy|system-ui|ui-[a-z-]+|math|emoji|fangsong)$/;
  var canvas = document.createElement("canvas").getContext("2d");
  function width(font) {
    canvas.font = "32px " + font;
    return canvas.measureText("mmmmmmmmmlliWW@#0").width;
  }
  function installed(family) {
    return ["monospace", "serif", "sans-serif"].some(function (base) {
      return width("\"" + family + "\", " + base) !== width(base);
    });
  }
  function check() {
    Array.prototype.forEach.call(samples, function (sample) {
      var first = (sample.style.fontFamily || "").split(",")[0].trim().replace(/^["']|["']$/g, "");
      if (!first || generic.test(first) || installed(first)) return;
      var note = document.createElement("p");
      note.className = "muted font-note";
      note.textContent = "\u201c" + first + "\u201d is not installed in this browser: the sample above shows a fallback font.";
      sample.parentNode.insertBefore(note, sample.nextSibling);
    });
  }
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(check);
  else check();
})();

// The palette's scheme switch: the swatches as the reader's system has
// them, or light, or the brand's dark context.
document.addEventListener("click", function (e) {
  var button = e.target.closest ? e.target.closest(".scheme-switch button[data-scheme]") : null;
  if (!button) return;
  var palette = document.getElementById("palette");
  var scheme = button.getAttribute("data-scheme");
  if (scheme === "auto") palette.removeAttribute("data-scheme");
  else palette.setAttribute("data-scheme", scheme);
  Array.prototype.forEach.call(palette.querySelectorAll(".scheme-switch button"), function (b) {
    b.setAttribute("aria-pressed", b === button ? "true" : "false");
  });
});

// The footer says who is signed in, from the `marque_who` cookie that
// sign-in sets beside its session (the session itself is HttpOnly), and
// offers sign-out; and an embargo's moment is shown in the reader's zone.
(function () {
  var slot = document.getElementById("marque-session");
  var who = (document.cookie.match(/(?:^|;\s*)marque_who=([A-Za-z0-9_-]{1,64})(?:;|$)/) || [])[1];
  if (slot && who) {
    // Signed out by a request of the page's own (its CSP allows no form
    // to be sent), then on to where sign-out leads.
    var button = document.createElement("button");
    button.type = "button";
    button.className = "signout";
    button.textContent = "Sign out";
    button.addEventListener("click", function () {
      fetch(slot.getAttribute("data-signout"), { method: "POST", credentials: "same-origin" })
        .then(function (res) { location.assign(res.url); });
    });
    slot.textContent = "Signed in as " + who + " ";
    slot.appendChild(button);
  }
  var time = document.querySelector("#marque-access time[datetime]");
  var local = document.querySelector("#marque-access .local");
  if (time && local) {
    var at = new Date(time.getAttribute("datetime"));
    if (!isNaN(at)) local.textContent = " (" + at.toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" }) + " your time)";
  }
})();
