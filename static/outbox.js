// The outbox of offline play (static/offline_play.js uses it): what a phone entered with no
// network, kept on the phone until the server has it.
//
// - IndexedDB "sticheln-offline", store "changes", in the order entered: each change is the
//   API call it will be (POST /api/v1/games/<code>/rounds, PUT .../rounds/<n> or POST
//   .../rounds/marks, with the version and the round number the page was opened for, and an
//   Idempotency-Key, so a change sent twice is applied once), plus the form's fields for the
//   conflict view. It is written (durably) before the page moves on, so a reload, a closed
//   browser or a restarted phone loses nothing. Store "games" holds the last game state the
//   server gave.
// - Sending: in order, one tab at a time, with this phone's own edit right (its cookie; the
//   API takes it from the app's own pages only). A change the server saved is gone, and the
//   changes entered after it on the same state of the game move to the version it made. A
//   409 (the game changed on another phone) marks the change "clashed" and stops the game's
//   queue; any other refusal marks it "refused"; a network failure or a 5xx leaves it
//   waiting for the next chance.
(function () {
  "use strict";

  // The outbox of the game ``code`` (its API address ``gameApi``); ``onSending`` is told
  // when a change is being sent.
  window.StichelnOutbox = function (code, gameApi, onSending) {
    // ------------------------------------------------------------------------------------------
    // The phone's store

    var database = new Promise(function (resolve, reject) {
      var request = indexedDB.open("sticheln-offline", 1);
      request.onupgradeneeded = function () {
        var changes = request.result.createObjectStore("changes", { keyPath: "id", autoIncrement: true });
        changes.createIndex("code", "code");
        request.result.createObjectStore("games", { keyPath: "code" });
      };
      request.onsuccess = function () {
        resolve(request.result);
      };
      request.onerror = function () {
        reject(request.error);
      };
    });

    // One transaction over ``stores``: ``work`` gets them by name and may answer a request,
    // whose result is the answer once the transaction is committed.
    function transaction(stores, mode, work) {
      return database.then(function (db) {
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
      });
    }

    function changesOfGame() {
      return transaction(["changes"], "readonly", function (s) {
        return s.changes.index("code").getAll(code);
      });
    }

    function keptGame() {
      return transaction(["games"], "readonly", function (s) {
        return s.games.get(code);
      });
    }

    function keepGame(state) {
      return transaction(["games"], "readwrite", function (s) {
        return s.games.put({ code: code, state: state });
      });
    }

    function keepChange(change) {
      return transaction(["changes"], "readwrite", function (s) {
        return s.changes.add(change);
      });
    }

    function dropChange(id) {
      return transaction(["changes"], "readwrite", function (s) {
        return s.changes.delete(id);
      });
    }

    function markChange(change, state, error) {
      change.state = state;
      change.error = error;
      return transaction(["changes"], "readwrite", function (s) {
        return s.changes.put(change);
      });
    }

    // A change the server saved: gone from the outbox, the game as the server answered, and
    // the changes entered after it on the same state of the game now based on the new one.
    function saved(change, state) {
      return transaction(["changes", "games"], "readwrite", function (s) {
        s.changes.delete(change.id);
        s.games.put({ code: code, state: state });
        s.changes.index("code").openCursor(code).onsuccess = function (event) {
          var cursor = event.target.result;
          if (!cursor) {
            return;
          }
          var later = cursor.value;
          if (later.base === change.base && later.state === "waiting") {
            later.base = state.version;
            later.body.version = state.version;
            cursor.update(later);
          }
          cursor.continue();
        };
      });
    }

    // ------------------------------------------------------------------------------------------
    // Sending, in order, once the network is back

    var sending = null;

    function send() {
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
      var fixing = change.action === "correct";
      var path = fixing ? "/" + change.number : change.action === "mark" ? "/marks" : "";
      return fetch(gameApi + "/rounds" + path, {
        method: fixing ? "PUT" : "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "Idempotency-Key": change.key },
        body: JSON.stringify(change.body),
      }).then(function (response) {
        if (response.status >= 500) {
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


    return {
      changes: changesOfGame,
      keptGame: keptGame,
      keepGame: keepGame,
      keep: keepChange,
      drop: dropChange,
      send: send,
    };
  };
})();
