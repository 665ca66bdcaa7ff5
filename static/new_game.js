// New-game form, improved when JavaScript runs (the form works without it):
// the custom settings are shown only while "Custom" is the chosen variant, the
// first-leader list names each seat after the name typed for it, and "One round per
// player" shows in the rounds field the count the server will take (one per name, R11).
(function () {
  "use strict";

  var form = document.getElementById("new-game-form");
  if (!form) {
    return;
  }
  var custom = document.getElementById("custom-settings");
  var leader = form.elements.namedItem("first_leader");
  var seatLabels = leader ? Array.prototype.map.call(leader.options, function (option) {
    return option.text;
  }) : [];

  function showCustomSettings() {
    var chosen = form.querySelector('input[name="variant"]:checked');
    var hasErrors = custom.querySelector(".field-errors") !== null;
    custom.hidden = !hasErrors && !(chosen && chosen.value === "custom");
  }

  function nameSeats() {
    seatLabels.forEach(function (label, seat) {
      var input = form.elements.namedItem("player_" + seat);
      var name = input ? input.value.trim() : "";
      leader.options[seat].text = name ? label + " · " + name : label;
    });
  }

  if (custom) {
    form.addEventListener("change", function (event) {
      if (event.target.name === "variant") {
        showCustomSettings();
      }
    });
    showCustomSettings();
  }
  if (leader) {
    form.addEventListener("input", nameSeats);
    nameSeats();
  }

  var oneEach = form.elements.namedItem("one_round_each");
  var rounds = form.elements.namedItem("rounds");
  function roundPerPlayer() {
    rounds.readOnly = oneEach.checked;
    if (!oneEach.checked) {
      return;
    }
    var names = form.querySelectorAll('input[name^="player_"]');
    var filled = Array.prototype.filter.call(names, function (input) {
      return input.value.trim() !== "";
    }).length;
    if (filled > 0) {
      rounds.value = String(filled);
    }
  }
  if (oneEach && rounds) {
    form.addEventListener("input", roundPerPlayer);
    oneEach.addEventListener("change", roundPerPlayer);
    roundPerPlayer();
  }
})();
