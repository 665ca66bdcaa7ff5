// The scoreboard follows the game (without this file it reloads every 30 seconds): every few
// seconds it sends the page's ETag; the server answers 304 while nothing changed, else the
// new page, whose <main> replaces this one's (scroll kept, "Scores updated" announced). It
// pauses while the tab is hidden.
// A scored cell is a button: the first tap loads score_reasons.js, which shows under the
// table why the player scored so (the round's page, which the row's number links to, says it
// without JavaScript).
(function () {
  "use strict";

  var POLL_MS = 4000;

  function followTheGame(main) {
    var timer = null;
    var busy = false;
    var gone = false;
    var status = document.createElement("p");
    status.className = "visually-hidden";
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    main.parentNode.insertBefore(status, main.nextSibling);

    function marker() {
      return main.querySelector(".board-updates[data-poll]");
    }

    function announce(text) {
      status.textContent = "";
      window.setTimeout(function () {
        status.textContent = text;
      }, 100);
    }

    function scrollPositions() {
      return Array.prototype.map.call(main.querySelectorAll(".table-scroll"), function (box) {
        return box.scrollLeft;
      });
    }

    function swap(page) {
      var fresh = page.getElementById(main.id);
      var freshMarker = fresh && fresh.querySelector(".board-updates[data-poll]");
      if (!freshMarker) {
        return false; // not a scoreboard (an error page, say): keep the one we have
      }
      var old = marker();
      var changed = !old || old.dataset.version !== freshMarker.dataset.version;
      var x = window.scrollX;
      var y = window.scrollY;
      var sideways = scrollPositions();
      var focusedId = document.activeElement && main.contains(document.activeElement)
        ? document.activeElement.id
        : "";
      main.innerHTML = fresh.innerHTML;
      main.dispatchEvent(new CustomEvent("scoreboard:swapped"));
      main.querySelectorAll(".table-scroll").forEach(function (box, index) {
        if (index < sideways.length) {
          box.scrollLeft = sideways[index];
        }
      });
      window.scrollTo(x, y);
      if (focusedId && document.getElementById(focusedId)) {
        document.getElementById(focusedId).focus({ preventScroll: true });
      }
      if (page.title) {
        document.title = page.title;
      }
      if (changed) {
        announce(freshMarker.dataset.updated);
      }
      return true;
    }

    function poll() {
      var current = marker();
      if (busy || gone || !current || document.hidden) {
        return;
      }
      busy = true;
      var headers = {};
      if (current.dataset.etag) {
        headers["If-None-Match"] = current.dataset.etag;
      }
      // The page's own ETag is sent by hand, so the browser's cache stays out of the way.
      fetch(current.dataset.poll, { headers: headers, cache: "no-store", credentials: "same-origin" })
        .then(function (response) {
          if (response.status === 404) {
            gone = true; // the game was deleted: nothing more to follow
            stop();
            return null;
          }
          if (response.status !== 200) {
            return null; // 304: nothing changed; anything else: try again later
          }
          var tag = response.headers.get("ETag");
          if (tag && tag === current.dataset.etag) {
            return null;
          }
          return response.text().then(function (text) {
            swap(new DOMParser().parseFromString(text, "text/html"));
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
        timer = window.setInterval(poll, POLL_MS);
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
  }

  function offerReasons(main) {
    function enhance() {
      var scroll = main.querySelector(".table-scroll");
      var box = document.createElement("div");
      box.id = "why-line";
      box.className = "why";
      box.hidden = true;
      box.setAttribute("aria-live", "polite");
      if (!scroll) {
        return; // no round played yet
      }
      scroll.after(box);
      // Every scored round, one still on this phone too (static/score_reasons.js).
      main.querySelectorAll(".score-table tr.is-scored > th").forEach(function (heading) {
        Array.prototype.slice.call(heading.parentNode.cells, 1).forEach(function (cell, seat) {
          var button = document.createElement("button");
          button.type = "button";
          button.className = "why-button";
          button.id = "why-" + parseInt(heading.textContent, 10) + "-" + seat; // keeps focus on updates
          button.value = seat;
          button.setAttribute("aria-expanded", false);
          button.setAttribute("aria-controls", box.id);
          button.append.apply(button, Array.from(cell.childNodes));
          cell.append(button);
        });
      });
    }

    main.addEventListener("click", function (event) {
      var button = event.target.closest(".why-button");
      if (button && window.scoreReasons) {
        window.scoreReasons(main, button);
      } else if (button) {
        var script = document.createElement("script");
        script.src = main.querySelector("[data-reasons]").dataset.reasons;
        script.onload = function () {
          window.scoreReasons(main, button);
        };
        document.head.append(script);
      }
    });
    main.addEventListener("scoreboard:swapped", enhance);
    main.addEventListener("scoreboard:drawn", enhance); // offline, by static/offline_play.js
    enhance();
  }

  var main = document.getElementById("content");
  var canFetch = window.fetch && window.DOMParser;
  if (main && main.querySelector(".board-updates[data-poll]") && canFetch) {
    followTheGame(main);
  }
  if (main && main.querySelector(".board-updates[data-reasons]") && canFetch) {
    offerReasons(main);
  }
})();
