// Registers the service worker (sw.js at the app's root): the app installs on a phone, shows a
// friendly page offline, and serves what it keeps. Where service workers are missing or
// refused (plain HTTP off localhost), nothing happens.
//
// The worker's URL is found from this script's own, /static/app.<hash>.js, whatever path the
// app is served under (URL_PREFIX): /sticheln/static/app.<hash>.js registers /sticheln/sw.js,
// for the pages under /sticheln/ only.
(function () {
  "use strict";

  var script = document.currentScript;
  if (!("serviceWorker" in navigator) || !script) {
    return;
  }
  var worker = new URL("../sw.js", script.src);
  // A phone that kept the offline kit (static/keep.js) enters rounds offline on a game's
  // pages: outbox.js, offline_play.js, then offline_live.js (live rounds), kept by the worker
  // like every static file.
  var play = ["data-outbox", "data-play", "data-live"].map(function (name) {
    return script.getAttribute(name);
  });
  // On the new-game page: outbox.js, then offline_new_game.js (a game started offline).
  var starting = [script.getAttribute("data-outbox"), script.getAttribute("data-new")];
  function load(sources) {
    sources.forEach(function (src) {
      var loader = document.createElement("script");
      loader.src = src;
      loader.async = false; // in this order
      document.head.appendChild(loader);
    });
  }
  try {
    if (play[1] && localStorage.getItem("sticheln-offline-worker")) {
      if (document.querySelector("[data-game]")) {
        load(play);
      } else if (starting[1] && document.getElementById("new-game-form")) {
        load(starting);
      }
    }
  } catch (error) {}
  // After the page has loaded, so that the worker's downloads never slow it down; then a
  // scoreboard's readiness for offline play (keep.js).
  window.addEventListener("load", function () {
    if (document.querySelector("[data-ready]")) {
      load([script.getAttribute("data-keeping")]);
    }
    navigator.serviceWorker
      .register(worker.href, { scope: new URL("./", worker).pathname })
      .then(null, function () {});
  });
})();
