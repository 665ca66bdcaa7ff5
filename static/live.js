// Live round, improved when JavaScript runs (the page works without this file): a tapped
// card, an undo or a pass is sent in the background and the page is redrawn in place, so
// the cards do not jump back to the top after every tap. Taps are sent one at a time, in the
// order they were made: a tap made while another is on its way waits for it and is then sent
// from the redrawn page (with the game's new version). If the server cannot be reached, the
// tap is played on the phone where it kept the offline kit (offline_live.js), else the form
// is sent the ordinary way.
// The page also follows the other phones at the table: every few seconds it asks with its
// ETag (follow.js, as the scoreboard does) and, when a card was entered elsewhere,
// swaps in the page as it is now, keeping the scroll and the focus, so the
// next tap here is the next card. It never swaps while a tap of this phone is on its way.
// Without JavaScript a tap from a page that missed a card is refused and the trick shown.
(function () {
  "use strict";

  var main = document.getElementById("content");
  if (!main || !window.fetch || !window.DOMParser || !window.FormData) {
    return;
  }
  var busy = false;
  var taps = 0; // taps made here so far: a poll sent before the latest one is not used
  var POLL_MS = 3000;

  function isLiveForm(form) {
    return form && form.hasAttribute && form.hasAttribute("data-live-form");
  }

  function payload(form, submitter) {
    var data = new FormData(form);
    if (submitter && submitter.name) {
      data.append(submitter.name, submitter.value);
    }
    return data;
  }

  function sendTheOrdinaryWay(form, submitter) {
    form.removeAttribute("data-live-form");
    if (submitter && document.contains(submitter)) {
      submitter.click();
    } else {
      form.submit();
    }
  }

  function redraw(response, text) {
    var page = new DOMParser().parseFromString(text, "text/html");
    var fresh = page.getElementById("content");
    if (!fresh || !page.querySelector("[data-live]")) {
      // Not a live page (the round ended elsewhere, edit rights gone): load it afresh.
      window.location.reload();
      return;
    }
    main.innerHTML = fresh.innerHTML;
    if (page.title) {
      document.title = page.title;
    }
    if (response.redirected) {
      history.replaceState(null, "", response.url);
    }
  }

  var queue = [];

  // The page as the server now has it is in place (offline_live.js keeps the game for then).
  function drawn() {
    document.dispatchEvent(new CustomEvent("sticheln:live-drawn"));
  }

  function stillThere(tap) {
    // The tapped button on the page as it is now (it was redrawn since the tap), if it can
    // still be tapped: a card played in the meantime is not sent again.
    if (document.contains(tap.form)) {
      return tap;
    }
    var forms = main.querySelectorAll("form[data-live-form]");
    for (var i = 0; i < forms.length; i += 1) {
      var form = forms[i];
      if (form.getAttribute("action") !== tap.action) {
        continue;
      }
      if (!tap.name) {
        return { form: form, submitter: null, action: tap.action };
      }
      var buttons = form.querySelectorAll("button[name]");
      for (var j = 0; j < buttons.length; j += 1) {
        var button = buttons[j];
        if (button.name === tap.name && button.value === tap.value && !button.disabled) {
          return { form: form, submitter: button, action: tap.action };
        }
      }
    }
    return null;
  }

  function sendNext() {
    if (busy || !queue.length) {
      return;
    }
    var tap = stillThere(queue.shift());
    if (!tap) {
      sendNext();
      return;
    }
    busy = true;
    main.setAttribute("aria-busy", "true");
    fetch(tap.form.action, {
      method: "POST",
      body: payload(tap.form, tap.submitter),
      credentials: "same-origin",
      headers: { Accept: "text/html" },
    })
      .then(function (response) {
        return response.text().then(function (text) {
          redraw(response, text);
          drawn();
        });
      })
      .catch(function () {
        queue = [];
        // A phone that kept the offline kit plays the tap on the phone (offline_live.js).
        var offline = window.StichelnOfflineLive;
        var taken = offline ? offline.take(tap.form, tap.submitter) : Promise.resolve(false);
        return taken.then(function (played) {
          if (!played) {
            sendTheOrdinaryWay(tap.form, tap.submitter);
          }
        });
      })
      .then(function () {
        busy = false;
        main.removeAttribute("aria-busy");
        sendNext();
      });
  }

  function swapIn(page) {
    // The page as it is now, in place of this one, keeping what this phone is doing.
    var fresh = page.getElementById("content");
    if (!fresh || !page.querySelector("[data-live][data-poll]")) {
      return; // not a live page (the round ended elsewhere, rights gone): keep this one
    }
    var focused = document.activeElement && main.contains(document.activeElement)
      ? document.activeElement
      : null;
    var focusedCard = focused && focused.name === "card" ? focused.value : "";
    var focusedId = focused ? focused.id : "";
    var x = window.scrollX;
    var y = window.scrollY;
    main.innerHTML = fresh.innerHTML;
    if (page.title) {
      document.title = page.title;
    }
    window.scrollTo(x, y);
    drawn();
    var again = focusedCard
      ? main.querySelector('button[name="card"][value="' + focusedCard + '"]')
      : focusedId && document.getElementById(focusedId);
    if (again && !again.disabled) {
      again.focus({ preventScroll: true });
    }
  }

  // The page follows the other phones (follow.js): not while a tap of this phone is on its
  // way, nor with an answer asked for before the latest tap here.
  if (window.StichelnFollow) {
    window.StichelnFollow(main, "[data-live][data-poll]", POLL_MS, swapIn, function () {
      return busy || queue.length ? false : taps;
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!isLiveForm(form)) {
      return;
    }
    event.preventDefault();
    taps += 1;
    var submitter = event.submitter || null;
    if (submitter && submitter.classList) {
      submitter.classList.add("live-chip--pending");
    }
    queue.push({
      form: form,
      submitter: submitter,
      action: form.getAttribute("action"),
      name: submitter ? submitter.name : "",
      value: submitter ? submitter.value : "",
    });
    sendNext();
  });
})();
