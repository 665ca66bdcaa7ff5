// The outbox of offline play (static/offline_play.js uses it): what a phone entered with no
// network, kept on the phone until the server has it.
//
// - IndexedDB "sticheln-offline", store "changes", in the order entered: each change is the
//   API call it will be (POST /api/v1/games/<code>/rounds, PUT .../rounds/<n>, POST
//   .../rounds/marks, and for a live round POST .../rounds/live, PUT .../rounds/<n>/trick-so-far
//   (the cards of its unfinished trick), POST .../rounds/<n>/tricks, DELETE
//   .../rounds/<n>/tricks/last and .../tricks/last/cards/last, POST .../again for the table's next game, and
//   POST /api/v1/games for a game started on this phone;
//   with the version and the round number the page was opened for, and an Idempotency-Key,
//   so a change sent twice is applied once), plus the form's fields for the conflict view.
//   The changes of a next game started on this phone wait under "<code>/next" until the
//   play again that starts it is sent, then move to the game the server started; so do
//   those of a game started here, kept under "new/<key>" until its start is sent. It is written (durably) before the page moves on, so a reload, a closed
//   browser or a restarted phone loses nothing. Store "games" holds the last game state the
//   server gave.
// - Sending: in order, one tab at a time, with this phone's own edit right (its cookie; the
//   API takes it from the app's own pages only). A change the server saved is gone, and the
//   changes entered after it on the same state of the game move to the version it made. A
//   409 (the game changed on another phone) marks the change "clashed" and stops the game's
//   queue; any other refusal marks it "refused"; a network failure or a 5xx leaves it
//   waiting for the next chance.
// - Loaded by the pages (offline_play.js) and by the service worker, which sends what waits
//   when the browser tells it the network is back (Background Sync, "sticheln-outbox"),
//   with no page of the game open. The lock above keeps the two from sending at once.
(function () {
  "use strict";

  var SYNC_TAG = "sticheln-outbox";
  var SEND_TIMEOUT_MS = 20000; // how long one change may take to be answered

  // The phone's store, made where this phone has none yet if ``create``; else null there
  // (nothing kept, nothing to send).
  function openStore(create) {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open("sticheln-offline", 1);
      var none = false;
      request.onupgradeneeded = function () {
        if (!create) {
          none = true;
          request.transaction.abort();
          return;
        }
        var changes = request.result.createObjectStore("changes", { keyPath: "id", autoIncrement: true });
        changes.createIndex("code", "code");
        request.result.createObjectStore("games", { keyPath: "code" });
      };
      request.onsuccess = function () {
        resolve(request.result);
      };
      request.onerror = function () {
        return none ? resolve(null) : reject(request.error);
      };
    });
  }

  // One transaction over ``stores`` of ``db``: ``work`` gets them by name and may answer a
  // request, whose result is the answer once the transaction is committed.
  function transaction(db, stores, mode, work) {
    return new Promise(function (resolve, reject) {
      var done = db.transaction(stores, mode, { durability: "strict" });
      var result;
      var named = {};
      stores.forEach(function (name) {
        named[name] = done.objectStore(name);
      });
      var request = work(named);
      if (request) {
        request.onsuccess = function () {
          result = request.result;
        };
      }
      done.oncomplete = function () {
        resolve(result);
      };
      done.onerror = done.onabort = function () {
        reject(done.error);
      };
    });
  }

  // ``transaction`` on the phone's store, opened for it and closed after; ``none`` where the
  // phone has no store (or cannot open it).
  function once(stores, mode, work, none) {
    return openStore(false).then(null, function () {
      return null;
    }).then(function (db) {
      if (!db) {
        return none;
      }
      return transaction(db, stores, mode, work).finally(function () {
        db.close();
      });
    });
  }

  // Each change of the game ``of`` through ``move``, kept changed where it answers true.
  function eachChange(s, of, move) {
    s.changes.index("code").openCursor(of).onsuccess = function (event) {
      var cursor = event.target.result;
      if (!cursor) {
        return;
      }
      var change = cursor.value; // (each read of it is a new copy)
      if (move(change)) {
        cursor.update(change);
      }
      cursor.continue();
    };
  }

  // The outbox of the game ``code`` (its API address ``gameApi``); ``onSending`` is told
  // when a change is being sent.
  self.StichelnOutbox = function (code, gameApi, onSending) {
    var database = openStore(true);

    function run(stores, mode, work) {
      return database.then(function (db) {
        return transaction(db, stores, mode, work);
      });
    }

    function changesOfGame() {
      return run(["changes"], "readonly", function (s) {
        return s.changes.index("code").getAll(code);
      });
    }

    function keptGame() {
      return run(["games"], "readonly", function (s) {
        return s.games.get(code);
      });
    }

    function keepGame(state) {
      return run(["games"], "readwrite", function (s) {
        return s.games.put({ code: code, state: state });
      });
    }

    // A change kept with the store's ``method``: "add" (a new one, last in the order) or
    // "put" (in place of the change of the same id, its place kept); then the browser is
    // asked to wake the service worker once the network is back.
    function putChange(method) {
      return function (change) {
        return run(["changes"], "readwrite", function (s) {
          return s.changes[method](change);
        }).then(function (id) {
          askForSync();
          return id;
        });
      };
    }

    function dropChange(id) {
      return run(["changes"], "readwrite", function (s) {
        return s.changes.delete(id);
      });
    }

    function markChange(change, state, error) {
      change.state = state;
      change.error = error;
      return run(["changes"], "readwrite", function (s) {
        return s.changes.put(change);
      });
    }

    // A change the server saved: gone from the outbox, the game as the server answered, and
    // the changes entered after it on the same state of the game now based on the new one.
    // Play again answers the table's next game, started on this phone with no network (its
    // changes kept under ``nextOf(code)``): they move to it.
    function saved(change, state) {
      if (change.action === "again") {
        return started(change, state, nextOf(code));
      }
      if (change.action === "start") {
        return started(change, state, code);
      }
      return run(["changes", "games"], "readwrite", function (s) {
        s.changes.delete(change.id);
        s.games.put({ code: code, state: state });
        eachChange(s, code, function (later) {
          if (later.base !== change.base || later.state !== "waiting") {
            return false;
          }
          later.base = state.version;
          later.body.version = state.version;
          return true;
        });
      });
    }

    // A game kept on this phone under ``waiting`` (a next game, or a game started here), now
    // on the server as ``state``: its changes move to it, based on its first version, and
    // the phone remembers where the game went.
    function started(change, state, waiting) {
      return run(["changes", "games"], "readwrite", function (s) {
        s.changes.delete(change.id);
        s.games.put({ code: state.id, state: state });
        s.games.put({ code: waiting, movedTo: state.id });
        eachChange(s, waiting, function (moved) {
          moved.code = state.id;
          moved.base = state.version;
          moved.body.version = state.version;
          return true;
        });
      });
    }

    // ------------------------------------------------------------------------------------------
    // Sending, in order, once the network is back

    // The API call a change is (DESIGN.md, "Games"): its method and its address under the
    // game's.
    var CALLS = {
      record: ["POST", "/rounds"],
      correct: ["PUT", "/rounds/{number}"],
      mark: ["POST", "/rounds/marks"],
      live: ["POST", "/rounds/live"],
      cards: ["PUT", "/rounds/{number}/trick-so-far"],
      trick: ["POST", "/rounds/{number}/tricks"],
      undo: ["DELETE", "/rounds/{number}/tricks/last"],
      undo_card: ["DELETE", "/rounds/{number}/tricks/last/cards/last"],
      again: ["POST", "/again"],
      start: ["POST", null], // a game started on this phone: POST /api/v1/games
    };

    function apiCall(change) {
      var call = CALLS[change.action];
      if (call[1] === null) {
        return { method: call[0], url: gameApi.slice(0, gameApi.lastIndexOf("/")) };
      }
      return { method: call[0], url: gameApi + call[1].replace("{number}", String(change.number)) };
    }

    var sending = null;

    function send() {
      var started = startedFrom(code);
      if (started !== null) {
        // A next game not yet on the server: first the game it follows, whose play again
        // starts it (its changes then move to it, and are sent from its own pages).
        var before = gameApi.replace(encodeURIComponent(code), encodeURIComponent(started));
        return self.StichelnOutbox(started, before, onSending).send();
      }
      if (!sending) {
        // One tab at a time sends a game's changes (another waits, then finds them sent).
        var run = function () {
          return changesOfGame().then(function (changes) {
            return sendFirst(changes, 0);
          });
        };
        var locks = navigator.locks;
        sending = (locks ? locks.request("sticheln-outbox-" + code, run) : run())
          .then(
            function (count) {
              sending = null;
              return count;
            },
            function () {
              sending = null; // the network went again: the changes wait for the next chance
              return 0;
            }
          );
      }
      return sending;
    }

    // Send the first waiting change; on success, the next (read again: their versions moved).
    // Answers how many were saved.
    function sendFirst(changes, count) {
      var change = changes[0];
      if (!change || change.state !== "waiting") {
        return count;
      }
      onSending();
      var call = apiCall(change);
      // A request that hangs (a network with no way out) is given up, so that the lock goes
      // to whoever tries next; if the server did save it, the next try gets the same answer
      // for the same idempotency key.
      var stop = new AbortController();
      var timer = setTimeout(function () {
        stop.abort();
      }, SEND_TIMEOUT_MS);
      return fetch(call.url, {
        method: call.method,
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "Idempotency-Key": change.key },
        body: JSON.stringify(change.body),
        signal: stop.signal,
      }).then(function (response) {
        clearTimeout(timer);
        // A server error, or a new game over the server's limit of game starts (429,
        // companion/web/rate_limits.py): nothing was done, so the change waits for the next try.
        if (response.status >= 500 || response.status === 429) {
          throw new Error("the server answered " + response.status);
        }
        return response.json().then(function (answer) {
          if (response.ok) {
            return saved(change, answer)
              .then(changesOfGame)
              .then(function (rest) {
                return sendFirst(rest, count + 1);
              });
          }
          var state = response.status === 409 ? "clashed" : "refused";
          return markChange(change, state, answer.error || "").then(function () {
            return count;
          });
        });
      });
    }

    // A change of this game as it is kept: ``made`` names its action, number (a round's
    // call), base (the version the page was opened for) and body, and its fields (the form's,
    // for the conflict view), page or key where they are not the usual ones. It waits.
    function newChange(made) {
      var usual = { code: code, number: null, key: newKey(), fields: null, page: location.pathname };
      return Object.assign(usual, made, { state: "waiting", error: "" });
    }

    return {
      change: newChange,
      changes: changesOfGame,
      keptGame: keptGame,
      keepGame: keepGame,
      keep: putChange("add"),
      drop: dropChange,
      replace: putChange("put"),
      send: send,
    };
  };

  // The table's next game as this phone keeps it before the server has it: under the code
  // of the game it follows, then "/next" (the address of that game's next game, too).
  var NEXT = "/next";

  function nextOf(code) {
    return code + NEXT;
  }

  // The game a next game kept on this phone follows, or null for a game of the server.
  function startedFrom(code) {
    return code.slice(-NEXT.length) === NEXT ? code.slice(0, -NEXT.length) : null;
  }

  // A game started on this phone before the server has it (static/offline_new_game.js):
  // under "new/" and the Idempotency-Key its start is sent with (its address is
  // /games/new/<key>). Its changes are sent like any game's, its start first.
  var NEW = "new/";

  function newOf(key) {
    return NEW + key;
  }

  // Every game this phone keeps (its code, its state, and what else outbox keeps of it).
  function keptGames() {
    return once(["games"], "readonly", function (s) {
      return s.games.getAll();
    }, []);
  }

  // "Forget this phone's copies" (static/keep.js): every kept game with no change waiting to
  // be sent is dropped, in one transaction with the look at what waits, so that a change kept
  // meanwhile keeps its game. Answers the games still kept (each waits to be sent).
  function forgetKept() {
    var kept = [];
    return once(["games", "changes"], "readwrite", function (s) {
      s.changes.getAll().onsuccess = function (event) {
        var waiting = event.target.result.map(function (change) {
          return change.code;
        });
        s.games.getAll().onsuccess = function (found) {
          found.target.result.forEach(function (game) {
            if (waiting.indexOf(game.code) === -1) {
              s.games.delete(game.code);
            } else {
              kept.push(game);
            }
          });
        };
      };
    }).then(function () {
      return kept;
    });
  }

  // Whether the server answers now, within ``ms`` (any answer will do): a HEAD on ``address``,
  // a JSON API address, which the service worker never answers from what it keeps (the
  // browser's online flag is not to be trusted: a Wi-Fi with no way out counts as online).
  function reachable(address, ms) {
    var stop = new AbortController();
    var timer = setTimeout(function () {
      stop.abort();
    }, ms);
    return fetch(address, { method: "HEAD", cache: "no-store", signal: stop.signal }).then(
      function () {
        clearTimeout(timer);
        return true;
      },
      function () {
        clearTimeout(timer);
        return false;
      }
    );
  }

  // Where the browser has Background Sync (Chromium), it wakes the service worker when the
  // network is back, and again later if sending failed; elsewhere the pages send.
  function askForSync() {
    var workers = self.navigator && self.navigator.serviceWorker;
    if (!workers || typeof document === "undefined") {
      return;
    }
    workers.ready
      .then(function (registration) {
        return registration.sync && registration.sync.register(SYNC_TAG);
      })
      .then(null, function () {});
  }

  // The service worker's side: every game with a change waiting, sent in turn. Answers how
  // many games still wait (none: done; some: the network failed again, so try later).
  self.StichelnOutbox.sendAll = function (gamesApi) {
    var opened = openStore(false);
    // The games whose queue can go on: a change waits, and none clashed or was refused
    // (those wait for the table's choice, on a page of the game).
    function waitingCodes() {
      return opened.then(function (db) {
        return db && transaction(db, ["changes"], "readonly", function (s) {
          return s.changes.getAll();
        });
      }).then(function (changes) {
        var waiting = [];
        var stopped = [];
        (changes || []).forEach(function (change) {
          if (startedFrom(change.code) === null) {
            (change.state === "waiting" ? waiting : stopped).push(change.code);
          } // a next game's changes wait for it to be started (its play again, above)
        });
        return waiting.filter(function (code, index) {
          return waiting.indexOf(code) === index && stopped.indexOf(code) === -1;
        });
      });
    }
    // Each game in turn; then any game a play again just started (its changes moved to it).
    function sendGames(tried) {
      return waitingCodes().then(function (codes) {
        var fresh = codes.filter(function (code) {
          return tried.indexOf(code) === -1;
        });
        if (!fresh.length) {
          return;
        }
        return fresh
          .reduce(function (done, code) {
            return done.then(function () {
              var api = gamesApi + "/" + encodeURIComponent(code);
              return self.StichelnOutbox(code, api, function () {}).send();
            });
          }, Promise.resolve())
          .then(function () {
            return sendGames(tried.concat(fresh));
          });
      });
    }
    return sendGames([])
      .then(waitingCodes)
      .then(function (codes) {
        return opened.then(function (db) {
          if (db) {
            db.close();
          }
          return codes.length;
        });
      });
  };
  // A new Idempotency-Key for a change: every change's key is made here. The server takes 8
  // to 100 of A-Z, a-z, 0-9, "-" and "_": a random UUID, or where the browser has no
  // crypto.randomUUID (an older one, or a page not served over HTTPS), 32 random hex digits.
  function newKey() {
    if (typeof crypto.randomUUID === "function") {
      return crypto.randomUUID();
    }
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.prototype.map.call(bytes, function (byte) {
      return (byte + 256).toString(16).slice(1);
    }).join("");
  }

  self.StichelnOutbox.SYNC_TAG = SYNC_TAG;
  self.StichelnOutbox.newKey = newKey;
  self.StichelnOutbox.nextOf = nextOf;
  self.StichelnOutbox.newOf = newOf;
  self.StichelnOutbox.keptGames = keptGames;
  self.StichelnOutbox.forgetKept = forgetKept;
  self.StichelnOutbox.reachable = reachable;
})();
