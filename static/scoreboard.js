// The scoreboard follows the game (without this file it reloads every 30 seconds): every few
// seconds it sends the page's ETag; the server answers 304 while nothing changed, else the
// new page, whose <main> replaces this one's (scroll kept, "Scores updated" announced). It
// pauses while the tab is hidden.
//
// Each scored cell becomes a button: tapping it shows, under the table, why that player scored
// what they did, in one line taken from the round's page (whose link is the row's number, the
// way there without JavaScript). The scoreboard itself carries no explanation.
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

  function explainScores(main) {
    var BOX_ID = "why-line";
    var pages = {};
    var pagesOf = null;

    function boardVersion() {
      var current = main.querySelector(".board-updates[data-poll]");
      return current ? current.dataset.version : "";
    }

    // A round's page, fetched once per version of the board (a correction changes it).
    function roundPage(url) {
      if (pagesOf !== boardVersion()) {
        pages = {};
        pagesOf = boardVersion();
      }
      if (!pages[url]) {
        pages[url] = fetch(url, { credentials: "same-origin" })
          .then(function (response) {
            if (!response.ok) {
              throw new Error(String(response.status));
            }
            return response.text();
          })
          .then(function (text) {
            return new DOMParser().parseFromString(text, "text/html");
          });
        pages[url].then(null, function () {
          delete pages[url];
        });
      }
      return pages[url];
    }

    function box() {
      var found = document.getElementById(BOX_ID);
      var scroll = main.querySelector(".rounds .table-scroll");
      if (found || !scroll) {
        return found;
      }
      var made = document.createElement("div");
      made.id = BOX_ID;
      made.className = "why";
      made.hidden = true;
      made.setAttribute("aria-live", "polite");
      scroll.parentNode.insertBefore(made, scroll.nextSibling);
      return made;
    }

    function enhance() {
      main.querySelectorAll(".score-table tbody tr").forEach(function (row) {
        var link = row.querySelector("th a[href]");
        if (!link) {
          return; // a round still being played has no page yet
        }
        Array.prototype.forEach.call(row.cells, function (cell, index) {
          if (index === 0 || cell.querySelector(".why-button")) {
            return;
          }
          var button = document.createElement("button");
          button.type = "button";
          button.className = "why-button";
          button.id = "why-" + link.textContent.trim() + "-" + (index - 1);
          button.dataset.url = link.getAttribute("href");
          button.dataset.seat = String(index - 1);
          button.setAttribute("aria-expanded", "false");
          button.setAttribute("aria-controls", BOX_ID);
          while (cell.firstChild) {
            button.appendChild(cell.firstChild);
          }
          cell.appendChild(button);
        });
      });
      box();
    }

    function close(target) {
      main.querySelectorAll('.why-button[aria-expanded="true"]').forEach(function (button) {
        button.setAttribute("aria-expanded", "false");
      });
      if (target) {
        target.hidden = true;
        target.textContent = "";
      }
    }

    function show(button, target, page) {
      var line = page.querySelector('[data-explanation="' + button.dataset.seat + '"]');
      var seat = line && line.closest("[data-seat]");
      var heading = page.querySelector("h1");
      if (!seat || button.getAttribute("aria-expanded") !== "true") {
        return;
      }
      var name = seat.querySelector(".round-reason__name");
      var score = seat.querySelector(".round-reason__score");
      var text = document.createElement("p");
      text.className = "why__line";
      var who = document.createElement("b");
      who.textContent = (name ? name.textContent : "") + " " + (score ? score.textContent : "");
      text.appendChild(who);
      text.appendChild(document.createTextNode(" " + line.textContent));
      var more = document.createElement("a");
      more.href = button.dataset.url;
      more.textContent = heading ? heading.textContent : button.dataset.url;
      var next = document.createElement("p");
      next.className = "why__more";
      next.appendChild(more);
      target.textContent = "";
      target.appendChild(text);
      target.appendChild(next);
      target.hidden = false;
    }

    main.addEventListener("click", function (event) {
      var button = event.target.closest && event.target.closest(".why-button");
      var target = box();
      if (!button || !target) {
        return;
      }
      var open = button.getAttribute("aria-expanded") === "true";
      close(target);
      if (open) {
        return;
      }
      button.setAttribute("aria-expanded", "true");
      roundPage(button.dataset.url).then(
        function (page) {
          show(button, target, page);
        },
        function () {
          window.location.assign(button.dataset.url); // the round's page says it all
        }
      );
    });
    main.addEventListener("scoreboard:swapped", enhance);
    enhance();
  }

  var main = document.getElementById("content");
  var canFetch = window.fetch && window.DOMParser;
  if (main && main.querySelector(".board-updates[data-poll]") && canFetch) {
    followTheGame(main);
  }
  if (main && main.querySelector(".score-table") && canFetch) {
    explainScores(main);
  }
})();
