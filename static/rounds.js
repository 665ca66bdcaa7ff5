/* Round pages, improved while tapping (the pages work without this file):
   - the C3 / C5 line ("tricks assigned", "cards accounted for") follows every tap;
   - the one count nobody entered is filled in when the others imply it (C3, C5), marked
     "implied" for the table to check (in Hat Trick naming the players whose passes are
     still at 0), and refilled while the others change, until someone taps it themselves
     (without this file, Check does the same on the server);
   - a card tapped for one seat is greyed out for the others (C1: each card is in one place);
   - in quick entry, only the chips of a seat's marked colour(s) are shown (C4), and a seat's
     tricks and cards open as soon as its indicator is chosen (without this file, Continue);
   - the warning next to the switch of entry modes shows while a switch would drop something
     typed (round_switch.py says the same on the server).
   A round page drawn again in place offline (static/offline_play.js) starts this on its new
   form at once, through StichelnRounds, before it is first painted. */
(function start() {
  "use strict";

  var form = document.querySelector("form.round-form");
  window.StichelnRounds = start;
  if (!form) {
    return;
  }
  var kind = form.dataset.kind;
  var cardsPerTrick = parseInt(form.dataset.cardsPerTrick, 10) || 1;

  /* A picker's chips: each label holds its input, then the chip drawn (round_macros.html). */
  function chipInputs(root) {
    return Array.prototype.slice.call((root || form).querySelectorAll(".card-chips input"));
  }

  /* A card chip's colour, from its value ("red-7"): the chips leave it to their group. */
  function colourOf(input) {
    return input.value.slice(0, input.value.lastIndexOf("-"));
  }

  function pickerField(picker) {
    var name = picker.dataset.field || "";
    return name.slice(name.indexOf("-") + 1);
  }

  var plural = window.Intl && Intl.PluralRules ? new Intl.PluralRules(document.documentElement.lang || "en") : null;

  /* The count fields (rows of number chips), in the order the rules take them. */
  function countFields() {
    return Array.prototype.slice.call(form.querySelectorAll("fieldset[data-count-field]"));
  }

  /* The number a row of count chips holds, or null when none is tapped. */
  function countOf(field) {
    var checked = field.querySelector(".count-chips__row input:checked");
    if (!checked) {
      return null;
    }
    var value = parseInt(checked.value, 10);
    return isNaN(value) ? null : value;
  }

  function mostOf(field) {
    var most = 0;
    Array.prototype.forEach.call(field.querySelectorAll(".count-chips__row input"), function (input) {
      most = Math.max(most, parseInt(input.value, 10) || 0);
    });
    return most;
  }

  /* The counts that add up to the progress line's total: tricks (C3) or cards (C5). */
  function totalledFields() {
    return countFields().filter(function (field) {
      return kind === "hat-quick" || field.dataset.count === "tricks";
    });
  }

  function setImplied(field, on) {
    field.classList.toggle("count-chips--implied", on);
    if (on) {
      field.dataset.implied = "true";
    } else {
      delete field.dataset.implied;
    }
    var note = field.querySelector("[data-implied-note]");
    if (note) {
      note.hidden = !on;
    }
    var asked = note && note.querySelector("[data-zero-passes]");
    if (asked) {
      var text = on ? zeroPassesText(field) : "";
      asked.textContent = text ? " " + text : "";
      asked.hidden = !text;
    }
  }

  /* Hat Trick (C5): a forgotten pass hides in the implied count (passes start at 0 and the
     total still adds up), so its note names the players whose passes are still at 0. */
  function zeroPassesText(implied) {
    var template = form.dataset.zeroPassesText;
    if (!template) {
      return "";
    }
    var names = [];
    Array.prototype.forEach.call(form.querySelectorAll("fieldset.round-seat"), function (seat) {
      var passes = seat.querySelector('fieldset[data-count="passed"]');
      if (passes && passes !== implied && countOf(passes) === 0) {
        names.push(seat.querySelector(".round-seat__name").textContent);
      }
    });
    return names.length ? fill(template, { names: names.join(", ") }) : "";
  }

  function choose(field, value) {
    Array.prototype.forEach.call(field.querySelectorAll(".count-chips__row input"), function (input) {
      input.checked = value !== null && parseInt(input.value, 10) === value;
    });
  }

  /* C3 / C5: with every count but one entered, the last follows from the total (the same
     rule as companion/rules/implied_count.py, which Check applies without this file). */
  function refreshImplied() {
    var line = form.querySelector("[data-progress]");
    if (!line || (kind !== "quick" && kind !== "hat-quick")) {
      return;
    }
    var fields = totalledFields();
    var open = fields.filter(function (field) {
      return field.dataset.implied === "true" || countOf(field) === null;
    });
    var value = null;
    if (open.length === 1) {
      var known = 0;
      var inRange = true;
      fields.forEach(function (field) {
        if (field !== open[0]) {
          var count = countOf(field);
          inRange = inRange && count !== null && count >= 0 && count <= mostOf(field);
          known += count || 0;
        }
      });
      value = parseInt(line.dataset.expected, 10) - known;
      if (!inRange || value < 0 || value > mostOf(open[0])) {
        value = null;
      }
    }
    open.forEach(function (field) {
      var fill = open.length === 1 ? value : null;
      if (fill !== null || field.dataset.implied === "true") {
        choose(field, fill);
      }
      setImplied(field, fill !== null);
    });
  }

  function pluralText(line, name, n) {
    var one = plural ? plural.select(n) === "one" : n === 1;
    return fill(line.dataset[name + (one ? "One" : "Other")], { n: n });
  }

  /* Cards counted toward C5 / C3 in the full forms: everything but the indicators. */
  function placedCards(root) {
    var count = 0;
    Array.prototype.forEach.call(root.querySelectorAll(".card-picker"), function (picker) {
      var field = pickerField(picker);
      if (field === "captured" || field === "passed") {
        count += picker.querySelectorAll(".card-chips input:checked").length;
      }
    });
    return count;
  }

  function placedTotal() {
    if (kind === "quick" || kind === "hat-quick") {
      return totalledFields().reduce(function (sum, field) {
        return sum + (countOf(field) || 0);
      }, 0);
    }
    return placedCards(form);
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (whole, key) {
      return key in values ? String(values[key]) : whole;
    });
  }

  function refreshProgress() {
    var line = form.querySelector("[data-progress]");
    if (!line) {
      return;
    }
    var expected = parseInt(line.dataset.expected, 10);
    var placed = placedTotal();
    var missing = expected - placed;
    line.querySelector("[data-progress-total]").textContent = fill(line.dataset.textTotal, {
      placed: placed,
      expected: expected,
    });
    var state = line.querySelector("[data-progress-state]");
    if (missing > 0) {
      state.textContent = pluralText(line, "textMissing", missing);
    } else if (missing < 0) {
      state.textContent = pluralText(line, "textExtra", -missing);
    } else {
      state.textContent = line.dataset.textDone + " ✓";
    }
    line.classList.toggle("round-progress--done", missing === 0);
    line.classList.toggle("round-progress--open", missing !== 0);
  }

  function refreshSeatCounts() {
    Array.prototype.forEach.call(form.querySelectorAll("fieldset.round-seat"), function (seat) {
      var count = seat.querySelector("[data-seat-count]");
      if (!count) {
        return;
      }
      var cards = placedCards(seat);
      count.textContent = String(cards);
      var tricks = seat.querySelector("[data-seat-tricks]");
      if (tricks) {
        tricks.textContent = cards % cardsPerTrick === 0 ? String(cards / cardsPerTrick) : "?";
      }
    });
  }

  /* C1: a card tapped anywhere cannot be tapped elsewhere (untap it there first). */
  function refreshTakenCards() {
    var inputs = chipInputs();
    var tapped = {};
    inputs.forEach(function (input) {
      if (input.checked) {
        tapped[input.value] = true;
      }
    });
    inputs.forEach(function (input) {
      input.disabled = !input.checked && tapped[input.value] === true;
    });
  }

  /* Quick entry: a seat's captures are of its marked colour(s) (C4); show those chips. */
  function refreshMarkedColours() {
    if (kind !== "quick") {
      return;
    }
    Array.prototype.forEach.call(form.querySelectorAll("fieldset.round-seat"), function (seat) {
      var marked = {};
      var any = false;
      var captures = null;
      Array.prototype.forEach.call(seat.querySelectorAll(".card-picker"), function (picker) {
        var field = pickerField(picker);
        if (field === "marked") {
          chipInputs(picker).forEach(function (input) {
            if (input.checked) {
              marked[colourOf(input)] = true;
              any = true;
            }
          });
        } else if (field === "marked_captured") {
          captures = picker;
        }
      });
      if (!captures) {
        return;
      }
      Array.prototype.forEach.call(captures.querySelectorAll(".chip-group"), function (group) {
        var holdsTapped = group.querySelector(".card-chips input:checked") !== null;
        group.hidden = any && !marked[group.dataset.colour] && !holdsTapped;
      });
    });
  }

  /* A folded indicator shows the chips picked inside it, drawn as round_macros.html's
     picked_chip draws them. */
  function refreshFolds() {
    Array.prototype.forEach.call(form.querySelectorAll("[data-picked-for]"), function (shown) {
      var picker = form.querySelector('.card-picker[data-field="' + shown.dataset.pickedFor + '"]');
      if (!picker) {
        return;
      }
      shown.textContent = "";
      chipInputs(picker).forEach(function (input) {
        if (!input.checked) {
          return;
        }
        var chip = document.createElement("span");
        var name = input.getAttribute("aria-label");
        chip.className = "chip chip--shown";
        chip.dataset.colour = colourOf(input);
        chip.setAttribute("role", "img");
        chip.setAttribute("aria-label", name);
        chip.title = name;
        chip.textContent = input.nextElementSibling.textContent;
        shown.appendChild(chip);
      });
    });
  }

  /* The chips tapped in a seat's field (``marked``, ``captured``...). */
  function tappedIn(seat, field) {
    var picker = seat.querySelector('.card-picker[data-field$="-' + field + '"]');
    return picker ? chipInputs(picker).filter(function (input) {
      return input.checked;
    }) : [];
  }

  /* Quick entry before marking: a seat shows its indicator picker only, and the rest once
     the indicator is chosen (or anything else of the seat holds an entry). */
  function refreshWaiting() {
    Array.prototype.forEach.call(form.querySelectorAll("fieldset.round-seat"), function (seat) {
      var rest = seat.querySelector("[data-seat-rest]");
      var note = seat.querySelector("[data-seat-waiting]");
      if (!rest || !note) {
        return;
      }
      var typed = Array.prototype.some.call(rest.querySelectorAll("fieldset[data-count-field]"), function (field) {
        return field.dataset.implied !== "true" && countOf(field) !== null;
      });
      var open = tappedIn(seat, "marked").length > 0 || typed || tappedIn(seat, "marked_captured").length > 0;
      rest.hidden = !open;
      note.hidden = open;
    });
  }

  /* What a switch to the other mode would drop now (the same as round_switch.py). */
  function switchLosses() {
    var lost = {};
    Array.prototype.forEach.call(form.querySelectorAll("fieldset.round-seat"), function (seat) {
      if (kind === "quick") {
        var tricks = seat.querySelector("fieldset[data-count='tricks']");
        var won = tricks ? countOf(tricks) : null;
        if (won && won * cardsPerTrick > tappedIn(seat, "marked_captured").length) {
          lost["to-full"] = true;
        }
      } else if (kind === "full") {
        var colours = {};
        tappedIn(seat, "marked").forEach(function (input) {
          colours[colourOf(input)] = true;
        });
        var captured = tappedIn(seat, "captured");
        var others = captured.filter(function (input) {
          return !colours[colourOf(input)];
        }).length;
        if (others) {
          lost["to-quick"] = true;
          lost["no-whole-tricks"] = lost["no-whole-tricks"] || captured.length % cardsPerTrick !== 0;
        }
      } else if (kind === "hat-quick") {
        Array.prototype.forEach.call(seat.querySelectorAll("fieldset[data-count-field]"), function (field) {
          if (countOf(field)) {
            lost["hat-to-full"] = true;
          }
        });
      } else if (kind === "hat-full") {
        if (tappedIn(seat, "captured").length || tappedIn(seat, "passed").length) {
          lost["hat-to-quick"] = true;
        }
      }
    });
    return lost;
  }

  function refreshWarnings() {
    var warnings = document.querySelectorAll("[data-warn]");
    if (!warnings.length) {
      return;
    }
    var lost = switchLosses();
    Array.prototype.forEach.call(warnings, function (warning) {
      warning.hidden = !lost[warning.dataset.warn];
    });
  }

  function refresh() {
    refreshImplied();
    refreshProgress();
    refreshSeatCounts();
    refreshTakenCards();
    refreshMarkedColours();
    refreshFolds();
    refreshWaiting();
    refreshWarnings();
  }

  /* A count tapped by someone is theirs: never refilled. (Registered before refresh, so
     it runs first; "input" comes before "change".) */
  function ownCount(event) {
    var field = event.target.closest && event.target.closest("fieldset[data-count-field]");
    if (!field) {
      return;
    }
    setImplied(field, false);
    Array.prototype.forEach.call(field.querySelectorAll("[aria-invalid]"), function (input) {
      input.removeAttribute("aria-invalid");
    });
  }

  /* With this file a seat opens as its indicator is chosen: no Continue step. */
  var steps = form.querySelector('[data-step="indicators"]');
  if (steps) {
    steps.hidden = true;
    form.querySelector('[data-step="round"]').hidden = false;
  }

  form.addEventListener("input", ownCount);
  form.addEventListener("change", ownCount);
  form.addEventListener("input", refresh);
  form.addEventListener("change", refresh);
  refresh();
})();
