// Why a player scored what they did, under the scoreboard's table: the tapped score's line,
// taken from the round's page (fetched once per version of the board, since a correction
// changes it). Loaded by scoreboard.js on the first tap, so the scoreboard stays light.
(function () {
  "use strict";

  var pages = {};

  function roundPage(main, url) {
    var marker = main.querySelector(".board-updates[data-version]");
    var key = (marker ? marker.dataset.version : "") + " " + url;
    if (!pages[key]) {
      pages[key] = fetch(url, { credentials: "same-origin" }).then(function (response) {
        return response.ok ? response.text() : Promise.reject(new Error(response.status));
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
    var more = document.createElement("a");
    more.href = url;
    more.textContent = page.querySelector("h1").textContent;
    var where = document.createElement("p");
    where.append(more);
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
    var url = button.closest("tr").querySelector("th a").getAttribute("href");
    roundPage(main, url).then(show.bind(null, button, box, url), function () {
      window.location.assign(url); // the round's page says it all
    });
  };
})();
