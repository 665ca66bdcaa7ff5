// The scoreboard follows the game (without this file it reloads every 30 seconds): every few
// seconds it asks with the page's ETag (follow.js); the server answers 304 while nothing
// changed, else the new page, whose <main> replaces this one's (scroll kept, "Scores
// updated" announced). It pauses while the tab is hidden.
// A scored cell is a button: the first tap loads score_reasons.js, which shows under the
// table why the player scored so (the round's page, which the row's number links to, says it
// without JavaScript).
(function () {
  "use strict";

  var POLL_MS = 4000;

  function followTheGame(main) {
    var status = document.createElement("p");
    status.className = "visually-hidden";
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    main.parentNode.insertBefore(status, main.nextSibling);

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
        return; // not a scoreboard (an error page, say): keep the one we have
      }
      var old = main.querySelector(".board-updates[data-poll]");
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
    }

    window.StichelnFollow(main, ".board-updates[data-poll]", POLL_MS, swap);
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
  if (main && main.querySelector(".board-updates[data-poll]") && canFetch && window.StichelnFollow) {
    followTheGame(main);
  }
  if (main && main.querySelector(".board-updates[data-reasons]") && canFetch) {
    offerReasons(main);
  }
})();
