// Registers the service worker (/sw.js), which makes the app installable on a phone and shows a
// friendly page when the connection is gone. Where service workers are missing or refused (an
// old browser, a private window), nothing happens and the site works as before.
(function () {
  "use strict";

  if (!("serviceWorker" in navigator)) {
    return;
  }
  // After the page has loaded, so that the worker's downloads never slow the page down.
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js").then(null, function () {});
  });
})();
