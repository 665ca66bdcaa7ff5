// A new game started with no network: on a phone that kept the offline
// kit, the new-game page's Start, when the server does not answer, starts the game on the
// phone as the server will (the rules worker's games/new: the same checks, the same words,
// the names of known players as the server spells them), keeps it in the outbox
// (static/outbox.js) as the POST /api/v1/games its outbox sends once the network is back,
// and opens its scoreboard at /games/new/<key> (<key>: that call's Idempotency-Key). The
// start carries the circle chosen on the page, so the game joins it once sent.
//
// Its pages, any variant and any number of players, are drawn by the rules worker into the
// kept shell (static/offline_play.js, templates/pwa/shell.html), as for any game. Loaded by
// app.js, after outbox.js, on the new-game page of a phone that kept the kit. No rule is
// written here.
(function () {
  "use strict";

  var form = document.getElementById("new-game-form");
  var script = document.currentScript;
  var workerUrl = null;
  try {
    workerUrl = localStorage.getItem("sticheln-offline-worker");
  } catch (error) {}
  if (!form || !script || !workerUrl || !("indexedDB" in window) || !("caches" in window) || !window.StichelnOutbox) {
    return;
  }
  var root = script.src.slice(0, script.src.lastIndexOf("/static/"));
  var language = document.documentElement.lang || "en";
  var REACH_MS = 4000; // how long Start waits for the server before starting the game here
  var words = fetch(root + "/offline/words.json?lang=" + encodeURIComponent(language))
    .then(function (response) {
      return response.ok ? response.json() : null;
    })
    .catch(function () {
      return null;
    });

  // ------------------------------------------------------------------------------------------
  // The rules worker, and the server

  function rules(call, body) {
    return new Promise(function (resolve) {
      var worker = new Worker(workerUrl, { type: "module" });
      worker.onmessage = function (event) {
        if (event.data && event.data.id === 1) {
          worker.terminate();
          resolve(event.data);
        }
      };
      worker.postMessage({ id: 1, call: call, body: body, language: language });
    });
  }

  // Whether the server answers now (any answer will do): the JSON API, which the service
  // worker never answers from what it keeps.
  function reachable() {
    return window.StichelnOutbox.reachable(root + "/api/v1/setup", REACH_MS);
  }

  // ------------------------------------------------------------------------------------------
  // The table the form describes, as POST /api/v1/games takes it

  function value(name) {
    var field = form.elements.namedItem(name);
    return field ? field.value : "";
  }

  function chosen(name) {
    var checked = form.querySelector('input[name="' + name + '"]:checked');
    return checked ? checked.value : "";
  }

  function tableOf() {
    var names = [];
    var rows = [];
    Array.prototype.forEach.call(form.querySelectorAll('input[name^="player_"]'), function (field) {
      if (field.value.trim()) {
        names.push(field.value);
        rows.push(Number(field.name.slice("player_".length)));
      }
    });
    var variant = chosen("variant");
    if (variant === "custom") {
      variant = { scoring: chosen("scoring"), colours: Number(chosen("colours")), reveal: chosen("reveal") };
    }
    var leader = rows.indexOf(Number(value("first_leader")));
    var rounds = value("rounds").trim();
    return {
      players: names,
      variant: variant,
      rounds: /^[0-9]+$/.test(rounds) ? Number(rounds) : rounds,
      first_leader: leader === -1 ? names.length : leader, // an empty row: refused as no seat
    };
  }

  // The circle the game joins, as the page's choice says it: a circle's id, or
  // "new" for a new circle, made when the start is sent; none where the page offers no
  // choice (a club server's), and the server decides as the page would.
  function circleOf() {
    var choice = value("circle");
    if (!choice) {
      return null;
    }
    return /^[0-9]+$/.test(choice) ? Number(choice) : choice;
  }

  // What POST /api/v1/games is sent: the table, and the circle it joins.
  function startOf(table) {
    var body = Object.assign({}, table);
    var circle = circleOf();
    if (circle !== null) {
      body.circle = circle;
    }
    return body;
  }

  // The names this page offers (the players the server knew when the page was kept).
  function knownNames() {
    return Array.prototype.map.call(form.querySelectorAll("#known-players option"), function (option) {
      return option.value;
    });
  }

  // ------------------------------------------------------------------------------------------
  // What the page says

  // The notice above the form: what offline play is doing now.
  function say(text) {
    var notice = document.getElementById("offline-play-status");
    if (!notice) {
      notice = document.createElement("p");
      notice.id = "offline-play-status";
      notice.setAttribute("role", "status");
      notice.className = "notice notice--saved";
      form.parentNode.insertBefore(notice, form);
    }
    notice.textContent = text || "";
    notice.hidden = !text;
  }

  // A refusal, beside the field it concerns (else beside the players), as the server's page
  // shows one; nothing started.
  function refuse(text, field) {
    say("");
    clearRefusal();
    var place = field === "rounds" || field === "first_leader" ? form.elements.namedItem(field) : null;
    var list = document.createElement("div"); // (announced at once, as a list of one)
    list.id = "offline-new-game-errors";
    list.setAttribute("role", "alert");
    var items = document.createElement("ul");
    items.className = "field-errors";
    var item = document.createElement("li");
    item.textContent = text;
    items.appendChild(item);
    list.appendChild(items);
    if (place) {
      place.setAttribute("aria-invalid", "true");
      place.setAttribute("aria-describedby", list.id);
      place.after(list);
      place.focus();
    } else {
      var players = document.getElementById("players");
      players.setAttribute("aria-describedby", list.id);
      players.querySelector(".hint").after(list);
      players.scrollIntoView({ block: "start" });
    }
  }

  function clearRefusal() {
    var shown = document.getElementById("offline-new-game-errors");
    if (shown) {
      shown.remove();
    }
    Array.prototype.forEach.call(form.querySelectorAll('[aria-describedby="offline-new-game-errors"]'), function (field) {
      field.removeAttribute("aria-describedby");
      field.removeAttribute("aria-invalid");
    });
  }

  // ------------------------------------------------------------------------------------------
  // Start, with no network

  // The game checked and started on the phone, kept with its start in the outbox, then its
  // scoreboard; or the page's words for what is wrong.
  function startHere(said) {
    say(said.loading);
    clearRefusal();
    var table = tableOf();
    return rules("games/new", { game: table, known: knownNames() }).then(function (answer) {
      if (answer.status !== 200) {
        refuse(answer.body.error, answer.body.field);
        return;
      }
      var key = window.StichelnOutbox.newKey();
      var code = window.StichelnOutbox.newOf(key);
      var outbox = window.StichelnOutbox(code, root + "/api/v1/games/" + encodeURIComponent(code), function () {});
      return outbox
        .keepGame(answer.body)
        .then(function () {
          return outbox.keep(outbox.change({ action: "start", base: 0, body: startOf(table), key: key }));
        })
        .then(function () {
          location.href = root + "/games/new/" + key;
        });
    });
  }

  form.setAttribute("data-offline-entry", ""); // static/forms.js leaves Start to this script
  var confirmed = false;
  form.addEventListener("submit", function (event) {
    if (confirmed) {
      confirmed = false; // the server answers: the page's own post goes ahead
      return;
    }
    event.preventDefault();
    var submitter = event.submitter || null;
    Promise.all([reachable(), words]).then(function (found) {
      if (found[0] || !found[1]) {
        // The server answers; or this phone never had offline play's words in this
        // language, so static/forms.js says the page needs the network.
        if (!found[0]) {
          form.removeAttribute("data-offline-entry");
        }
        confirmed = true;
        form.requestSubmit(submitter);
        form.setAttribute("data-offline-entry", "");
        return;
      }
      startHere(found[1]);
    });
  });
})();
