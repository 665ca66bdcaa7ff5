// Why a player scored what they did, under the scoreboard's table: the tapped score's line,
// taken from the round's page (fetched once per version of the board, since a correction
// changes it). Offline, or for a round still on this phone, the rules worker draws that page
// from the kept game and the queue (pages/round_scores), as the server will once it is sent.
// Loaded by scoreboard.js on the first tap, so the scoreboard stays light.
(function () {
  "use strict";

  var pages = {};

  function fetched(url) {
    return fetch(url, { credentials: "same-origin" }).then(function (response) {
      return response.ok ? response.text() : Promise.reject(new Error(response.status));
    });
  }

  // The round's page as the worker draws it; rejected where the phone holds no kit.
  function drawn(number) {
    var play = window.StichelnOfflinePlay;
    if (!play) {
      return Promise.reject(new Error("no offline kit"));
    }
    return Promise.all([play.outbox.keptGame(), play.outbox.changes()]).then(function (found) {
      if (!found[0]) {
        throw new Error("no kept game");
      }
      var waiting = found[1].filter(function (change) {
        return change.state === "waiting";
      });
      var root = new URL(play.gameAddress, location.href).pathname.split("/g/")[0];
      var body = { state: found[0].state, queued: play.queued(waiting), number: number, root: root };
      return play.rules("pages/round_scores", body).then(function (answer) {
        return answer.status === 200 && answer.body.html ? answer.body.html : Promise.reject(new Error("no page"));
      });
    });
  }

  function roundPage(main, url, number) {
    var marker = main.querySelector(".board-updates[data-version]");
    var key = (marker ? marker.dataset.version : "") + " " + (url || number);
    if (!pages[key]) {
      pages[key] = (url ? fetched(url) : Promise.reject(new Error("not sent"))).then(null, function (error) {
        return drawn(number).then(null, function () {
          throw error;
        });
      });
      pages[key].then(null, function () {
        delete pages[key];
      });
    }
    return pages[key].then(function (text) {
      return new DOMParser().parseFromString(text, "text/html");
    });
  }

  function show(button, box, url, page) {
    var seat = page.querySelector('[data-seat="' + button.value + '"]');
    if (!seat || button.getAttribute("aria-expanded") !== "true") {
      return;
    }
    var where = document.createElement("p");
    if (url) {
      var more = document.createElement("a");
      more.href = url;
      more.textContent = page.querySelector("h1").textContent;
      where.append(more);
    }
    box.replaceChildren(
      seat.querySelector(".round-reason__head"),
      seat.querySelector("[data-explanation]"),
      where
    );
    box.hidden = false;
    box.scrollIntoView({ block: "nearest" });
  }

  window.scoreReasons = function (main, button) {
    var box = document.getElementById("why-line");
    var open = button.getAttribute("aria-expanded") === "true";
    main.querySelectorAll(".why-button").forEach(function (other) {
      other.setAttribute("aria-expanded", other === button && !open);
    });
    box.hidden = true;
    if (open) {
      return;
    }
    var heading = button.closest("tr").querySelector("th");
    var link = heading.querySelector("a");
    var url = link ? link.getAttribute("href") : null;
    var number = parseInt(heading.textContent, 10);
    roundPage(main, url, number).then(show.bind(null, button, box, url), function () {
      if (url) {
        window.location.assign(url); // the round's page says it all
      }
    });
  };
})();
