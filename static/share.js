// Share page: beside each shared link, a "Copy" button (where the clipboard may be written)
// and, for the read-only link, a "Share" button that opens the phone's own share sheet (Web
// Share API, where the browser has one). Without JavaScript the links can still be copied by
// hand or scanned from their QR codes.
(function () {
  "use strict";

  function button(label) {
    var made = document.createElement("button");
    made.type = "button";
    made.className = "button button--small";
    made.textContent = label;
    return made;
  }

  document.querySelectorAll("a.copy-source[data-copy]").forEach(function (link) {
    var after = link;
    if (navigator.clipboard) {
      var copy = button(link.dataset.copy);
      copy.addEventListener("click", function () {
        navigator.clipboard.writeText(link.href).then(function () {
          copy.textContent = link.dataset.copied;
        });
      });
      after.insertAdjacentElement("afterend", copy);
      after = copy;
    }
    if (typeof navigator.share === "function" && link.dataset.share) {
      var share = button(link.dataset.share);
      share.addEventListener("click", function () {
        // Closing the sheet without choosing rejects the promise: nothing to say then.
        navigator.share({ title: document.title, url: link.href }).then(null, function () {});
      });
      after.insertAdjacentElement("afterend", share);
    }
  });
})();
