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

document.addEventListener("submit", function (e) {
  var form = e.target;
  if (!form.matches || !form.matches("form.try")) return;
  e.preventDefault();
  var variables = {};
  Array.prototype.forEach.call(form.querySelectorAll("input, textarea"), function (f) {
    if (f.value !== "" || f.required) variables[f.name] = f.value;
  });
  var out = form.querySelector("output");
  out.textContent = "Running…";
  fetch(form.getAttribute("data-demo"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ promptId: form.getAttribute("data-prompt"), variables: variables })
  })
    .then(function (r) { return r.json(); })
    .then(function (body) {
      var pre = document.createElement("pre");
      if (body.output != null) {
        pre.textContent = body.output;
      } else if (body.messages) {
        pre.textContent = "Dry run (no model configured): the user message would be\n\n" + body.messages[1].content;
      } else {
        pre.textContent = body.detail || JSON.stringify(body, null, 2);
      }
      out.textContent = "";
      out.appendChild(pre);
    })
    .catch(function (err) { out.textContent = "The demo could not be reached: " + err; });
});
