/* marque brand card: renders into every element with data-marque-brand="SLUG"
   (data-theme="light", "dark" or "auto" to follow the reader's colour scheme). */
(function () {
  "use strict";
  var card = /*CARD*/null;
  var registry = (window.__marque = window.__marque || {});
  if (registry[card.slug]) {
    registry[card.slug].scan();
    return;
  }
  // Colours are custom properties of the card, so a theme swaps them all.
  var DARK = "--bg:#0d1117;--fg:#e6edf3;--muted:#9da7b3;--line:#30363d;--link:#7cb4ff;--top:var(--accent-dark,var(--accent,var(--fg)));";
  var STYLE =
    ":host{all:initial;display:block;width:100%;max-width:560px;contain:content}" +
    ".card{--bg:#fff;--fg:#1b1f24;--muted:#4b5560;--line:#d0d7de;--link:#0b5cad;--top:var(--accent,var(--fg));" +
    "box-sizing:border-box;width:100%;font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:var(--fg);background:var(--bg);" +
    "border:1px solid var(--line);border-top:6px solid var(--top);border-radius:10px;padding:16px 18px}" +
    ".theme-dark{" + DARK + "}" +
    "@media (prefers-color-scheme:dark){.theme-auto{" + DARK + "}}" +
    ".logo{display:block;max-height:48px;max-width:220px;margin:0 0 10px}" +
    ".on-dark,.theme-dark .on-light{display:none}.theme-dark .on-dark{display:block}" +
    "@media (prefers-color-scheme:dark){.theme-auto .on-light{display:none}.theme-auto .on-dark{display:block}}" +
    "h2{font-size:20px;line-height:1.2;margin:0 0 4px}" +
    ".version{margin:0 0 12px;color:var(--muted);font-size:13px}" +
    ".version span{white-space:nowrap}" +
    ".access{margin:0 0 12px;font-size:12px;font-weight:600;text-transform:uppercase;letter-spacing:.04em;color:#8a4b00}" +
    ".swatches{display:grid;grid-template-columns:repeat(auto-fill,minmax(72px,1fr));gap:10px;list-style:none;margin:0 0 12px;padding:0}" +
    ".swatch{font-size:12px;min-width:0;overflow-wrap:anywhere}" +
    ".chip{height:40px;border-radius:6px;border:1px solid rgba(127,127,127,.35);margin-bottom:4px;background:var(--c)}" +
    ".theme-dark .chip{background:var(--cd,var(--c))}@media (prefers-color-scheme:dark){.theme-auto .chip{background:var(--cd,var(--c))}}" +
    ".hex{font-family:ui-monospace,monospace;color:var(--muted)}" +
    ".fonts{margin:0 0 12px;padding:0;list-style:none}" +
    ".fonts li{margin:2px 0}" +
    ".role{color:var(--muted);font-size:13px}" +
    "a{color:var(--link)}";

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
    var theme = host.getAttribute("data-theme");
    if (theme !== "dark" && theme !== "auto") theme = "light";
    var box = el("section", "card theme-" + theme);
    box.setAttribute("aria-label", card.name + " brand card");
    if (card.accent) box.style.setProperty("--accent", card.accent);
    if (card.accentDark) box.style.setProperty("--accent-dark", card.accentDark);
    var logos = card.logoDark ? [[card.logo, "on-light"], [card.logoDark, "on-dark"]] : [[card.logo, ""]];
    logos.forEach(function (l) {
      if (!l[0]) return;
      var img = el("img", ("logo " + l[1]).trim());
      img.src = l[0].url;
      img.alt = l[0].alt;
      if (l[1] === "on-dark" && theme === "light") img.loading = "lazy";
      box.appendChild(img);
    });
    box.appendChild(el("h2", "name", card.name));
    var version = el("p", "version");
    version.appendChild(el("span", null, "Spec version " + card.version));
    version.appendChild(document.createTextNode(" "));
    version.appendChild(el("span", null, "as of " + card.updated));
    box.appendChild(version);
    // A private brand, or a version under embargo, says so: only token
    // holders get this card, and they must not take it for a public one.
    if (card.access) box.appendChild(el("p", "access", card.access));
    if (card.swatches.length) {
      var list = el("ul", "swatches");
      list.setAttribute("aria-label", "Palette");
      card.swatches.forEach(function (s) {
        var item = el("li", "swatch");
        var chip = el("div", "chip");
        // The brand's own dark context, where it has one, in dark themes.
        chip.style.setProperty("--c", s.css);
        if (s.dark) chip.style.setProperty("--cd", s.dark.css);
        chip.setAttribute("role", "img");
        chip.setAttribute("aria-label", s.name + " " + s.hex + (s.dark ? ", dark " + s.dark.hex : ""));
        item.appendChild(chip);
        item.appendChild(el("div", "label", s.name));
        item.appendChild(el("div", "hex" + (s.dark ? " on-light" : ""), s.hex));
        if (s.dark) item.appendChild(el("div", "hex on-dark", s.dark.hex));
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
