// Offline play: a round marked, recorded or corrected on a phone with no network is checked
// and scored on the phone, kept in its outbox (static/outbox.js), shown on the scoreboard as
// the server will show it once sent (the rules worker draws the board with the server's page
// model and template, the round marked "on this phone, not yet sent"), and sent by itself,
// in order, once the server answers. Loaded by app.js, after outbox.js, on a game's pages
// ([data-game]) once this phone kept the offline kit (static/keep.js names its rules worker).
//
// - What the phone shows of a game offline, and whether a change is refused, is decided by
//   companion/play_state (round_fields, offline_game) with companion/rules, in the rules worker
//   (Pyodide): this script only asks and draws the answer. No rule is written here.
// - A Save the server does not answer (a HEAD on the game's API address decides, not the
//   browser's online flag) is kept. A change the server did not take when it was sent (a
//   clash with another phone's, or a refusal) is drawn by the worker too (pages/stopped: the
//   server's conflict view, its ways out the server's); this script only takes the change
//   out of the outbox as a way out is taken.
// - It is one script, in sections (the scoreboard, the round pages, what they share), as
//   only a phone that kept the kit loads it, whole, from its cache.
(function () {
  "use strict";

  var main = document.querySelector("[data-game]");
  var script = document.currentScript;
  var workerUrl = null;
  try {
    workerUrl = localStorage.getItem("sticheln-offline-worker");
  } catch (error) {}
  if (!main || !script || !workerUrl || !("indexedDB" in window) || !window.StichelnOutbox) {
    return;
  }
  var code = main.getAttribute("data-game");
  var root = script.src.slice(0, script.src.lastIndexOf("/static/"));
  // The table's next game, started on this phone before the server has it: its pages are
  // under the game it follows ("/g/<code>/next").
  var NEXT_ADDRESS = /\/g\/([A-Za-z0-9]+)\/next(?:\/rounds\/(record|mark|live|[0-9]+\/live))?$/;
  var nextGame = location.pathname.match(NEXT_ADDRESS);
  var before = nextGame ? nextGame[1] : null; // the game it follows
  if (nextGame) {
    code = window.StichelnOutbox.nextOf(before);
  }
  // A game started on this phone with no network (static/offline_new_game.js): its pages
  // are under "/games/new/<key>". Each page of either is the kept shell (templates/pwa/
  // shell.html), which the rules worker draws the page in, from the game's state.
  var NEW_ADDRESS = /\/games\/new\/([A-Za-z0-9_-]+)(?:\/rounds\/(record|mark|live|[0-9]+\/live))?$/;
  var newGame = location.pathname.match(NEW_ADDRESS);
  if (newGame) {
    code = window.StichelnOutbox.newOf(newGame[1]);
  }
  // A game this phone holds that the server does not have yet: a next game or a new one.
  var placeholder = Boolean(nextGame || newGame);
  var gameApi = root + "/api/v1/games/" + encodeURIComponent(code);
  var language = document.documentElement.lang || "en";
  var wordsUrl = root + "/offline/words.json?lang=" + encodeURIComponent(language);
  // A live round's address (its page, or the kept page the service worker shows there
  // offline, on which static/offline_live.js plays the round).
  var LIVE_ADDRESS = /\/rounds\/[0-9]+\/live$/;
  // A round's correct page this phone never opened: the service worker shows the game's
  // kept record page there, on which the round is entered again, whole.
  var CORRECT_ADDRESS = /\/rounds\/([0-9]+)$/;
  // What this page is (read again when another page of the game is swapped in, in place).
  var scoreboardUrl, onLivePage, onScoreboard, form, marking, correctAgain, correcting, startingLive;

  function readPage() {
    scoreboardUrl = placeholder ? placeholderAddress("") : main.getAttribute("data-scoreboard");
    onLivePage = LIVE_ADDRESS.test(location.pathname);
    var board = placeholder ? location.pathname === new URL(scoreboardUrl).pathname : document.querySelector(".board-updates") !== null;
    onScoreboard = board && !onLivePage;
    form =
      document.getElementById("round-form") ||
      main.querySelector('form.round-form[data-kind="mark"]') ||
      main.querySelector("form.live-start__form");
    marking = form !== null && form.getAttribute("data-kind") === "mark";
    correctAgain =
      !placeholder &&
      main.hasAttribute("data-offline-frame") &&
      !main.hasAttribute("data-correcting") &&
      CORRECT_ADDRESS.test(location.pathname);
    correcting = main.hasAttribute("data-correcting") || correctAgain;
    startingLive = main.querySelector(".live-start") !== null; // (offline_live.js plays it)
  }
  readPage();
  var JUST_SENT = "sticheln-offline-sent";
  var GAMES_CACHE = "sticheln-games"; // the kept pages of games (templates/pwa/sw.js)
  var RETRY_MS = 5000; // how soon waiting rounds are sent again after the server did not answer
  var REACH_MS = 4000; // how long a Save waits for the server before keeping the round here
  var words = null;
  var shownWaiting = []; // the changes this page last said were waiting (their ids)
  var outbox = window.StichelnOutbox(code, gameApi, function () {
    say(words.sending);
  });

  // The address of the next game of ``game`` started on this phone: its scoreboard, or a
  // round page ("record", "mark", "live").
  function nextAddress(game, page) {
    var board = root + "/g/" + encodeURIComponent(game) + "/next";
    return page ? board + "/rounds/" + page : board;
  }

  // The address of a page of the game this page is of, which the server does not have yet.
  function placeholderAddress(page) {
    if (nextGame) {
      return nextAddress(before, page);
    }
    var board = root + "/games/new/" + newGame[1];
    return page ? board + "/rounds/" + page : board;
  }

  // ------------------------------------------------------------------------------------------
  // The rules worker: companion/rules under Pyodide, answering as the API does

  var worker = null;
  var calls = {};
  var lastCall = 0;

  function rules(call, body) {
    if (!worker) {
      worker = new Worker(workerUrl, { type: "module" });
      worker.onmessage = function (event) {
        var data = event.data || {};
        if (data.id !== undefined && calls[data.id]) {
          calls[data.id](data);
          delete calls[data.id];
        }
      };
    }
    lastCall += 1;
    var id = lastCall;
    return new Promise(function (resolve) {
      calls[id] = resolve;
      worker.postMessage({ id: id, call: call, body: body, language: language });
    });
  }

  // The changes as companion/play_state/offline_game.py takes them (a correction, a live trick
  // and its undo name their round).
  var NUMBERED = ["correct", "cards", "trick", "undo", "undo_card"];

  function queued(changes) {
    return changes.map(function (change) {
      var made = { action: change.action, body: change.body };
      if (NUMBERED.indexOf(change.action) !== -1) {
        made.number = change.number;
      }
      return made;
    });
  }

  function waitingOf(changes) {
    return changes.filter(function (change) {
      return change.state === "waiting";
    });
  }

  // ------------------------------------------------------------------------------------------
  // What the phone says

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (whole, name) {
      return name in values ? String(values[name]) : whole;
    });
  }

  function waitingWords(count) {
    var category = new Intl.PluralRules(language).select(count);
    return fill(words.waiting[category] || words.waiting.other, { count: count });
  }

  // The notice at the top of the page: what offline play is doing now.
  var said = null; // the notice, kept to be put back on a scoreboard swapped for a newer one

  function say(text, warning, alert) {
    var notice = document.getElementById("offline-play-status");
    if (!notice) {
      notice = document.createElement("p");
      notice.id = "offline-play-status";
      main.insertBefore(notice, main.firstChild);
    }
    said = notice;
    notice.setAttribute("role", alert ? "alert" : "status");
    notice.className = "notice " + (warning ? "notice--warning" : "notice--saved");
    notice.textContent = text || "";
    notice.hidden = !text;
  }

  // ------------------------------------------------------------------------------------------
  // The scoreboard: the rounds entered on this phone, and what happened to them

  function showScoreboard() {
    var copy = document.querySelector("[data-offline-copy]");
    if (copy && !copy.hidden) {
      copy.textContent = words.copy; // the worker's copy, shown offline
    }
    var kept = new URLSearchParams(location.search).get("kept");
    if (kept) {
      history.replaceState({ inPlace: true }, "", location.pathname); // said once, not at every reload
    }
    var note = wasJustSent() ? words.sent : kept ? fill(words.kept, { number: kept }) : null;
    var board = placeholder ? movedOn() : Promise.resolve();
    return board.then(catchUp).then(function (online) {
      if (online && keptCopyShown() && freshOnce()) {
        location.reload(); // the server answers now: its scoreboard, not the phone's copy
        return;
      }
      return drawChanges(note, online).then(function (waiting) {
        var pageForm = main.querySelector(".play-again form");
        if (pageForm && !placeholder) {
          takePlayAgain(pageForm); // the board's own button, should the network go
        }
        if (waiting || (placeholder && !online)) {
          retryLater(); // (a next game waits for its play again, kept with the game before)
        }
      });
    });
  }

  // The scoreboard follows the game: static/scoreboard.js puts the server's newer page in
  // place of this one's (another phone's round, or this phone's sent by the service worker).
  // What this page said of the phone's changes stays, and what is still kept here is drawn
  // again on the new page.
  function keepAcrossSwaps() {
    main.addEventListener("scoreboard:swapped", function () {
      var notice = document.getElementById("offline-play-status");
      if (!notice && said) {
        main.insertBefore(said, main.firstChild);
      }
      outbox.changes().then(function (changes) {
        if (changes.length) {
          drawChanges(null, true);
        }
      });
    });
  }

  // ------------------------------------------------------------------------------------------
  // Play again with no network: the table's next game, started on this phone

  // The page's own Play again (a game the server has as over): with no network, on the phone.
  function takePlayAgain(pageForm) {
    pageForm.setAttribute("data-offline-entry", "");
    var confirmed = false;
    pageForm.addEventListener("submit", function (event) {
      if (confirmed) {
        return;
      }
      event.preventDefault();
      reachable().then(function (online) {
        if (online) {
          confirmed = true;
          pageForm.requestSubmit();
        } else {
          startNext();
        }
      });
    });
  }

  // The next game as the server will start it (games/next), kept on the phone, and the
  // play again that starts it on the server kept in the outbox; then its scoreboard.
  function startNext() {
    say(words.loading);
    return offlineGame().then(function (offline) {
      if (!offline) {
        return;
      }
      return rules("games/next", { state: offline.game }).then(function (answer) {
        if (answer.status !== 200) {
          say(answer.body.error, true, true);
          return;
        }
        var next = window.StichelnOutbox(window.StichelnOutbox.nextOf(code), gameApi, function () {});
        return next
          .keepGame(answer.body)
          .then(function () {
            return outbox.keep(outbox.change({ action: "again", base: offline.kept.version, body: {} }));
          })
          .then(function () {
            location.href = nextAddress(code, "");
          });
      });
    });
  }

  // A game this phone started, on the server now: sent meanwhile (by the service worker, or
  // another tab); its scoreboard says whether every change made it.
  function movedOn() {
    return outbox.keptGame().then(function (kept) {
      if (kept && kept.movedTo) {
        markJustSent(kept.movedTo);
        location.replace(root + "/g/" + encodeURIComponent(kept.movedTo));
        return new Promise(function () {});
      }
    });
  }

  // ``game``: the game whose page is loaded next (this one's, or a next game's once the
  // server started it).
  function markJustSent(game) {
    try {
      sessionStorage.setItem(JUST_SENT, game || code);
    } catch (error) {}
  }

  // Whether this page was loaded again because the rounds waiting here were just sent.
  function wasJustSent() {
    try {
      var sent = sessionStorage.getItem(JUST_SENT) === code;
      sessionStorage.removeItem(JUST_SENT);
      return sent;
    } catch (error) {
      return false;
    }
  }

  // With the network: the game as the server has it, kept, and the waiting rounds sent (the
  // page is then loaded again, as the server has it). Answers whether the server answered.
  function catchUp() {
    if (placeholder) {
      return catchUpNext();
    }
    return fetchState().then(function (online) {
      if (!online) {
        return false;
      }
      return outbox.send().then(sentHereOrElsewhere).then(function (count) {
        if (count > 0) {
          markJustSent();
          location.reload(); // the page as the server now has it, every sent round in it
          return new Promise(function () {}); // nothing more to draw on this page
        }
        return true;
      });
    });
  }

  // A next game not on the server yet: with the network, the game it follows is sent first
  // (its play again starts the next game, and this phone's changes move to it), then the
  // page is loaded again: the server leads its address to the game it started. A game
  // started on this phone likewise: its start first, then the service worker leads its
  // address to the game the server started.
  function catchUpNext() {
    return reachable().then(function (online) {
      if (!online) {
        return false;
      }
      return outbox.send().then(function (count) {
        return outbox.keptGame().then(function (kept) {
          if (count > 0 || (kept && kept.movedTo)) {
            markJustSent(kept && kept.movedTo);
            location.reload(); // the server leads this address to the game it started
            return new Promise(function () {});
          }
          return true;
        });
      });
    });
  }

  // How many rounds this page showed waiting that are sent now: by this page (``count``), or
  // meanwhile by another tab or by the service worker (Background Sync, static/outbox.js).
  function sentHereOrElsewhere(count) {
    if (count > 0 || !shownWaiting.length) {
      return count;
    }
    return outbox.changes().then(function (changes) {
      var kept = idsOf(changes);
      return shownWaiting.filter(function (id) {
        return kept.indexOf(id) === -1; // gone from the outbox: the server has it
      }).length;
    });
  }

  function idsOf(changes) {
    return changes.map(function (change) {
      return change.id;
    });
  }

  // Another page of the game (marking, live play, sharing: online only, the service worker
  // keeps none of them): what waits to be sent, which is sent as soon as the server answers.
  function showStatus() {
    var sent = wasJustSent();
    return catchUp().then(function () {
      return outbox.changes().then(function (changes) {
        shownWaiting = idsOf(waitingOf(changes));
        var waiting = shownWaiting.length;
        say(waiting ? waitingWords(waiting) : sent ? words.sent : "", waiting > 0);
        if (waiting) {
          retryLater();
        }
      });
    });
  }

  // Rounds wait while the server cannot be reached: try again every little while, as the
  // browser's online event is not to be trusted (a Wi-Fi with no way out counts as online);
  // and at once when the browser says the network is back, which is when it mostly is. The
  // network may come back while the page is still drawing what waits (the rules worker
  // starting): the try it then sets up is made at once, once, not a while later.
  var retryTimer = null;
  var backMeanwhile = false;

  function retryLater() {
    clearTimeout(retryTimer);
    if (backMeanwhile && navigator.onLine) {
      backMeanwhile = false;
      retryNow();
      return;
    }
    backMeanwhile = false;
    retryTimer = setTimeout(retryNow, RETRY_MS);
  }

  function retryNow() {
    clearTimeout(retryTimer);
    retryTimer = null;
    catchUp().then(function (online) {
      if (!online) {
        retryLater();
      } else if (onScoreboard && keptCopyShown() && freshOnce()) {
        location.reload(); // the scoreboard as the server has it now, not the phone's copy
      } else if (onScoreboard) {
        drawChanges(null, true); // what the server did not take, drawn in place
      }
    });
  }

  // Whether this page is the copy the service worker kept, shown with no network.
  function keptCopyShown() {
    return document.querySelector("[data-offline-copy]:not([hidden])") !== null || main.hasAttribute("data-offline-drawn");
  }

  // Whether the page may be loaded again for the server's copy: once a minute at most, so
  // that a server answering the API but not its pages never makes the page reload on end.
  function freshOnce() {
    var key = "sticheln-offline-fresh-" + location.pathname;
    try {
      var last = Number(sessionStorage.getItem(key) || 0);
      if (Date.now() - last < 60000) {
        return false;
      }
      sessionStorage.setItem(key, String(Date.now()));
      return true;
    } catch (error) {
      return false;
    }
  }

  window.addEventListener("online", function () {
    if (retryTimer !== null) {
      retryNow(); // only while changes wait for the network
    } else {
      backMeanwhile = true; // for a try set up while the page draws (retryLater)
    }
  });
  window.addEventListener("offline", function () {
    backMeanwhile = false;
  });

  // Whether the server answers now (any answer will do); the JSON API, which the service
  // worker never answers from what it keeps.
  function reachable() {
    return window.StichelnOutbox.reachable(gameApi, REACH_MS).then(function (online) {
      offlineSeen = !online;
      return online;
    });
  }

  // The game as the server has it now, kept for offline use, with its record page.
  function fetchState() {
    return fetch(gameApi, { credentials: "same-origin" })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (state) {
        if (!state) {
          throw new Error("no game state");
        }
        // The pages first, then the state: a page left while its round pages are being kept
        // leaves the older state, so the next load keeps them again.
        return outbox.keptGame().then(function (kept) {
          var pages = kept && kept.state.version === state.version ? [] : recordPages();
          askForShell();
          return keepPages(pages).then(function () {
            return outbox.keepGame(state);
          });
        });
      })
      .then(
        function () {
          // This phone now holds what it needs to record rounds of this game offline.
          main.setAttribute("data-offline-ready", "");
          return true;
        },
        function () {
          return false;
        }
      );
  }

  function linksTo(pattern) {
    return Array.prototype.filter.call(document.querySelectorAll("a[href]"), function (link) {
      return pattern.test(new URL(link.href).pathname);
    });
  }

  // The pages a round is entered on offline: recording it, marking its colours, starting it
  // live.
  function recordPages() {
    return linksTo(/\/rounds\/(record|mark|live)$/).map(function (link) {
      return link.href;
    });
  }

  function keepPages(urls) {
    return caches.open(GAMES_CACHE).then(function (cache) {
      return Promise.all(
        urls.map(function (url) {
          return keepPage(cache, url);
        })
      );
    });
  }

  // One page kept: the frame the rules worker draws the page in, offline.
  function keepPage(cache, url) {
    return fetch(url, { credentials: "same-origin" }).then(function (response) {
      var whole = response.status === 200 && !response.redirected;
      var store = (response.headers.get("Cache-Control") || "").indexOf("no-store") === -1;
      return whole && store ? cache.put(url, response) : undefined;
    });
  }

  // The service worker keeps the shell a game started offline is drawn in, in this page's
  // language (templates/pwa/sw.js).
  function askForShell() {
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({ keep: "shell", language: language });
    }
  }

  // ------------------------------------------------------------------------------------------
  // Switching between quick entry and every card with no network: the other mode's page,
  // drawn by the rules worker, with what both forms take carried over (the indicators; quick
  // entry's marked-colour cards become every card's first cards).

  function switchOffline(url) {
    var carried = {};
    var fields = fieldsOf(form);
    Object.keys(fields).forEach(function (name) {
      var here = /-marked_captured$/.test(name) ? name.replace(/-marked_captured$/, "-captured") : name;
      if (/-(marked|captured)$/.test(here)) {
        carried[here] = (carried[here] || []).concat(fields[name]); // counts and choices stay behind
      }
    });
    history.replaceState(null, "", url);
    drawRoundPage(carried);
  }

  // The rounds this phone holds for the game, drawn; answers how many wait to be sent.
  function drawChanges(note, online) {
    return Promise.all([outbox.changes(), outbox.keptGame()]).then(function (found) {
      var changes = found[0];
      var kept = found[1];
      Array.prototype.forEach.call(
        main.querySelectorAll(".offline-pending, .offline-stopped"),
        function (drawn) {
          drawn.remove();
        }
      );
      var waiting = waitingOf(changes);
      shownWaiting = idsOf(waiting);
      var status = [note, waiting.length ? waitingWords(waiting.length) : null];
      if (!online && !document.querySelector("[data-offline-copy]:not([hidden])")) {
        status.unshift(words.offline);
      }
      say(status.filter(Boolean).join(" "), waiting.length > 0);
      drawStopped(changes, kept);
      if (!kept || (!waiting.length && !placeholder)) {
        if (placeholder) {
          main.hidden = false; // nothing kept here of it: the page it was drawn on, as it is
        }
        return waiting.length;
      }
      return drawBoard(kept.state, waiting).then(function () {
        return waiting.length;
      });
    });
  }

  // The board (the rounds, the totals, the round to come, the chart) as the server will draw
  // it once the changes ``waiting`` are sent: drawn by the rules worker with the server's
  // page model and template (the pages/scoreboard call), put in place of the kept page's. A
  // game the server does not have yet is drawn the same way, from the state its start kept
  // here, into the kept shell (with its heading, the first time).
  function drawBoard(state, waiting) {
    var board = main.querySelector("[data-board]");
    var token = document.querySelector('input[name="csrf_token"]');
    if (!board && !placeholder) {
      return Promise.resolve();
    }
    return rules("pages/scoreboard", {
      state: state,
      queued: queued(waiting),
      root: root,
      token: token ? token.value : "",
      editable: true,
      excluded: !placeholder && board.querySelector(".excluded-note") !== null,
      next_game: !placeholder && board.querySelector("[data-next-game]") ? "next" : null,
      address: placeholder ? placeholderAddress("") : null,
      whole: !board,
    }).then(function (answer) {
      main.hidden = false; // (a page drawn on: hidden until now)
      if (answer.status !== 200) {
        return;
      }
      if (board) {
        board.innerHTML = answer.body.html;
      } else {
        fillShell(answer.body.html);
        board = main.querySelector("[data-board]");
      }
      main.dispatchEvent(new CustomEvent("scoreboard:drawn")); // scoreboard.js: the reasons
      var again = board.querySelector(".play-again form");
      if (again && !placeholder) {
        takePlayAgain(again); // the board's own button, should the network stay away
      }
      var copy = document.querySelector("[data-offline-copy]");
      if (copy && !copy.hidden) {
        copy.hidden = true; // the board is the game as it stands here (one notice)
        main.setAttribute("data-offline-drawn", ""); // still the kept page (keptCopyShown)
      }
      main.removeAttribute("data-offline-frame");
    });
  }

  // The shell's content: the page the rules worker drew (what the phone says stays).
  function fillShell(html) {
    Array.prototype.slice.call(main.children).forEach(function (child) {
      if (child.id !== "offline-play-status") {
        child.remove();
      }
    });
    main.insertAdjacentHTML("beforeend", html);
    var heading = main.querySelector("h1"); // the page's name, before the app's
    document.title = heading.textContent.trim() + " · " + document.title.split(" · ").pop();
  }

  // The live page of round ``number``.
  function liveAddress(number) {
    if (placeholder) {
      return placeholderAddress(number + "/live");
    }
    return root + "/g/" + encodeURIComponent(code) + "/rounds/" + number + "/live";
  }

  // ------------------------------------------------------------------------------------------
  // The changes the server did not take: a clash with another phone's change (the conflict
  // view's ways out, as the server offers them) or a refusal (discard it), drawn by the rules
  // worker (pages/stopped: companion/pages/clash.py and the server's conflict view). A way
  // out taken here takes the change out of the outbox first; a round played live here is
  // one choice for all its changes.

  var LIVE_CHANGES = ["live", "cards", "trick", "undo", "undo_card"];

  function drawStopped(changes, kept) {
    var stopped = changes.filter(function (change) {
      return change.state !== "waiting";
    });
    var token = document.querySelector('input[name="csrf_token"]');
    if (!stopped.length || !kept) {
      return;
    }
    rules("pages/stopped", { state: kept.state, changes: changes, root: root, token: token ? token.value : "" }).then(
      function (answer) {
        var heading = main.querySelector("h1");
        if (answer.status === 200 && heading && !main.querySelector(".offline-stopped")) {
          heading.insertAdjacentHTML("afterend", answer.body.html);
        }
      }
    );
  }

  // The changes a way out of ``shown`` (a drawn .offline-stopped) takes out of the outbox.
  function stoppedChanges(shown) {
    var number = Number(shown.getAttribute("data-number"));
    var id = Number(shown.getAttribute("data-change"));
    return outbox.changes().then(function (changes) {
      return changes.filter(function (change) {
        var live = shown.hasAttribute("data-live") && LIVE_CHANGES.indexOf(change.action) !== -1;
        return live ? change.number === number : change.id === id;
      });
    });
  }

  function dropAll(changes) {
    return Promise.all(
      changes.map(function (change) {
        return outbox.drop(change.id);
      })
    );
  }

  function takeWaysOut() {
    main.addEventListener("click", function (event) {
      var way = event.target.closest ? event.target.closest(".offline-stopped [data-way]") : null;
      var shown = way && way.closest(".offline-stopped");
      if (!way || way.type === "submit") {
        return; // (Compare and choose: the form's submit, below)
      }
      event.preventDefault();
      if (way.getAttribute("data-way") === "mine") {
        keepLiveRound(Number(shown.getAttribute("data-number")));
        return;
      }
      stoppedChanges(shown).then(dropAll).then(function () {
        if (way.href) {
          location.href = way.href; // theirs stands: the server's page says so
        } else {
          shown.remove(); // a refusal, discarded
        }
      });
    });
    main.addEventListener("submit", function (event) {
      var shown = event.target.closest(".offline-stopped");
      if (shown) {
        // The round as this phone entered it, posted to the page it came from: the server
        // shows its conflict view, both entries in it.
        event.preventDefault();
        stoppedChanges(shown).then(dropAll).then(function () {
          HTMLFormElement.prototype.submit.call(event.target);
        });
      }
    });
  }

  // This phone's round stands: sent whole, in place of its live changes (the first of them
  // keeps its place in the queue), as the round recorded in full, or as the correction of
  // the round the other phone recorded. While the other phone still plays it live, nothing.
  function keepLiveRound(number) {
    reachable()
      .then(function (online) {
        if (!online) {
          say(words.offline, true, true);
          return null;
        }
        return fetchState().then(function () {
          return Promise.all([outbox.keptGame(), outbox.changes()]);
        });
      })
      .then(function (found) {
        if (!found) {
          return;
        }
        var server = found[0].state;
        var mine = found[1].filter(function (change) {
          return LIVE_CHANGES.indexOf(change.action) !== -1 && change.number === number;
        });
        var asked = { state: server, queued: queued(mine), number: number };
        return rules("rounds/live_entries", asked).then(function (played) {
          var theirs = server.rounds[number - 1];
          if (played.status !== 200 || !mine.length) {
            return;
          }
          if (theirs && theirs.status !== "scored") {
            say(fill(words.live_elsewhere, { number: number }), true, true);
            return;
          }
          var body = { version: server.version, entries: played.body.entries };
          if (!theirs) {
            body.number = number;
          }
          var whole = outbox.change({
            id: mine[0].id,
            action: theirs ? "correct" : "record",
            number: number,
            base: server.version,
            body: body,
          });
          return outbox
            .replace(whole)
            .then(function () {
              return dropAll(mine.slice(1));
            })
            .then(outbox.send)
            .then(function () {
              markJustSent();
              location.reload();
            });
        });
      });
  }

  // ------------------------------------------------------------------------------------------
  // The record page: a round recorded offline is checked and scored on the phone, then kept

  function fieldsOf(sent) {
    var fields = {};
    new FormData(sent).forEach(function (value, name) {
      (fields[name] = fields[name] || []).push(String(value));
    });
    return fields;
  }

  // The offline state of the game with this phone's waiting changes, or null (said why).
  function offlineGame() {
    return Promise.all([outbox.keptGame(), outbox.changes()]).then(function (found) {
      var kept = found[0];
      if (!kept) {
        say(words.unkept, true, true);
        return null;
      }
      var waiting = waitingOf(found[1]);
      return rules("games/offline", { state: kept.state, queued: queued(waiting) }).then(
        function (answer) {
          if (answer.status !== 200) {
            say(fill(words.failed, { error: answer.body.error }), true, true);
            return null;
          }
          return { kept: kept.state, waiting: waiting, game: answer.body };
        }
      );
    });
  }

  // The round pages the rules worker draws (companion/pages/record.py, the server's model
  // and templates), by address: the kept page's content is swapped for the page drawn from
  // the game as it stands here (the state kept plus the changes waiting); a game only this
  // phone holds is drawn into the kept shell.
  var ROUND_PAGES = [
    { pattern: /\/rounds\/record$/, call: "pages/record" },
    { pattern: /\/rounds\/mark$/, call: "pages/mark" },
    { pattern: /\/rounds\/live$/, call: "pages/live_start", starting: true },
    { pattern: /\/rounds\/([0-9]+)$/, call: "pages/record", numbered: true },
  ];

  function roundPageOf(url) {
    return ROUND_PAGES.filter(function (page) {
      return page.pattern.test(url.pathname);
    })[0];
  }

  // This page's content drawn by the rules worker (``fields``: a form's fields to show
  // again, as FormData gives them; ``check``: checked as the server's Check does), swapped
  // in; answers whether it was.
  function drawRoundPage(fields, check) {
    var url = new URL(location.href);
    var page = roundPageOf(url);
    var section = main.querySelector("section.round-page");
    if (!page || (!section && !placeholder)) {
      return Promise.resolve(false);
    }
    var token = document.querySelector('input[name="csrf_token"]');
    return Promise.all([outbox.keptGame(), outbox.changes()]).then(function (found) {
      if (!found[0]) {
        say(words.unkept, true, true);
        return false;
      }
      var body = {
        state: found[0].state,
        queued: queued(waitingOf(found[1])),
        root: root,
        token: token ? token.value : "",
        address: placeholder ? placeholderAddress("") : null,
      };
      if (page.starting) {
        return rules(page.call, body).then(swapRoundPage);
      }
      body.mode = url.searchParams.get("mode") || modeOf(form);
      if (page.numbered) {
        body.number = Number(url.pathname.match(page.pattern)[1]);
        if (!correctAgain && form) {
          body.kept = fieldsOf(form); // the round as the server showed it when the page was kept
        }
      }
      var typed = !fields && form && form.hasAttribute("data-typed") ? fieldsOf(form) : null;
      if (fields || typed) {
        body.fields = fields || typed; // (what was tapped on the kept page, kept)
        body.check = Boolean(check); // as the server's Check shows them
      }
      return rules(page.call, body).then(function (answer) {
        if (answer.status !== 200) {
          say(fill(words.failed, { error: answer.body.error }), true, true);
          return false;
        }
        if (typed !== null && JSON.stringify(fieldsOf(form)) !== JSON.stringify(typed)) {
          return drawRoundPage(); // tapped meanwhile: drawn again with it
        }
        if (!fields && !typed && form && form.hasAttribute("data-typed")) {
          return drawRoundPage(); // tapped while the worker drew it
        }
        var digest = form && form.elements.digest ? form.elements.digest.value : "";
        if (!swapRoundPage(answer)) {
          return false;
        }
        if (digest && form.elements.digest) {
          form.elements.digest.value = digest; // the round as the server showed it last
        }
        return true;
      });
    });
  }

  // The page the worker drew in place of the round page shown (the shell's content, for a
  // game only this phone holds); answers whether it was.
  function swapRoundPage(answer) {
    if (answer.status !== 200) {
      say(fill(words.failed, { error: answer.body.error }), true, true);
      return false;
    }
    var shown = main.querySelector("section.round-page"); // (drawn again meanwhile, maybe)
    if (shown) {
      shown.insertAdjacentHTML("afterend", answer.body.html);
      shown.remove();
    } else if (placeholder) {
      fillShell(answer.body.html);
      if (!window.StichelnRounds) {
        var script = document.createElement("script"); // the round pages' own (rounds.js)
        script.src = main.getAttribute("data-round-script");
        main.appendChild(script);
      }
    } else {
      return false;
    }
    ownPage();
    return true;
  }

  // The entry mode of a round form (quick entry or every card).
  function modeOf(shown) {
    var kind = shown ? shown.getAttribute("data-kind") : null;
    return kind === "full" || kind === "delayed" || kind === "hat-full" ? "full" : kind ? "quick" : null;
  }

  // A page drawn here: its form is taken, and the page's scripts run on it (rounds.js at
  // once, before the page is painted, once this document has run it).
  function ownPage() {
    readPage();
    main.hidden = false;
    main.removeAttribute("data-offline-frame");
    if (form) {
      form.action = location.pathname + location.search;
      takeSubmit();
    }
    if (window.StichelnRounds) {
      window.StichelnRounds();
      return;
    }
    Array.prototype.forEach.call(main.querySelectorAll("script[src]"), function (old) {
      var again = document.createElement("script");
      again.src = old.src;
      again.async = false; // in the page's order
      old.replaceWith(again);
    });
  }

  function keepRound(action) {
    say(words.loading);
    var fields = fieldsOf(form);
    var entries = null;
    return offlineGame()
      .then(function (offline) {
        if (!offline) {
          return null;
        }
        var request = {
          kind: form.getAttribute("data-kind"),
          variant: offline.kept.variant,
          players: offline.kept.players.length,
          fields: fields, // the reader takes the seats' fields and leaves the rest
        };
        if (startingLive && !marking) {
          return offline; // the round's colours were marked, or the variant lays none out
        }
        if (marking) {
          delete request.kind; // the mark page's fields are only indicators
          return rules("rounds/marks", request).then(function (read) {
            if (read.status !== 200) {
              say(read.body.error, true, true);
              return null;
            }
            entries = read.body.marked;
            return offline;
          });
        }
        return rules("rounds/fields", request).then(function (read) {
          if (read.status !== 200) {
            say(read.body.error, true, true);
            return null;
          }
          if (read.body.implied || action === "check") {
            // Checked as the server's Check: the page drawn again with each seat's score, or
            // every refusal beside its seat, and the count the others imply filled in.
            return drawRoundPage(fields, true).then(function () {
              say(read.body.implied ? words.implied : words.offline, Boolean(read.body.implied));
              return null;
            });
          }
          entries = read.body.entries;
          return offline; // the checks C1-C5 come with the game as it stands (games/offline)
        });
      })
      .then(function (offline) {
        if (!offline) {
          return;
        }
        // A new round is opened for the next number; a correction names its round.
        var number = correcting ? correctedNumber() : offline.game.next_round;
        var body = { version: offline.kept.version };
        if (entries !== null) {
          body[marking ? "marked" : "entries"] = entries;
        }
        if (!correcting && !startingLive) {
          body.number = number; // (the API's live start takes none: its version decides)
        }
        var change = outbox.change({
          action: correcting ? "correct" : startingLive ? "live" : marking ? "mark" : "record",
          number: number,
          base: offline.kept.version,
          body: body,
          fields: fields,
          page: location.pathname + location.search,
        });
        var queue = queued(offline.waiting).concat(queued([change]));
        return rules("games/offline", { state: offline.kept, queued: queue }).then(function (answer) {
          var refusal = (answer.body.refused || []).filter(function (refused) {
            return refused.change === offline.waiting.length;
          })[0];
          if (answer.status !== 200 || refusal) {
            var error = (refusal || answer.body).error;
            var shown = marking || startingLive ? Promise.resolve() : drawRoundPage(fields, true);
            return shown.then(function () {
              say(error, true, true);
            });
          }
          return outbox.keep(change).then(function () {
            go(startingLive ? liveAddress(number) : scoreboardUrl + "?kept=" + number);
          });
        });
      })
      .catch(function (error) {
        say(fill(words.failed, { error: String(error) }), true, true);
      });
  }

  // The record page kept on this phone: a Save the server does not answer is kept here.
  var keptCopy = false; // the page is the copy the phone kept, shown with no network

  function takeSubmit() {
    form.setAttribute("data-offline-entry", ""); // static/forms.js leaves it to this script
    form.addEventListener("change", function (event) {
      event.currentTarget.setAttribute("data-typed", ""); // kept when the page is drawn again
    });
    var confirmed = false;
    var taken = form;
    taken.addEventListener("submit", function (event) {
      if (confirmed) {
        confirmed = false; // the server answers: the page's own post goes ahead
        return;
      }
      event.preventDefault();
      var submitter = event.submitter || null;
      var action = submitter && submitter.name === "action" ? submitter.value : "";
      reachable().then(function (online) {
        if (online && !placeholder && !correctAgain) {
          (keptCopy ? caughtUp() : Promise.resolve()).then(function () {
            confirmed = true;
            taken.requestSubmit(submitter);
          });
        } else if (!action || action === "check" || action === "save") {
          keepRound(action);
        } else if (submitter && submitter.hasAttribute("data-switch")) {
          switchOffline(new URL(submitter.getAttribute("formaction"), location.href).href);
        } else {
          say(words.offline, true, true); // a step shows the page again: online only
        }
      });
    });
  }

  function takeRoundForm() {
    if (!form && !placeholder) {
      return;
    }
    if (form) {
      takeSubmit();
    }
    (offlineSeen ? Promise.resolve(false) : reachable()).then(function (online) {
      if (!online || placeholder) {
        keptCopy = true; // (a game the server does not have yet: always the kept copy)
        say(words.loading);
        drawRoundPage().then(function (drawn) {
          if (!drawn) {
            runNewScripts(); // the kept page as it is, with its scripts
          }
          main.hidden = false; // (a page drawn on a kept frame or in place, hidden until then)
          say(correctAgain ? words.offline + " " + fill(words.enter_again, { number: correctedNumber() }) : words.offline);
        });
      }
      if (!online) {
        return;
      }
      if (placeholder) {
        catchUpNext(); // sent, then this page of the game the server has
        return;
      }
      outbox.send().then(function (count) {
        if (count > 0) {
          markJustSent();
          location.reload(); // the page for the round to enter now that the others are in
        }
      });
    });
  }

  // The number of the round this page corrects.
  function correctedNumber() {
    return correctAgain ? Number(location.pathname.match(CORRECT_ADDRESS)[1]) : Number(form.elements.number.value);
  }

  // The kept copy, sent with the network back: the rounds waiting here go first, then this
  // page's post carries the game's version and round as the server now has them (the copy's
  // were those of the day it was kept). A clash with another phone is still found: the
  // server checks the version it sends against any change made since.
  function caughtUp() {
    return fetchState()
      .then(outbox.send)
      .then(offlineGame)
      .then(function (offline) {
        if (!offline) {
          return;
        }
        form.elements.version.value = String(offline.kept.version);
        if (!correcting) {
          form.elements.number.value = String(offline.game.next_round);
        }
      });
  }

  // ------------------------------------------------------------------------------------------
  // Moving between the game's pages with no network: in place, one rules worker for the visit.
  // A tap on a link to one of the pages below swaps the page's content and address for that
  // page's (the copy the service worker keeps, drawn again by the worker as the game stands
  // here) instead of loading a new document, which would start the worker again. The back
  // button goes back the same way. To draw another page in place, add its address here.

  var IN_PLACE = [/^$/, /^\/rounds\/(record|mark|[0-9]+)$/]; // after the game's address
  var offlineSeen = false; // the server did not answer the last time it was asked

  // Whether ``url`` is a page of this game drawn in place (while the server does not answer).
  function inPlace(url) {
    var game = new URL(placeholder ? placeholderAddress("") : root + "/g/" + encodeURIComponent(code), location.href);
    if (!offlineSeen || url.origin !== location.origin || url.pathname.indexOf(game.pathname) !== 0) {
      return false;
    }
    var rest = url.pathname.slice(game.pathname.length);
    return IN_PLACE.some(function (page) {
      return page.test(rest);
    });
  }

  // Go to ``address``: in place where the page is drawn here, else as the browser goes.
  function go(address) {
    var url = new URL(address, location.href);
    if (!inPlace(url)) {
      location.href = url.href;
      return;
    }
    visit(url, true);
  }

  // The page at ``url`` in place of this one: the kept copy's content (its stylesheets
  // added), then drawn as on any load; ``push``: a new entry in the history.
  function visit(url, push) {
    return fetch(url.href, { credentials: "same-origin", headers: { "X-Sticheln-Page": "1" } })
      .then(function (response) {
        return response.ok ? response.text() : Promise.reject(new Error("not kept"));
      })
      .then(function (text) {
        var page = new DOMParser().parseFromString(text, "text/html");
        var content = page.querySelector("main");
        if (!content) {
          throw new Error("no page");
        }
        Array.prototype.forEach.call(page.querySelectorAll('head link[rel="stylesheet"]'), function (link) {
          if (!document.querySelector('link[rel="stylesheet"][href="' + link.getAttribute("href") + '"]')) {
            document.head.appendChild(document.importNode(link, true));
          }
        });
        Array.prototype.slice.call(main.attributes).forEach(function (attribute) {
          main.removeAttribute(attribute.name);
        });
        Array.prototype.forEach.call(content.attributes, function (attribute) {
          main.setAttribute(attribute.name, attribute.value);
        });
        // The parsed nodes themselves, moved (not parsed again from text). A page the worker
        // draws stays hidden until drawn: the kept copy is never laid out nor started.
        var drawn = roundPageOf(url) !== undefined;
        main.hidden = drawn;
        main.replaceChildren.apply(main, Array.prototype.slice.call(content.childNodes));
        if (!drawn) {
          runNewScripts();
        }
        document.title = page.title;
        if (push) {
          history.pushState({ inPlace: true }, "", url.href);
        }
        window.scrollTo(0, 0);
        clearTimeout(retryTimer); // the page that set it is gone: the new one decides
        retryTimer = null;
        readPage();
        start();
        offerReadiness();
      })
      .catch(function () {
        location.href = url.href; // not kept here: the browser's way
      });
  }

  // The page's scripts this document has not run yet (set inside ``main`` by innerHTML, they
  // would not run): a script runs once a document, its listeners stay on ``main`` across
  // swaps (scoreboard.js's reasons, when the visit began on another page of the game).
  function runNewScripts() {
    Array.prototype.forEach.call(main.querySelectorAll("script[src]"), function (old) {
      if (scriptsRun.indexOf(old.src) !== -1) {
        return;
      }
      scriptsRun.push(old.src);
      var again = document.createElement("script");
      again.src = old.src;
      again.async = false; // in the page's order (follow.js before scoreboard.js)
      old.replaceWith(again);
    });
  }

  // A scoreboard drawn in place has a new readiness control: keep.js (which static/app.js
  // loads after a page's load) runs again on it.
  function offerReadiness() {
    var app = document.querySelector("script[data-keeping]");
    if (app && main.querySelector("[data-ready]")) {
      var keeping = document.createElement("script");
      keeping.src = app.getAttribute("data-keeping");
      document.head.appendChild(keeping);
    }
  }

  var scriptsRun = Array.prototype.map.call(document.querySelectorAll("script[src]"), function (script) {
    return script.src;
  });

  function movesInPlace() {
    document.addEventListener("click", function (event) {
      var link = event.target.closest ? event.target.closest("a[href]") : null;
      if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) {
        return;
      }
      if (inPlace(new URL(link.href, location.href))) {
        event.preventDefault();
        visit(new URL(link.href, location.href), true);
      }
    });
    window.addEventListener("popstate", function (event) {
      if (event.state && event.state.inPlace) {
        visit(new URL(location.href), false);
      }
    });
    history.replaceState({ inPlace: true }, "", location.href); // back to the first page too
  }

  // ------------------------------------------------------------------------------------------

  var wordsKept = fetch(wordsUrl)
    .then(function (response) {
      return response.ok ? response.json() : null;
    })
    .catch(function () {
      return null;
    });

  // What a live round played offline (static/offline_live.js) shares with this script.
  window.StichelnOfflinePlay = {
    code: code,
    gameApi: gameApi,
    outbox: outbox,
    rules: rules,
    say: say,
    fill: fill,
    reachable: reachable,
    fetchState: fetchState,
    liveAddress: liveAddress,
    root: root, // where the app is: the worker's pages link from it
    retryLater: retryLater, // a change kept: sent as soon as the server answers
    gameAddress: placeholder ? placeholderAddress("") : root + "/g/" + encodeURIComponent(code),
    placeholder: placeholder, // a game the server does not have yet
    queued: queued,
    waitingWords: function (count) {
      return count ? waitingWords(count) : "";
    },
    words: wordsKept,
  };

  // What this page does: drawn as the game stands here, its changes kept or sent.
  function start() {
    if (onScoreboard) {
      showScoreboard();
    } else if (scoreboardUrl !== null && !onLivePage) {
      takeRoundForm();
    } else {
      showStatus(); // any other page of the game: what waits, and whether it can be sent
    }
  }

  wordsKept.then(function (found) {
    if (!found) {
      return; // never online in this language since the kit was kept: nothing to say
    }
    words = found;
    keepAcrossSwaps();
    takeWaysOut();
    movesInPlace();
    start();
  });
})();
