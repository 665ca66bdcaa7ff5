/* Round pages, improved while typing (the pages work without this file):
   - the −/+ buttons change the number in place instead of sending the form;
   - the C3 / C5 line ("tricks assigned", "cards accounted for") follows every tap;
   - a card tapped for one seat is greyed out for the others (C1: each card is in one place);
   - in quick entry, only the chips of a seat's marked colour(s) are shown (C4). */
(function () {
  "use strict";

  var form = document.querySelector("form.round-form");
  if (!form) {
    return;
  }
  var kind = form.dataset.kind;
  var cardsPerTrick = parseInt(form.dataset.cardsPerTrick, 10) || 1;

  function chipInputs(root) {
    return Array.prototype.slice.call((root || form).querySelectorAll(".chip-input"));
  }

  function pickerField(picker) {
    var name = picker.dataset.field || "";
    return name.slice(name.indexOf("-") + 1);
  }

  function numberOf(input) {
    var value = parseInt(input.value, 10);
    return isNaN(value) ? 0 : value;
  }

  /* −/+ buttons: change the count here; the form is sent only by Check or Save. */
  function step(button) {
    var input = document.getElementById(button.dataset.for);
    if (!input) {
      return;
    }
    var value = numberOf(input) + parseInt(button.dataset.step, 10);
    var most = input.max === "" ? Infinity : parseInt(input.max, 10);
    input.value = String(Math.max(0, Math.min(most, value)));
    input.removeAttribute("aria-invalid");
    refresh();
  }

  /* Cards counted toward C5 / C3 in the full forms: everything but the indicators. */
  function placedCards(root) {
    var count = 0;
    Array.prototype.forEach.call(root.querySelectorAll(".card-picker"), function (picker) {
      var field = pickerField(picker);
      if (field === "captured" || field === "passed") {
        count += picker.querySelectorAll(".chip-input:checked").length;
      }
    });
    return count;
  }

  function placedTotal() {
    var inputs = form.querySelectorAll("input[data-count]");
    if (kind === "quick") {
      inputs = form.querySelectorAll('input[data-count="tricks"]');
    }
    if (kind === "quick" || kind === "hat-quick") {
      return Array.prototype.reduce.call(inputs, function (sum, input) {
        return sum + numberOf(input);
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
      state.textContent = fill(line.dataset.textMissing, { n: missing });
    } else if (missing < 0) {
      state.textContent = fill(line.dataset.textExtra, { n: -missing });
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
              marked[input.dataset.colour] = true;
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
        var holdsTapped = group.querySelector(".chip-input:checked") !== null;
        group.hidden = any && !marked[group.dataset.colour] && !holdsTapped;
      });
    });
  }

  /* A folded indicator shows the chips picked inside it. */
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
        var label = picker.querySelector('label[for="' + input.id + '"]');
        var chip = document.createElement("span");
        chip.className = label.className + " chip--shown";
        chip.dataset.colour = label.dataset.colour;
        chip.innerHTML = label.innerHTML;
        shown.appendChild(chip);
      });
    });
  }

  function refresh() {
    refreshProgress();
    refreshSeatCounts();
    refreshTakenCards();
    refreshMarkedColours();
    refreshFolds();
  }

  form.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-step]");
    if (button) {
      event.preventDefault();
      step(button);
    }
  });
  form.addEventListener("input", refresh);
  form.addEventListener("change", refresh);
  refresh();
})();
