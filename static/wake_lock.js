// Keeps the screen on while the page is shown (Screen Wake Lock API), so the phone on the
// table does not go dark. Where the API is missing or refused, nothing happens.
(function () {
  "use strict";

  if (!("wakeLock" in navigator)) {
    return;
  }
  var lock = null;

  function keepAwake() {
    if (document.visibilityState !== "visible" || (lock && !lock.released)) {
      return;
    }
    navigator.wakeLock.request("screen").then(
      function (granted) {
        lock = granted;
      },
      function () {
        lock = null;
      }
    );
  }

  // The lock is released whenever the page is hidden; take it again when it is shown.
  document.addEventListener("visibilitychange", keepAwake);
  keepAwake();
})();
