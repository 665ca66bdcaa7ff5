// A live round played with no network, on a phone that kept the offline kit. Each tap (a
// card, "Undo last card", "Undo last trick") goes to the rules worker (live/tap,
// companion/play_state/live_taps.py), which checks it as the live page does and answers the
// change it makes; the change is kept in the outbox (static/outbox.js), the cards of an
// unfinished trick too, and sent with the others from whatever page of the game is open once
// the server answers. The page is then drawn by the worker (pages/live) from the kept game
// and the queue, with the server's page model and template, and swapped in. Nothing of the
// page is drawn here, and no rule is written here.
//
// - On the live page online: a tap the server does not answer (static/live.js hands it
//   over) is played here. After each tap answered online the phone keeps the game as the
//   server now has it, so that it can go on offline from there.
// - Offline, at a live round's address, the service worker shows a kept page of the game
//   (data-offline-frame, hidden); the round is drawn in it.
// Loaded by app.js after offline_play.js, whose rules worker, outbox and words it uses.
(function () {
  "use strict";

  var play = window.StichelnOfflinePlay;
  var main = document.querySelector("[data-game]");
  var address = location.pathname.match(/\/rounds\/([0-9]+)\/live$/);
  if (!play || !main || !address) {
    return;
  }
  var number = Number(address[1]);
  var words = null;
  var drawn = false; // the page is the worker's, drawn from the phone's own queue
  var turn = Promise.resolve(); // taps are answered one at a time, in order

  function waitingOf(changes) {
    return changes.filter(function (change) {
      return change.state === "waiting";
    });
  }

  // The server's page: the game's version and the cards of the trick it was drawn for.
  function shown(name) {
    var field = main.querySelector('#live input[name="' + name + '"]');
    return field ? Number(field.value) : null;
  }

  // Whether the phone holds the game the server's page showed (a trick saved online since
  // the phone last kept it would be missing).
  function holds(kept) {
    var version = shown("version");
    return drawn || version === null || kept.state.version === version;
  }

  // The cards of the unfinished trick on the server's page (its last cards may have been
  // entered online after the phone last kept the game), as the game state holds them.
  function pageTrick() {
    var slots = main.querySelectorAll("#live-trick .live-slot[data-card]");
    return Array.prototype.map.call(slots, function (slot) {
      var card = slot.getAttribute("data-card").split("-");
      var play = { colour: card[0], value: Number(card[1]) };
      if (slot.classList.contains("live-slot--passed")) {
        play.pass = true;
      }
      return play;
    });
  }

  // ------------------------------------------------------------------------------------------
  // A tap, answered on the phone, and the page as the worker draws it after it

  function tap(tapped) {
    turn = turn
      .then(function () {
        return Promise.all([play.outbox.keptGame(), play.outbox.changes()]);
      })
      .then(function (found) {
        var kept = found[0];
        var waiting = waitingOf(found[1]);
        if (!kept || (!waiting.length && !holds(kept))) {
          play.say(words.unkept, true, true);
          return null;
        }
        var round = kept.state.rounds[number - 1];
        var keeping = null;
        if (!drawn && !waiting.length && round && round.status === "playing") {
          round.trick_so_far = pageTrick(); // kept, as the queue goes on from it
          keeping = play.outbox.keepGame(kept.state);
        }
        var body = { state: kept.state, queued: play.queued(waiting), number: number, tap: tapped };
        return Promise.resolve(keeping).then(function () {
          return play.rules("live/tap", body);
        }).then(function (answer) {
          if (answer.status !== 200) {
            throw new Error(answer.body.error);
          }
          var told = answer.body;
          if (!told.change) {
            return draw(kept.state, waiting, told);
          }
          // (A clash opens the round's live page as the server has it: no fields.)
          var change = play.outbox.change({
            action: told.change.action,
            number: told.change.number || number,
            base: kept.state.version,
            body: told.change.body,
          });
          return play.outbox.keep(change).then(function () {
            play.retryLater();
            return play.outbox.changes().then(function (changes) {
              return draw(kept.state, waitingOf(changes), told);
            });
          });
        });
      })
      .catch(function (error) {
        play.say(play.fill(words.failed, { error: String(error.message || error) }), true, true);
      });
    return turn;
  }

  // The page of the kept game with the changes ``waiting``, and what the last tap said.
  function draw(state, waiting, told) {
    var token = document.querySelector('input[name="csrf_token"]');
    var body = {
      state: state,
      queued: play.queued(waiting),
      number: number,
      root: play.root,
      token: token ? token.value : "",
      refusal: told.refusal || null,
      refused: told.refused || null,
      notes: told.notes || [],
      address: play.placeholder ? play.gameAddress : null, // a game the server has not yet
    };
    return play.rules("pages/live", body).then(function (answer) {
      if (answer.status !== 200) {
        throw new Error(answer.body.error);
      }
      var page = new DOMParser().parseFromString(answer.body.html, "text/html");
      var section = page.getElementById("live");
      section.removeAttribute("data-poll"); // the server's page, once sent, is live.js's to follow
      var old = document.getElementById("live");
      if (old) {
        old.replaceWith(section);
      } else {
        Array.prototype.slice.call(main.children).forEach(function (child) {
          if (child.id !== "offline-play-status") {
            child.remove();
          }
        });
        main.append(section);
      }
      var title = section.querySelector("h1").textContent;
      var site = document.title.split(" · ").slice(1).join(" · ");
      document.title = site ? title + " · " + site : title;
      main.hidden = false;
      main.removeAttribute("data-offline-frame");
      drawn = true;
      takeLiveForms();
      play.say(play.waitingWords(waiting.length), true);
    });
  }

  // A tap on a form of the page: which one, and what it sends.
  function tapOf(form, submitter) {
    var action = form.getAttribute("action") || "";
    if (/undo-card$/.test(action)) {
      return { undo_card: true };
    }
    if (/undo-trick$/.test(action)) {
      return { undo_trick: true };
    }
    return submitter && submitter.name === "card" ? { card: submitter.value } : {};
  }

  // static/live.js: a tap on the server's page that the server did not answer. Answers
  // whether it is played here (not without the words of offline play in this language).
  window.StichelnOfflineLive = {
    take: function (form, submitter) {
      if (!words) {
        return Promise.resolve(false);
      }
      return tap(tapOf(form, submitter)).then(function () {
        return true;
      });
    },
  };

  // The worker's page: its taps are answered here, never sent to the server by live.js.
  main.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      if (!drawn || !form.hasAttribute || !form.hasAttribute("data-live-form")) {
        return;
      }
      event.preventDefault();
      event.stopPropagation();
      tap(tapOf(form, event.submitter || null));
    },
    true
  );

  // The server's live forms: static/forms.js lets live.js try them with no network, which
  // hands a tap the server did not answer to this script.
  function takeLiveForms() {
    Array.prototype.forEach.call(main.querySelectorAll("form[data-live-form]"), function (form) {
      form.setAttribute("data-offline-entry", "");
    });
  }

  // After each tap answered online, the game as the server has it, kept for offline play.
  document.addEventListener("sticheln:live-drawn", function () {
    takeLiveForms();
    play.outbox.keptGame().then(function (kept) {
      var round = kept && kept.state.rounds[number - 1];
      var cards = round && round.trick_so_far ? round.trick_so_far.length : 0;
      if (!kept || !holds(kept) || cards !== shown("cards")) {
        play.fetchState();
      }
    });
  });

  play.words.then(function (found) {
    words = found;
    if (!words) {
      main.hidden = false; // never online in this language: the kept page as it is
      return;
    }
    takeLiveForms();
    if (main.hasAttribute("data-offline-frame")) {
      // The kept page's own content stays hidden; the phone says the rules are starting.
      Array.prototype.forEach.call(main.children, function (child) {
        child.hidden = true;
      });
      main.hidden = false;
      play.say(words.loading);
      tap({});
    }
  });
})();
