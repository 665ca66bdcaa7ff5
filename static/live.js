// Live round, improved when JavaScript runs (the page works without this file): a tapped
// card, an undo or a pass is sent in the background and the page is redrawn in place, so
// the cards do not jump back to the top after every tap. Taps are sent one at a time, in the
// order they were made: a tap made while another is on its way waits for it and is then sent
// from the redrawn page (with the game's new version). If the server cannot be reached, the
// form is sent the ordinary way.
(function () {
  "use strict";

  var main = document.getElementById("content");
  if (!main || !window.fetch || !window.DOMParser || !window.FormData) {
    return;
  }
  var busy = false;

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
        });
      })
      .catch(function () {
        queue = [];
        sendTheOrdinaryWay(tap.form, tap.submitter);
      })
      .then(function () {
        busy = false;
        main.removeAttribute("aria-busy");
        sendNext();
      });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!isLiveForm(form)) {
      return;
    }
    event.preventDefault();
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
