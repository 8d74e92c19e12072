/* marque brand card: renders into every element with data-marque-brand="SLUG". */
(function () {
  "use strict";
  var card = /*CARD*/null;
  var registry = (window.__marque = window.__marque || {});
  if (registry[card.slug]) {
    registry[card.slug].scan();
    return;
  }
  var STYLE =
    ":host{display:block;all:initial;contain:content}" +
    ".card{box-sizing:border-box;font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1b1f24;background:#fff;" +
    "border:1px solid #d0d7de;border-top:6px solid var(--accent,#1b1f24);border-radius:10px;padding:16px 18px;max-width:520px}" +
    ".logo{display:block;max-height:48px;max-width:220px;margin:0 0 10px}" +
    "h2{font-size:20px;line-height:1.2;margin:0 0 4px}" +
    ".version{margin:0 0 12px;color:#4b5560;font-size:13px}" +
    ".swatches{display:flex;flex-wrap:wrap;gap:10px;list-style:none;margin:0 0 12px;padding:0}" +
    ".swatch{width:88px;font-size:12px}" +
    ".chip{height:40px;border-radius:6px;border:1px solid rgba(0,0,0,.15);margin-bottom:4px}" +
    ".hex{font-family:ui-monospace,monospace;color:#4b5560}" +
    ".fonts{margin:0 0 12px;padding:0;list-style:none}" +
    ".fonts li{margin:2px 0}" +
    ".role{color:#4b5560;font-size:13px}" +
    "a{color:#0b5cad}";

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text != null) node.textContent = text;
    return node;
  }

  function render(host) {
    if (host.__marqueCard) return;
    host.__marqueCard = true;
    var root = host.shadowRoot || host.attachShadow({ mode: "open" });
    var style = el("style");
    style.textContent = STYLE;
    var box = el("section", "card");
    box.setAttribute("aria-label", card.name + " brand card");
    if (card.swatches.length) box.style.setProperty("--accent", card.swatches[0].css);
    if (card.logo) {
      var img = el("img", "logo");
      img.src = card.logo.url;
      img.alt = card.logo.alt;
      box.appendChild(img);
    }
    box.appendChild(el("h2", "name", card.name));
    box.appendChild(el("p", "version", "Spec version " + card.version + " as of " + card.updated));
    if (card.swatches.length) {
      var list = el("ul", "swatches");
      list.setAttribute("aria-label", "Palette");
      card.swatches.forEach(function (s) {
        var item = el("li", "swatch");
        var chip = el("div", "chip");
        chip.style.setProperty("background", s.css);
        chip.setAttribute("role", "img");
        chip.setAttribute("aria-label", s.name + " " + s.hex);
        item.appendChild(chip);
        item.appendChild(el("div", "label", s.name));
        item.appendChild(el("div", "hex", s.hex));
        list.appendChild(item);
      });
      box.appendChild(list);
    }
    if (card.fonts.length) {
      var fonts = el("ul", "fonts");
      fonts.setAttribute("aria-label", "Typefaces");
      card.fonts.forEach(function (f) {
        var li = el("li");
        li.appendChild(el("span", "role", f.role + ": "));
        var sample = el("span", "family", f.family);
        sample.style.setProperty("font-family", f.css);
        li.appendChild(sample);
        fonts.appendChild(li);
      });
      box.appendChild(fonts);
    }
    var link = el("a", "page", "Brand API and guidelines");
    link.href = card.page;
    box.appendChild(link);
    root.appendChild(style);
    root.appendChild(box);
  }

  function scan() {
    var nodes = document.querySelectorAll('[data-marque-brand="' + card.slug + '"]');
    for (var i = 0; i < nodes.length; i++) render(nodes[i]);
  }

  registry[card.slug] = { scan: scan };
  scan();
  if (window.MutationObserver) {
    new MutationObserver(scan).observe(document.documentElement, { childList: true, subtree: true });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", scan);
})();
