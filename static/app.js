// Registers the service worker (/sw.js): the app installs on a phone and shows a friendly page
// offline. Where service workers are missing or refused, nothing happens.
(function () {
  "use strict";

  if (!("serviceWorker" in navigator)) {
    return;
  }
  // After the page has loaded, so that the worker's downloads never slow it down.
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js").then(null, function () {});
  });
})();
