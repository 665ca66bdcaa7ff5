/* Table tools: small improvements over pages that work fully without JavaScript.
 *
 * 1. Forms marked data-autosubmit apply a changed setting at once (no "Apply" button).
 * 2. The trick resolver sends each tap in the background and swaps in the new form, so the
 *    page keeps its place, and the result is announced by the
 *    aria-live region. The server renders the answer exactly as it would for a normal post,
 *    so the rules stay in one place. Any failure falls back to the normal form post.
 * 3. The address bar follows the trick (the page names the address that opens it as it is
 *    now), so Back after a rule link, a reload or a shared link shows the same trick.
 * 4. Where the browser has a share sheet (Web Share API), a button shares that address.
 * 5. Offline (the page is the service worker's kept copy, or the line dropped), a tap cannot
 *    reach the server. A phone that kept the offline kit asks its rules worker instead: it
 *    applies the tap and renders the trick with the server's page model and template
 *    (companion/pages/resolver.py, templates/tools/resolver_trick.html), and the answer is
 *    put in place here. Nothing is drawn here. A phone without the kit says, beside the
 *    trick, that the tap was not applied, instead of posting the form into the browser's
 *    error page.
 */
(function () {
  "use strict";

  function submitWith(form, submitter) {
    if (typeof form.requestSubmit === "function") {
      form.requestSubmit(submitter || undefined);
    } else {
      form.submit();
    }
  }

  function applyButton(form) {
    return form.querySelector('button[name="apply"]');
  }

  function enableAutosubmit(form) {
    form.classList.add("js-autosubmit");
    form.addEventListener("change", function (event) {
      if (event.target instanceof HTMLSelectElement) {
        submitWith(form, applyButton(form));
      }
    });
  }

  /* The form data a normal submit would send, including the button that was pressed. */
  function formData(form, submitter) {
    var data = new FormData(form);
    if (submitter && submitter.name) {
      data.append(submitter.name, submitter.value);
    }
    return data;
  }

  function focusAfterSwap(form, name, value) {
    var selector = 'button[name="' + name + '"]';
    if (name === "add") {
      selector += '[value="' + CSS.escape(value) + '"]';
    }
    var target = form.querySelector(selector);
    if (target && !target.disabled) {
      target.focus({ preventScroll: true });
    }
  }

  /* While cards are tapped the page keeps its place (the bar at the bottom shows who is
     winning); once the trick is complete its verdict and reason are brought into view. */
  function revealVerdict(form) {
    var panel = form.querySelector("#trick-panel[data-complete]");
    if (panel && panel.getBoundingClientRect().top < 0) {
      panel.scrollIntoView({ block: "start" });
    }
  }

  /* Keep the resolver's state in the address, replacing the history entry: taps are not
     pages to go back through. The "#trick-panel" of the form's action is kept. */
  function keepAddress(address) {
    if (address && window.history && typeof window.history.replaceState === "function") {
      window.history.replaceState(window.history.state, "", address + window.location.hash);
    }
  }

  /* Says, beside the trick, that the tap was not applied: ``refusal`` (the rules worker's
     answer offline), else because the phone is offline. */
  function sayOffline(form, refusal) {
    var notice = form.querySelector(".resolver-offline");
    if (!notice) {
      notice = document.createElement("p");
      notice.className = "notice notice--refusal resolver-offline";
      notice.setAttribute("role", "alert");
      var place = form.querySelector(".trick-result") || form.firstElementChild;
      place.insertAdjacentElement("beforebegin", notice);
    }
    notice.textContent = refusal || form.dataset.offline;
  }

  // ------------------------------------------------------------------------------------------
  // Offline: the rules worker answers the tap with the trick as the server renders it

  /* Where the app is (its URL prefix), as the server's links start. */
  var script = document.currentScript;
  var root = script ? new URL(script.src).pathname.split("/static/")[0] : "";

  var offlineRules = null;
  try {
    var kept = localStorage.getItem("sticheln-offline-worker");
    if (kept && typeof Worker === "function") {
      offlineRules = { url: kept, worker: null, waiting: {}, last: 0, drawn: 0 };
    }
  } catch (error) {}

  function askRules(call, body) {
    var rules = offlineRules;
    if (!rules.worker) {
      rules.worker = new Worker(rules.url, { type: "module" });
      rules.worker.onmessage = function (event) {
        var data = event.data || {};
        if (data.id !== undefined && rules.waiting[data.id]) {
          rules.waiting[data.id](data);
          delete rules.waiting[data.id];
        }
      };
    }
    rules.last += 1;
    var id = rules.last;
    return new Promise(function (resolve) {
      rules.waiting[id] = resolve;
      var language = document.documentElement.lang || "en";
      rules.worker.postMessage({ id: id, call: call, body: body, language: language });
    });
  }

  function fieldValue(form, name) {
    var field = form.elements.namedItem(name);
    return field ? field.value : null;
  }

  /* What the worker needs to know of the table: the game's variant and seats from the page,
     or the trick rule and player count chosen in the settings. */
  function tableOf(form, state) {
    if (form.dataset.table) {
      var table = JSON.parse(form.dataset.table);
      table.leader = Number(state.leader !== undefined ? state.leader : fieldValue(form, "leader"));
      return table;
    }
    return {
      rule: state.variant || fieldValue(form, "variant"),
      players: Number(state.players || fieldValue(form, "players")),
    };
  }

  function tapOf(name, value) {
    if (name === "add") {
      return { add: value };
    }
    if (name === "undo" || name === "clear") {
      var tap = {};
      tap[name] = true;
      return tap;
    }
    return {};
  }

  function tapOffline(form, name, value, state) {
    state = state || {};
    var body = tableOf(form, state);
    body.trick = state.trick !== undefined ? state.trick : fieldValue(form, "trick") || "";
    body.tap = tapOf(name, value);
    body.root = root;
    return askRules("pages/resolver", body).then(function (reply) {
      if (reply.status !== 200) {
        sayOffline(form, reply.body && reply.body.error);
        return;
      }
      var old = form.querySelector(".resolver-offline");
      if (old) {
        old.remove();
      }
      form.elements.namedItem("trick").value = reply.body.trick;
      form.querySelector("#resolver-trick").innerHTML = reply.body.html;
      var address = offlineAddress(form, reply.body);
      keepAddress(address);
      offlineRules.drawn += 1; // each answer is told apart, a refused tap's too
      form.setAttribute("data-offline-drawn", offlineRules.drawn + " " + address);
      focusAfterSwap(form, name, value);
      revealVerdict(form);
    });
  }

  /* The address that opens the trick as it is now, as the server names it. */
  function offlineAddress(form, trick) {
    var url = new URL(form.action.split("#")[0]);
    var settings = form.dataset.table ? ["leader"] : ["variant", "players"];
    settings.forEach(function (name) {
      url.searchParams.set(name, fieldValue(form, name));
    });
    if (trick.trick) {
      url.searchParams.set("trick", trick.trick);
    }
    var address = url.pathname + url.search;
    form.setAttribute("data-address", address);
    return address;
  }

  /* A kept page opened at an address whose trick or settings it does not show (the service
     worker keeps one copy per page): offline, the worker draws what the address names. */
  function drawAddressed(form) {
    var shown = form.getAttribute("data-address") || "";
    var asked = window.location.pathname + window.location.search;
    if (!offlineRules || !window.location.search || shown === asked) {
      return;
    }
    var query = new URLSearchParams(window.location.search);
    var state = { trick: query.get("trick") || "" };
    ["variant", "players", "leader"].forEach(function (name) {
      var field = form.elements.namedItem(name);
      if (query.has(name) && field) {
        field.value = query.get(name);
        state[name] = field.value;
      }
    });
    fetch(form.action.split("#")[0], { method: "HEAD", cache: "no-store" }).then(null, function () {
      tapOffline(form, "", "", state).then(null, function () {});
    });
  }

  function enhanceResolver(form) {
    var queue = Promise.resolve();
    if (offlineRules) {
      // Its taps are answered on the phone offline: forms.js lets it through.
      form.setAttribute("data-offline-entry", "");
    }
    var fallback = false;
    var action = form.action.split("#")[0];

    function send(submitter) {
      var name = submitter ? submitter.name : "";
      var value = submitter ? submitter.value : "";
      var body = formData(form, submitter);
      form.setAttribute("aria-busy", "true");
      return fetch(action, {
        method: "POST",
        body: body,
        credentials: "same-origin",
        headers: { "X-Requested-With": "fetch" },
      })
        .then(null, function () {
          var offline = new Error("offline");
          offline.offline = true;
          throw offline;
        })
        .then(function (response) {
          if (response.status >= 500) {
            throw new Error("server error " + response.status);
          }
          return response.text();
        })
        .then(function (html) {
          var page = new DOMParser().parseFromString(html, "text/html");
          var fresh = page.getElementById(form.id);
          if (!fresh) {
            throw new Error("no form in the answer");
          }
          var scroll = window.scrollY;
          form.innerHTML = fresh.innerHTML;
          form.setAttribute("data-address", fresh.getAttribute("data-address") || "");
          keepAddress(fresh.getAttribute("data-address"));
          window.scrollTo(0, scroll);
          focusAfterSwap(form, name, value);
          revealVerdict(form);
        })
        .catch(function (error) {
          if (error && error.offline && offlineRules) {
            return tapOffline(form, name, value).then(null, function () {
              sayOffline(form);
            });
          }
          if (error && error.offline && form.dataset.offline) {
            sayOffline(form);
            return;
          }
          fallback = true;
          submitWith(form, submitter);
        })
        .finally(function () {
          form.removeAttribute("aria-busy");
        });
    }

    form.addEventListener("submit", function (event) {
      if (fallback || typeof window.fetch !== "function" || typeof DOMParser !== "function") {
        return;
      }
      event.preventDefault();
      var submitter = event.submitter || null;
      /* Taps are sent one after another, each with the trick the previous one returned. */
      queue = queue.then(function () {
        return send(submitter);
      });
    });
  }

  /* The phone's own share sheet (Web Share API, where the browser has one) for the trick as
     it is now: its address, which opens the same trick on another phone. */
  function offerSharing(form) {
    var line = document.querySelector(".resolver-share");
    if (typeof navigator.share !== "function" || !line) {
      return;
    }
    function showWhenAddressed() {
      line.hidden = !form.getAttribute("data-address");
    }
    line.querySelector("button").addEventListener("click", function () {
      var url = new URL(form.getAttribute("data-address"), window.location.href).href;
      // Closing the sheet without choosing rejects the promise: nothing to say then.
      navigator.share({ title: document.title, url: url }).then(null, function () {});
    });
    new MutationObserver(showWhenAddressed).observe(form, {
      attributes: true,
      attributeFilter: ["data-address"],
    });
    showWhenAddressed();
  }

  document.querySelectorAll("form[data-autosubmit]").forEach(enableAutosubmit);
  document.querySelectorAll("form[data-resolver]").forEach(offerSharing);
  document.querySelectorAll("form[data-resolver]").forEach(enhanceResolver);
  document.querySelectorAll("form[data-resolver]").forEach(drawAddressed);
})();
