// Live round, improved when JavaScript runs (the page works without this file): a tapped
// card, an undo or a pass is sent in the background and the page is redrawn in place, so
// the cards do not jump back to the top after every tap. One tap is sent at a time; if the
// server cannot be reached, the form is sent the ordinary way.
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

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!isLiveForm(form)) {
      return;
    }
    event.preventDefault();
    if (busy) {
      return;
    }
    busy = true;
    main.setAttribute("aria-busy", "true");
    var submitter = event.submitter || null;
    fetch(form.action, {
      method: "POST",
      body: payload(form, submitter),
      credentials: "same-origin",
      headers: { Accept: "text/html" },
    })
      .then(function (response) {
        return response.text().then(function (text) {
          redraw(response, text);
        });
      })
      .catch(function () {
        sendTheOrdinaryWay(form, submitter);
      })
      .then(function () {
        busy = false;
        main.removeAttribute("aria-busy");
      });
  });
})();
