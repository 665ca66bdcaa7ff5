// A phone on the table (the scoreboard, the table display, the live round): its screen is
// kept on while the page is shown (Screen Wake Lock API; where it is missing or refused,
// nothing happens), and the page's own script follows the game with StichelnFollow.
(function () {
  "use strict";

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

  if ("wakeLock" in navigator) {
    // The lock is released whenever the page is hidden; take it again when it is shown.
    document.addEventListener("visibilitychange", keepAwake);
    keepAwake();
  }

  // Every ``ms`` while the tab is shown, the page asks the address of its marker (the
  // element of ``main`` that ``selector`` finds: data-poll) with the marker's ETag, sent by
  // hand so that the browser's cache stays out of the way. The server answers 304 while
  // nothing changed; else the page as it is now goes to ``swap`` (a parsed document). What
  // ``moment()`` answers is what this phone did to the page: false while a change of its own
  // is on its way (no poll then), and an answer whose moment moved is not swapped in (the
  // change's own answer drew the page since). A 403 or a 404 (edit rights gone, the game
  // deleted) ends the following; anything else, offline too, waits for the next poll.
  window.StichelnFollow = function (main, selector, ms, swap, moment) {
    moment =
      moment ||
      function () {
        return 0;
      };
    var timer = null;
    var busy = false;
    var gone = false;

    function poll() {
      var current = main.querySelector(selector);
      var before = moment();
      if (busy || gone || !current || document.hidden || before === false) {
        return;
      }
      busy = true;
      var headers = { Accept: "text/html" };
      if (current.dataset.etag) {
        headers["If-None-Match"] = current.dataset.etag;
      }
      fetch(current.dataset.poll, { headers: headers, cache: "no-store", credentials: "same-origin" })
        .then(function (response) {
          if (response.status === 403 || response.status === 404) {
            gone = true;
            stop();
            return null;
          }
          if (response.status !== 200 || response.headers.get("ETag") === current.dataset.etag) {
            return null; // 304: nothing changed; anything else: try again later
          }
          return response.text().then(function (text) {
            if (moment() === before && document.contains(current)) {
              swap(new DOMParser().parseFromString(text, "text/html"));
            }
          });
        })
        .then(null, function () {
          return null; // offline for a moment: the next poll tries again
        })
        .then(function () {
          busy = false;
        });
    }

    function start() {
      if (timer === null && !gone) {
        timer = window.setInterval(poll, ms);
      }
    }

    function stop() {
      if (timer !== null) {
        window.clearInterval(timer);
        timer = null;
      }
    }

    document.addEventListener("visibilitychange", function () {
      if (document.hidden) {
        stop();
      } else {
        poll();
        start();
      }
    });
    if (!document.hidden) {
      start();
    }
  };
})();
