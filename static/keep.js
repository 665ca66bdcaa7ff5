// "Keep for offline play": downloads the offline kit once into this phone's Cache
// Storage, with its size and progress shown, so that the service worker (sw.js) can serve it
// with no network. Loaded only by the pages that show the control ([data-keep]): the share
// page, and the first screen of an editing scoreboard, whose line ([data-ready]) offers it
// with the kit's size as the server gives it, then says "Ready offline" beside "Forget this
// phone's copies". Without JavaScript, or where the browser cannot keep files for a site
// (plain HTTP off localhost), there is nothing to keep and the control says so or stays
// hidden (the scoreboard's line: hidden).
//
// - Forgetting empties the games this phone kept (their states in the outbox's store, their
//   pages in the service worker's cache), never a change waiting to be sent, nor its game.
// - On a scoreboard of a phone with no kit, with no network, the round buttons say beside
//   them that the phone is not ready, and lead nowhere (not to the offline page).
//
// - The kit's manifest (/offline-kit/manifest.json) names every file with its URL, sizes and
//   SHA-256. A kit is kept in the cache "sticheln-kit-<fingerprint>" (the fingerprint of the
//   rules worker's URL, which names every other part); it counts as kept once the manifest is
//   stored there too, after every file.
// - Each downloaded file is checked against its SHA-256 (SubtleCrypto) before it is kept; a
//   file that does not match is refused and not kept.
// - A file this phone already holds in an older kit (same URL, hence same content) is copied,
//   never fetched again. Once the new kit is whole, the older kits are deleted.
(function () {
  "use strict";

  var CACHE_PREFIX = "sticheln-kit-";
  var KEPT_WORKER = "sticheln-offline-worker";
  var GAMES_CACHE = "sticheln-games"; // the kept pages of games (templates/pwa/sw.js)
  var control = document.querySelector("[data-keep]");
  if (!control) {
    return;
  }
  var ready = control.hasAttribute("data-ready"); // the scoreboard's line
  var forget = control.querySelector(".keep__forget");
  var status = control.querySelector(".keep__status");
  var bar = control.querySelector(".keep__bar");
  var progress = control.querySelector("progress");
  var percent = control.querySelector(".keep__percent");
  var button = control.querySelector(".keep__button");
  var language = document.documentElement.lang || undefined;
  var words = control.dataset;
  var manifestUrl = words.manifest;

  function say(template, size) {
    status.textContent = (template || "").replace("{size}", size || "");
  }

  // "6.4 MB" in the page's language; below a tenth of a megabyte, whole kilobytes ("2 kB").
  function megabytes(bytes) {
    var small = bytes < 1e5;
    var digits = small ? 0 : 1;
    var number = new Intl.NumberFormat(language, { maximumFractionDigits: digits, minimumFractionDigits: digits });
    return small ? number.format(Math.max(1, Math.ceil(bytes / 1e3))) + "\u00a0kB" : number.format(bytes / 1e6) + "\u00a0MB";
  }

  function showProgress(done, total) {
    var value = total ? Math.floor((100 * Math.min(done, total)) / total) : 100;
    bar.hidden = false;
    progress.max = 100; // (the scoreboard's bar, for its weight, names no maximum)
    progress.value = value;
    percent.textContent = words.percent
      ? words.percent.replace("{percent}", String(value))
      : new Intl.NumberFormat(language, { style: "percent" }).format(value / 100);
  }

  // The one question asked of the phone: the manifest (from the network, or offline the
  // service worker's kept copy), whether its kit is kept, the files no kept kit holds yet
  // (the rest are copied, never fetched again) and whether an older kit is kept.
  function state() {
    return fetch(manifestUrl, { cache: "no-cache", credentials: "same-origin" }).then(function (response) {
      if (!response.ok) {
        throw new Error("unavailable");
      }
      return response.json().then(function (manifest) {
        var parts = manifest.worker.split("/"); // .../<fingerprint>/rules-worker.js
        manifest.cache = CACHE_PREFIX + parts[parts.length - 2];
        return Promise.all([
          caches.match(manifestUrl, { cacheName: manifest.cache }), // (looking makes no cache)
          Promise.all(manifest.files.map(function (file) {
            return caches.match(file.url);
          })),
          caches.keys(),
        ]).then(function (found) {
          return {
            manifest: manifest,
            kept: Boolean(found[0]),
            missing: manifest.files.filter(function (file, index) {
              return !found[1][index];
            }),
            older: found[2].some(function (name) {
              return name.indexOf(CACHE_PREFIX) === 0;
            }),
          };
        });
      });
    });
  }

  function refused(file) {
    var error = new Error("refused " + file.name);
    error.refused = true;
    return error;
  }

  // One file into ``cache``: downloaded (each chunk counted as it arrives), checked, kept.
  function download(cache, file, counted) {
    return fetch(file.url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) {
        throw new Error(file.name + " answered " + response.status);
      }
      var counting = new TransformStream({
        transform: function (chunk, out) {
          counted(chunk.length);
          out.enqueue(chunk);
        },
      });
      return new Response(response.body.pipeThrough(counting)).arrayBuffer().then(function (buffer) {
        return crypto.subtle.digest("SHA-256", buffer).then(function (digest) {
          var sha = Array.prototype.map.call(new Uint8Array(digest), function (byte) {
            return byte.toString(16).padStart(2, "0");
          });
          if (sha.join("") !== file.sha256 || buffer.byteLength !== file.size) {
            throw refused(file);
          }
          var type = response.headers.get("Content-Type") || "application/octet-stream";
          var headers = { "Content-Type": type, "Content-Length": String(buffer.byteLength) };
          return cache.put(file.url, new Response(buffer, { headers: headers }));
        });
      });
    });
  }

  function keepKit(manifest) {
    var done = 0;
    function counted(bytes) {
      done += bytes;
      showProgress(done, manifest.size);
    }
    if (navigator.storage && navigator.storage.persist) {
      navigator.storage.persist().then(null, function () {});
    }
    showProgress(0, manifest.size);
    say(words.downloading, megabytes(manifest.download_size));
    return caches.open(manifest.cache).then(function (cache) {
      // One file after another, so that progress is steady and a dropped line loses little;
      // a file already held (in this kit half kept before, or an older one) is copied.
      return manifest.files
        .reduce(function (chain, file) {
          return chain.then(function () {
            return caches.match(file.url).then(function (held) {
              if (!held) {
                return download(cache, file, counted);
              }
              counted(file.size);
              return cache.put(file.url, held);
            });
          });
        }, Promise.resolve())
        .then(function () {
          var body = new Response(JSON.stringify(manifest), { headers: { "Content-Type": "application/json" } });
          return cache.put(manifestUrl, body);
        })
        .then(function () {
          return caches.keys();
        })
        .then(function (names) {
          return Promise.all(
            names.map(function (name) {
              return name.indexOf(CACHE_PREFIX) === 0 && name !== manifest.cache ? caches.delete(name) : null;
            })
          );
        });
    });
  }

  function showKept(manifest) {
    // The game pages load offline play (static/offline_play.js) once this names the worker.
    try {
      localStorage.setItem(KEPT_WORKER, new URL(manifest.worker, location.href).href);
    } catch (error) {}
    showProgress(manifest.size, manifest.size);
    button.hidden = true;
    control.classList.add("keep--kept");
    say(words.kept, megabytes(manifest.size));
    if (ready) {
      bar.hidden = true;
      forget.hidden = false;
      status.textContent = "\u2713 " + status.textContent; // (the share page's mark, by its style)
    }
  }

  function offer(found) {
    var bytes = found.missing.reduce(function (sum, file) {
      return sum + file.download_size;
    }, 0);
    if (ready) {
      button.textContent = words.offer.replace("{size}", megabytes(found.manifest.download_size));
      say("");
    } else {
      say(found.older ? words.update : words.size, megabytes(bytes));
    }
    button.hidden = false;
    button.disabled = false;
  }

  function start() {
    control.hidden = ready; // the scoreboard's line: shown once it has something to offer
    if (!window.isSecureContext || !window.caches || !window.crypto || !crypto.subtle) {
      say(words.insecure);
      button.hidden = true;
      return;
    }
    state().then(
      function (found) {
        control.hidden = false;
        return found.kept ? showKept(found.manifest) : offer(found);
      },
      function (error) {
        button.hidden = true;
        say(error.message === "unavailable" ? words.unavailable : words.offline);
      }
    );
    button.addEventListener("click", function () {
      if (button.disabled) {
        return;
      }
      button.disabled = true;
      state()
        .then(function (found) {
          return keepKit(found.manifest).then(function () {
            showKept(found.manifest);
          });
        })
        .catch(function (error) {
          say(error && error.refused ? words.refused : words.failed);
          button.disabled = false;
        });
    });
  }

  // ------------------------------------------------------------------------------------------
  // The scoreboard's line: "Forget this phone's copies", and the round buttons of a phone
  // with no kit, with no network

  // The games kept are dropped but those a change waits for (static/outbox.js), then the
  // pages kept of any game but those (and, for a game started here, the pages it is drawn on).
  function forgetCopies() {
    forget.disabled = true;
    var outbox = window.StichelnOutbox; // (loaded on a game's pages of a phone with the kit)
    (outbox ? outbox.forgetKept() : Promise.reject(new Error("no outbox")))
      .then(function (waiting) {
        var codes = waiting.map(function (game) {
          return game.code.replace(/\/next$/, ""); // a next game: drawn on its game's pages
        });
        return caches.open(GAMES_CACHE).then(function (cache) {
          return cache.keys().then(function (requests) {
            return Promise.all(
              requests.map(function (request) {
                var game = new URL(request.url).pathname.match(/\/g\/([^/]+)/);
                return game && codes.indexOf(decodeURIComponent(game[1])) === -1 ? cache.delete(request) : null;
              })
            );
          });
        });
      })
      .then(
        function () {
          forget.hidden = true;
          say(words.forgotten);
        },
        function () {
          forget.disabled = false;
          say(words.failed);
        }
      );
  }

  var ROUND_BUTTONS = ".current-round .actions a, .corrections a, .play-again button";

  function offlineCopy() {
    return document.querySelector("[data-offline-copy]:not([hidden])") !== null || !navigator.onLine;
  }

  function sayUnready(unready) {
    var actions = document.querySelector(".current-round .actions");
    var note = document.getElementById("offline-unready");
    if (note && !(unready && actions)) {
      note.remove();
    } else if (!note && unready && actions) {
      note = document.createElement("p");
      note.id = "offline-unready";
      note.className = "hint";
      note.setAttribute("role", "status");
      note.textContent = words.unready;
      actions.after(note);
    }
  }

  function guardRounds() {
    try {
      if (localStorage.getItem(KEPT_WORKER)) {
        return; // the kit is kept: static/offline_play.js enters rounds offline
      }
    } catch (error) {}
    sayUnready(offlineCopy());
    window.addEventListener("offline", sayUnready.bind(null, true));
    window.addEventListener("online", sayUnready.bind(null, false));
    document.addEventListener(
      "click",
      function (event) {
        if (event.target.closest && event.target.closest(ROUND_BUTTONS) && offlineCopy()) {
          event.preventDefault();
          sayUnready(true);
        }
      },
      true
    );
  }

  if (!ready) {
    start();
    return;
  }
  // The scoreboard's line says the words of offline play (/offline/words.json, which the
  // service worker keeps): its page carries none, for its weight. No words: nothing offered.
  var wordsUrl = manifestUrl.slice(0, manifestUrl.lastIndexOf("/offline-kit/")) + "/offline/words.json?lang=";
  fetch(wordsUrl + encodeURIComponent(language || "en"), { credentials: "same-origin" })
    .then(function (response) {
      return response.ok ? response.json() : null;
    })
    .then(function (found) {
      if (found) {
        words = {
          offer: found.ready_offer,
          kept: found.ready_kept,
          downloading: found.kit_downloading,
          refused: found.kit_refused,
          failed: found.kit_failed,
          forgotten: found.forgotten,
          unready: found.unready,
        };
        forget.textContent = found.forget;
        progress.setAttribute("aria-label", found.progress);
        guardRounds();
        forget.addEventListener("click", forgetCopies);
        start();
      }
    })
    .catch(function () {});
})();
