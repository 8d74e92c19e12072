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
