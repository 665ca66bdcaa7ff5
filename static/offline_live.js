// A live round played with no network, on a phone that kept the offline kit: each tap (a
// card, "Undo last card", "Undo last trick") is answered by the rules worker (its call
// live/tap, companion/formats/live_taps.py) as the live page answers it, and the page is
// drawn from its answer, in the same markup as templates/games/live.html. A trick's last
// card, or a trick taken back, is a change kept in the outbox (static/outbox.js) and sent
// with the others when the server answers; the cards of the unfinished trick are kept on
// the phone (localStorage) and entered on the live page, through its own forms, once the
// page is online again. No rule is written here.
//
// - On the live page online: a tap the server does not answer (static/live.js hands it
//   over) is played here, from the trick the page shows. After each trick saved online the
//   phone keeps the game as the server now has it, so that it can go on offline from there.
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
  var TRICK_KEY = "sticheln-live-trick-" + play.code;
  var PASS = "pass:";
  var element = play.element;
  var words = null;
  var drawn = false; // the page is drawn here, from the phone's own answer
  var turn = Promise.resolve(); // taps are answered one at a time, in order

  // ------------------------------------------------------------------------------------------
  // What the phone holds: the unfinished trick, and the game's changes

  function keptTrick() {
    try {
      var kept = JSON.parse(localStorage.getItem(TRICK_KEY) || "null");
      return kept && kept.number === number ? kept.trick : null;
    } catch (error) {
      return null;
    }
  }

  function keepTrick(trick) {
    try {
      if (trick) {
        localStorage.setItem(TRICK_KEY, JSON.stringify({ number: number, trick: trick }));
      } else {
        localStorage.removeItem(TRICK_KEY);
      }
    } catch (error) {}
  }

  // The server's page: the cards of its trick (as the resolver writes a trick) and the game's
  // version it was drawn for.
  function pageTrick() {
    var slots = main.querySelectorAll("#live-trick .live-slot[data-card]");
    return Array.prototype.map
      .call(slots, function (slot) {
        return (slot.classList.contains("live-slot--passed") ? PASS : "") + slot.getAttribute("data-card");
      })
      .join(" ");
  }

  function pageVersion() {
    var version = main.querySelector('#live input[name="version"]');
    return version ? Number(version.value) : null;
  }

  function waitingOf(changes) {
    return changes.filter(function (change) {
      return change.state === "waiting";
    });
  }

  // A change of live/tap's answer, as the outbox keeps it.
  function outboxChange(change, version) {
    return {
      code: play.code,
      action: change.action,
      number: change.number || number,
      base: version,
      body: change.body,
      key: window.StichelnOutbox.newKey(),
      fields: null, // a clash opens the round's live page as the server has it
      page: location.pathname,
      state: "waiting",
      error: "",
    };
  }

  // ------------------------------------------------------------------------------------------
  // A tap, answered on the phone

  function tap(tapped, trick, version) {
    turn = turn
      .then(function () {
        return Promise.all([play.outbox.keptGame(), play.outbox.changes()]);
      })
      .then(function (found) {
        var kept = found[0];
        var waiting = waitingOf(found[1]);
        // The phone must hold the game the page showed (else a trick saved online is missing).
        if (!kept || (version !== null && !waiting.length && kept.state.version !== version)) {
          play.say(words.unkept, true, true);
          return null;
        }
        var body = {
          state: kept.state,
          queued: play.queued(waiting),
          number: number,
          trick: trick,
          tap: tapped,
        };
        return play.rules("live/tap", body).then(function (answer) {
          if (answer.status !== 200) {
            play.say(play.fill(words.failed, { error: answer.body.error }), true, true);
            return null;
          }
          var made = answer.body.change;
          var keeping = made ? play.outbox.keep(outboxChange(made, kept.state.version)) : null;
          return Promise.resolve(keeping).then(function () {
            keepTrick(answer.body.trick);
            draw(answer.body.page);
            play.say(play.waitingWords(waiting.length + (made ? 1 : 0)), true);
          });
        });
      })
      .catch(function (error) {
        play.say(play.fill(words.failed, { error: String(error) }), true, true);
      });
    return turn;
  }

  // A tap on a form of the page: which one, and what it sends.
  function tapOf(form, submitter) {
    var action = form.getAttribute("data-offline-live") || form.getAttribute("action") || "";
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
      var trick = drawn ? keptTrick() || "" : pageTrick();
      var version = drawn ? null : pageVersion();
      return tap(tapOf(form, submitter), trick, version).then(function () {
        return true;
      });
    },
  };

  main.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      if (!form.hasAttribute || !form.hasAttribute("data-offline-live")) {
        return;
      }
      event.preventDefault();
      tap(tapOf(form, event.submitter || null), keptTrick() || "", null);
    },
    true
  );

  // ------------------------------------------------------------------------------------------
  // The page, drawn as templates/games/live.html draws it

  function withRulings(text) {
    var line = document.createDocumentFragment();
    var last = 0;
    var counts = { R: 23, C: 6 };
    var rulesUrl = words.rules_url;
    text.replace(/\b([RC])([1-9][0-9]?)\b/g, function (whole, letter, count, at) {
      if (rulesUrl && Number(count) <= counts[letter]) {
        line.append(text.slice(last, at));
        line.append(element("a", whole, { href: rulesUrl + "#" + whole.toLowerCase() }));
        last = at + whole.length;
      }
      return whole;
    });
    line.append(text.slice(last));
    return line;
  }

  function chipParts(made, card, hidden) {
    made.append(
      element("span", String(card.value), { class: "chip__value", "aria-hidden": "true" }),
      element("span", card.symbol, { class: "chip__symbol", "aria-hidden": "true" })
    );
    if (hidden) {
      made.append(element("span", card.label, { class: "visually-hidden" }));
    }
    return made;
  }

  // A card shown, not tapped (live_macros.html, small_chip).
  function smallChip(card, extra) {
    var classes = "chip chip--shown live-card" + (extra ? " " + extra : "");
    return chipParts(element("span", null, { class: classes, "data-colour": card.colour, title: card.label }), card, true);
  }

  function markChip(colour) {
    return element("span", colour.symbol, {
      class: "chip chip--mark",
      "data-colour": colour.colour,
      role: "img",
      "aria-label": colour.label,
    });
  }

  function slot(place) {
    var classes = ["live-slot"];
    if (place.chip) {
      classes.push("live-slot--played");
    }
    if (place.takes) {
      classes.push("live-slot--takes");
    }
    if (place.is_next) {
      classes.push("live-slot--next");
    }
    if (place.passed) {
      classes.push("live-slot--passed");
    }
    var item = element("li", null, { class: classes.join(" "), "data-seat": String(place.seat) });
    if (place.chip) {
      item.setAttribute("data-card", place.chip.token);
      item.append(smallChip(place.chip, place.passed ? "live-card--pass" : ""));
    } else {
      item.append(element("span", place.is_next ? "?" : "", { class: "live-slot__empty", "aria-hidden": "true" }));
    }
    if (place.is_next) {
      item.setAttribute("aria-current", "step");
    }
    item.append(element("span", place.player, { class: "live-slot__name" }));
    if (place.badge) {
      item.append(element("span", place.badge, { class: "live-slot__badge" }));
    }
    return item;
  }

  function slots(trick) {
    var list = element("ol", null, { class: "live-slots live-slots--" + trick.places.length });
    trick.places.forEach(function (place) {
      list.append(slot(place));
    });
    return list;
  }

  function paragraph(className, text, attributes) {
    return element("p", text, Object.assign({ class: className }, attributes || {}));
  }

  // Who takes the trick and why (live_macros.html, result).
  function result(trick, hatTrick, final) {
    var made = document.createDocumentFragment();
    if (hatTrick) {
      var piles = element("ul", null, { class: "live-piles" });
      trick.piles.forEach(function (pile) {
        var item = element("li", null, { class: "live-pile", "data-colour": pile.colour });
        var colour = element("span", null, { class: "live-pile__colour" });
        colour.append(element("span", pile.symbol, { "aria-hidden": "true" }), " " + pile.name + ":");
        item.append(colour, " " + pile.taker + " ", element("span", "(" + pile.count + ")", { class: "live-pile__count" }));
        piles.append(item);
      });
      made.append(piles);
      if (trick.passes) {
        made.append(paragraph("live-passes", trick.passes));
      }
      if (final) {
        return made;
      }
    }
    made.append(paragraph("live-result__main", trick.main));
    var reason = paragraph("live-reason");
    reason.append(withRulings(trick.reason));
    made.append(reason);
    return made;
  }

  function liveForm(action, className) {
    return element("form", null, { class: "live-form" + (className ? " " + className : ""), "data-offline-live": action, "data-offline-entry": "" });
  }

  function undoCardForm(page) {
    var form = liveForm("undo-card", "live-undo-card");
    form.append(element("button", page.undo_card, { type: "submit", class: "button button--small" }));
    return form;
  }

  function currentTrick(page) {
    var trick = page.current;
    var section = element("section", null, { class: "live-trick", id: "live-trick", "aria-labelledby": "live-trick-title" });
    section.append(element("h2", trick.title, { class: "live-trick__title", id: "live-trick-title" }));
    if (page.refusal) {
      var refusal = paragraph("live-refusal", null, { role: "alert" });
      refusal.append(element("strong", page.not_added), " " + page.refusal);
      section.append(refusal);
    }
    section.append(slots(trick));
    var line = element("div", null, { class: "live-turnline" });
    if (trick.turn) {
      line.append(paragraph("live-turn", trick.turn, { "aria-live": "polite" }));
    }
    if (page.can_undo_card) {
      line.append(undoCardForm(page));
    }
    section.append(line);
    if (trick.main) {
      var shown = element("div", null, { class: "live-result", "aria-live": "polite" });
      shown.append(result(trick, page.hat_trick, false));
      section.append(shown);
    }
    if (page.last_trick) {
      section.append(paragraph("live-hint", page.last_trick));
    }
    return section;
  }

  function lastTrick(page) {
    var trick = page.last;
    var section = element("section", null, { class: "live-last", "aria-labelledby": "live-last-title" });
    section.append(element("h2", trick.title, { class: "live-last__title", id: "live-last-title" }), slots(trick));
    var shown = element("div", null, { class: "live-result live-result--complete" });
    shown.append(result(trick, page.hat_trick, page.over !== null));
    section.append(shown);
    if (page.over && page.undo_trick) {
      var actions = element("div", null, { class: "actions" });
      actions.append(undoCardForm(page));
      section.append(actions);
    }
    return section;
  }

  function roundOver(page, scoreboard) {
    var over = page.over;
    var section = element("section", null, { class: "live-over", "aria-labelledby": "live-over-title" });
    section.append(element("h2", over.title, { id: "live-over-title" }));
    section.append(element("p", over.set_aside ? over.text + " " + over.set_aside : over.text));
    if (over.scores.length) {
      var table = element("table", null, { class: "live-scores" });
      var head = table.createTHead().insertRow();
      over.headers.forEach(function (header) {
        head.append(element("th", header, { scope: "col" }));
      });
      var body = table.createTBody();
      over.scores.forEach(function (line) {
        var row = body.insertRow();
        var name = element("th", line.name, { scope: "row" });
        if (line.colours.length) {
          var chips = element("span", null, { class: "chips live-scores__chips" });
          line.colours.forEach(function (colour) {
            chips.append(markChip(colour));
          });
          name.append(" ", chips);
        }
        row.append(name, element("td", line.score, { class: "live-scores__score" }), element("td", line.total, { class: "live-scores__total" }));
      });
      section.append(table);
    }
    if (over.result) {
      section.append(gameResult(over.result));
    }
    var back = element("p", null, { class: "actions" });
    back.append(element("a", over.back, { class: over.primary ? "button button--primary" : "button", href: scoreboard }));
    section.append(back);
    return section;
  }

  function gameResult(told) {
    var section = element("section", null, { class: "live-end", "aria-labelledby": "live-result-title" });
    section.append(element("h3", told.title, { id: "live-result-title" }), element("p", told.line));
    section.append(element("h3", told.ranking_title, { id: "live-ranking-title" }));
    var ranking = element("ol", null, { class: "live-ranking", "aria-labelledby": "live-ranking-title" });
    told.ranking.forEach(function (seat) {
      var item = element("li", null, { value: String(seat.rank) });
      if (seat.wins) {
        item.className = "live-ranking--winner";
      }
      item.append(element("span", seat.name, { class: "live-ranking__name" }));
      if (seat.wins) {
        item.append(" ", element("span", told.winner, { class: "badge badge--winner" }));
      }
      item.append(" ", element("span", seat.total, { class: "live-ranking__total" }));
      ranking.append(item);
    });
    section.append(ranking);
    if (play.placeholder) {
      return section; // a game the server does not have yet: its next game from its scoreboard, once sent
    }
    // The next game needs the server for now: its form is the page's, sent when online.
    var again = element("div", null, { class: "play-again" });
    var form = element("form", null, { method: "post", action: play.gameAddress + "/again" });
    form.append(
      element("button", told.play_again, { type: "submit", class: "button button--primary" }),
      element("span", told.play_again_hint, { class: "hint" })
    );
    again.append(form);
    section.append(again);
    return section;
  }

  function picker(page) {
    var told = page.picker;
    var form = liveForm("card", "live-picker" + (told.pass_hint ? " live-picker--can-pass" : ""));
    form.setAttribute("aria-labelledby", "live-picker-title");
    form.append(element("h2", told.title, { class: "visually-hidden", id: "live-picker-title" }));
    if (told.pass_hint) {
      form.append(paragraph("live-pass", told.pass_hint, { id: "pass-hint" }));
    }
    told.rows.forEach(function (row) {
      var classes = "live-colour live-colour--" + row.colour + (row.in_trick ? " live-colour--in-trick" : "") + (row.passes ? " live-colour--passes" : "");
      var group = element("div", null, { class: classes, "data-colour": row.colour, role: "group", "aria-label": row.group });
      group.append(element("span", row.symbol, { class: "live-colour__name", "data-colour": row.colour, "aria-hidden": "true" }));
      var chips = element("div", null, { class: "live-chips" });
      row.chips.forEach(function (card) {
        var chipClasses = "chip chip--tap live-chip" + (card.out ? " live-chip--" + card.out : "") + (card.refused ? " chip--refused" : "");
        var button = element("button", String(card.value), {
          class: chipClasses,
          type: "submit",
          name: "card",
          value: card.token,
          "aria-label": card.aria,
        });
        button.disabled = Boolean(card.out);
        chips.append(button); // its colour and shape come from the row, as on the server's page
      });
      group.append(chips);
      form.append(group);
    });
    if (told.bar) {
      form.append(bar(told.bar));
    }
    form.append(paragraph("live-hint", told.hint));
    return form;
  }

  function bar(told) {
    var made = element("div", null, { class: "live-bar", "aria-hidden": "true" });
    var chips = element("span", null, { class: "live-bar__chips" });
    told.chips.forEach(function (card) {
      var extra = "live-card--mini" + (card.takes ? " is-taking" : "") + (card.passed ? " live-card--pass" : "");
      chips.append(smallChip(card, extra));
    });
    var text = element("span", told.text, { class: "live-bar__text" });
    if (told.next) {
      text.append(" ", element("strong", told.next));
    }
    made.append(chips, text);
    return made;
  }

  function seats(page) {
    var told = page.seats;
    var section = element("section", null, { class: "live-seats", "aria-labelledby": "live-seats-title" });
    section.append(element("h2", told.title, { id: "live-seats-title" }));
    var table = element("table", null, { class: "live-seats__table" });
    var head = table.createTHead().insertRow();
    head.append(element("th", told.player, { scope: "col" }));
    told.colours.forEach(function (colour) {
      var header = element("th", null, { scope: "col", class: "live-seats__colour", "data-colour": colour.colour });
      header.append(element("span", colour.symbol, { "aria-hidden": "true" }), element("span", colour.label, { class: "visually-hidden" }));
      head.append(header);
    });
    told.headers.forEach(function (header) {
      head.append(element("th", header, { scope: "col" }));
    });
    var body = table.createTBody();
    told.rows.forEach(function (seat) {
      var row = body.insertRow();
      if (seat.leads) {
        row.className = "live-seats__leader";
      }
      var name = element("th", null, { scope: "row" });
      name.append(element("span", seat.name, { class: "live-seats__name" }));
      if (seat.leads) {
        name.append(" ", element("span", told.leads, { class: "badge badge--leads" }));
      }
      seat.marked.forEach(function (card) {
        name.append(" ", smallChip(card, "live-card--mini"));
      });
      row.append(name);
      seat.cells.forEach(function (cell) {
        row.append(element("td", cell));
      });
    });
    section.append(table);
    if (told.hazy) {
      section.append(paragraph("live-hint", told.hazy));
    }
    return section;
  }

  function corrections(page) {
    var section = element("section", null, { class: "live-more", "aria-labelledby": "live-more-title" });
    section.append(element("h2", page.corrections, { class: "visually-hidden", id: "live-more-title" }));
    if (page.undo_trick) {
      var form = liveForm("undo-trick");
      form.append(element("button", page.undo_trick, { type: "submit", class: "button button--danger" }));
      section.append(form);
    }
    if (page.footer) {
      section.append(paragraph("live-hint", page.footer));
    }
    return section;
  }

  function draw(page) {
    var scoreboard = play.gameAddress;
    var section = element("section", null, { class: "live" + (page.over ? " live--complete" : ""), id: "live", "data-live": "" });
    var header = element("header", null, { class: "live-head" });
    var meta = element("p", null, { class: "live-head__meta" });
    meta.append(
      element("span", page.count, { class: "live-head__count" }),
      " ",
      element("a", page.scoreboard, { class: "live-head__back", href: scoreboard })
    );
    header.append(element("h1", page.title, { class: "live-head__title" }), meta);
    section.append(header);
    page.notes.forEach(function (note) {
      section.append(paragraph("live-note", note, { role: "status" }));
    });
    if (page.current) {
      section.append(currentTrick(page));
    }
    if (page.last) {
      section.append(lastTrick(page));
    }
    section.append(page.over ? roundOver(page, scoreboard) : picker(page), seats(page), corrections(page));
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
    var site = document.title.split(" · ").slice(1).join(" · ");
    document.title = site ? page.title + " · " + site : page.title;
    main.hidden = false;
    main.removeAttribute("data-offline-frame");
    drawn = true;
  }

  // ------------------------------------------------------------------------------------------
  // Online again: the cards of the trick kept here, entered on the page through its forms

  function enterKeptTrick() {
    var kept = keptTrick();
    if (!kept) {
      return;
    }
    keepTrick(null);
    var shown = pageTrick();
    if (kept.indexOf(shown) !== 0) {
      return; // the table went on elsewhere: the server's trick stands
    }
    kept
      .slice(shown.length)
      .split(" ")
      .filter(Boolean)
      .forEach(function (token) {
        var card = token.indexOf(PASS) === 0 ? token.slice(PASS.length) : token;
        var chip = main.querySelector('form[data-live-form] button[name="card"][value="' + card + '"]');
        if (chip && !chip.disabled) {
          chip.form.requestSubmit(chip); // static/live.js sends them one at a time, in order
        }
      });
  }

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
      if (!kept || kept.state.version !== pageVersion()) {
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
      tap({}, keptTrick(), null);
    } else if (document.getElementById("live")) {
      play.outbox.changes().then(function (changes) {
        if (!waitingOf(changes).length) {
          enterKeptTrick();
        }
      });
    }
  });
})();
