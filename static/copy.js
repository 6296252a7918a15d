// A secret shown once (a director link, an API key: templates/space.html): its "Copy" button copies the text of the
// field it names (data-copy) and says so for a moment. Without script, or where the clipboard is refused (a page
// served over plain http on the local network), the field is selected for the phone's own "Copy".
(function () {
  "use strict";
  function copied(button) {
    var label = button.textContent;
    button.textContent = button.getAttribute("data-copied") || label;
    setTimeout(function () { button.textContent = label; }, 1500);
  }
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      field.focus();
      field.select();
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(field.value).then(function () { copied(button); }, function () {});
      } else if (document.execCommand && document.execCommand("copy")) {
        copied(button);
      }
    });
  });
})();
