// Share page: a "Copy" button beside each shared link. Without JavaScript or clipboard
// access the links can still be copied by hand.
(function () {
  "use strict";

  if (!navigator.clipboard) {
    return;
  }
  document.querySelectorAll("a.copy-source[data-copy]").forEach(function (link) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "button button--small";
    button.textContent = link.dataset.copy;
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(link.href).then(function () {
        button.textContent = link.dataset.copied;
      });
    });
    link.insertAdjacentElement("afterend", button);
  });
})();
