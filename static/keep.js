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
  var words = control.dataset;
  var manifestUrl = words.manifest;
  // The scoreboard's line says the words of offline play (/offline/words.json, which the
  // service worker keeps): its page carries none, for its weight.
  var wordsUrl =
    manifestUrl.slice(0, manifestUrl.lastIndexOf("/offline-kit/")) +
    "/offline/words.json?lang=" +
    encodeURIComponent(document.documentElement.lang || "en");
  var busy = false;

  function say(template, size) {
    status.textContent = (template || "").replace("{size}", size || "");
  }

  // "6.4 MB" in the page's language; below a tenth of a megabyte, whole kilobytes ("2 kB").
  function megabytes(bytes) {
    var language = document.documentElement.lang || undefined;
    if (bytes < 1e5) {
      var kilobytes = new Intl.NumberFormat(language, { maximumFractionDigits: 0 });
      return kilobytes.format(Math.max(1, Math.ceil(bytes / 1e3))) + "\u00a0kB";
    }
    var number = new Intl.NumberFormat(language, {
      maximumFractionDigits: 1,
      minimumFractionDigits: 1,
    });
    return number.format(bytes / 1e6) + "\u00a0MB";
  }

  function hex(buffer) {
    return Array.prototype.map
      .call(new Uint8Array(buffer), function (byte) {
        return byte.toString(16).padStart(2, "0");
      })
      .join("");
  }

  // The kit's cache, named by the fingerprint in its rules worker's URL (.../<it>/<file>).
  function cacheName(manifest) {
    var parts = manifest.worker.split("/");
    return CACHE_PREFIX + parts[parts.length - 2];
  }

  function showProgress(done, total) {
    var value = total ? Math.floor((100 * done) / total) : 100;
    bar.hidden = false;
    progress.max = 100; // (the scoreboard's bar, for its weight, names no maximum)
    progress.value = value;
    percent.textContent = words.percent
      ? words.percent.replace("{percent}", String(value))
      : new Intl.NumberFormat(document.documentElement.lang || undefined, { style: "percent" }).format(value / 100);
  }

  // The manifest, from the network (or, offline, the service worker's kept copy).
  function readManifest() {
    return fetch(manifestUrl, { cache: "no-cache", credentials: "same-origin" }).then(
      function (response) {
        if (!response.ok) {
          throw new Error("unavailable");
        }
        return response.json();
      }
    );
  }

  // The kit's files this phone holds in no kept kit yet.
  function missingFiles(manifest) {
    return Promise.all(
      manifest.files.map(function (file) {
        return caches.match(file.url).then(function (found) {
          return found ? null : file;
        });
      })
    ).then(function (files) {
      return files.filter(Boolean);
    });
  }

  // (A cache that does not exist is not made by the look.)
  function isKept(manifest) {
    return caches.match(manifestUrl, { cacheName: cacheName(manifest) }).then(Boolean);
  }

  // The body of ``response``, counting each chunk as it arrives.
  function readAll(response, counted) {
    var reader = response.body.getReader();
    var chunks = [];
    var length = 0;
    function next() {
      return reader.read().then(function (step) {
        if (step.done) {
          var whole = new Uint8Array(length);
          var at = 0;
          chunks.forEach(function (chunk) {
            whole.set(chunk, at);
            at += chunk.length;
          });
          return whole.buffer;
        }
        chunks.push(step.value);
        length += step.value.length;
        counted(step.value.length);
        return next();
      });
    }
    return next();
  }

  function refused(file) {
    var error = new Error("refused " + file.name);
    error.refused = true;
    return error;
  }

  // One file into ``cache``: already there (a kit half kept before), copied from an older
  // kit, or downloaded and checked.
  function keepFile(cache, file, counted) {
    return caches.match(file.url).then(function (held) {
      if (held) {
        counted(file.size);
        return cache.put(file.url, held);
      }
      return fetch(file.url, { credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok) {
            throw new Error(file.name + " answered " + response.status);
          }
          var type = response.headers.get("Content-Type") || "application/octet-stream";
          return readAll(response, counted).then(function (buffer) {
            return crypto.subtle.digest("SHA-256", buffer).then(function (digest) {
              if (hex(digest) !== file.sha256 || buffer.byteLength !== file.size) {
                throw refused(file);
              }
              var headers = { "Content-Type": type, "Content-Length": String(buffer.byteLength) };
              return cache.put(file.url, new Response(buffer, { headers: headers }));
            });
          });
        });
    });
  }

  function dropOlderKits(keep) {
    return caches.keys().then(function (names) {
      return Promise.all(
        names
          .filter(function (name) {
            return name.indexOf(CACHE_PREFIX) === 0 && name !== keep;
          })
          .map(function (name) {
            return caches.delete(name);
          })
      );
    });
  }

  function keepKit(manifest) {
    var name = cacheName(manifest);
    var total = manifest.size;
    var done = 0;
    function counted(bytes) {
      done += bytes;
      showProgress(Math.min(done, total), total);
    }
    if (navigator.storage && navigator.storage.persist) {
      navigator.storage.persist().then(null, function () {});
    }
    showProgress(0, total);
    say(words.downloading, megabytes(manifest.download_size));
    return caches.open(name).then(function (cache) {
      // One file after another, so that progress is steady and a dropped line loses little.
      return manifest.files
        .reduce(function (chain, file) {
          return chain.then(function () {
            return keepFile(cache, file, counted);
          });
        }, Promise.resolve())
        .then(function () {
          var body = JSON.stringify(manifest);
          return cache.put(
            manifestUrl,
            new Response(body, { headers: { "Content-Type": "application/json" } })
          );
        })
        .then(function () {
          return dropOlderKits(name);
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

  function offer(manifest) {
    return missingFiles(manifest).then(function (missing) {
      var bytes = missing.reduce(function (sum, file) {
        return sum + file.download_size;
      }, 0);
      return caches.keys().then(function (names) {
        var older = names.some(function (name) {
          return name.indexOf(CACHE_PREFIX) === 0;
        });
        if (ready) {
          button.textContent = words.offer.replace("{size}", megabytes(manifest.download_size));
          say("");
        } else {
          say(older ? words.update : words.size, megabytes(bytes));
        }
        button.hidden = false;
        button.disabled = false;
      });
    });
  }

  // ------------------------------------------------------------------------------------------
  // "Forget this phone's copies"

  // The games kept are dropped but those a change waits for (static/outbox.js), then the
  // pages kept of any game but those (and, for a game started here, the pages it is drawn on).
  function forgetCopies() {
    forget.disabled = true;
    var outbox = window.StichelnOutbox; // (loaded on a game's pages of a phone with the kit)
    (outbox ? outbox.forgetKept() : Promise.reject(new Error("no outbox")))
      .then(function (waiting) {
        var codes = [];
        waiting.forEach(function (game) {
          codes.push(game.code.replace(/\/next$/, "")); // a next game: drawn on its game's pages
        });
        return caches.open(GAMES_CACHE).then(function (cache) {
          return cache.keys().then(function (requests) {
            return Promise.all(
              requests.map(function (request) {
                var game = new URL(request.url).pathname.match(/\/g\/([^/]+)/);
                var keep = !game || codes.indexOf(decodeURIComponent(game[1])) !== -1;
                return keep ? null : cache.delete(request);
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

  // ------------------------------------------------------------------------------------------
  // A scoreboard on a phone with no kit, with no network: its round buttons lead nowhere

  var ROUND_BUTTONS = ".current-round .actions a, .corrections a, .play-again button";

  function offlineCopy() {
    return document.querySelector("[data-offline-copy]:not([hidden])") !== null || !navigator.onLine;
  }

  function sayUnready(unready) {
    var actions = document.querySelector(".current-round .actions");
    var note = document.getElementById("offline-unready");
    if (!unready || !actions) {
      if (note) {
        note.remove();
      }
      return;
    }
    if (!note) {
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
    window.addEventListener("offline", function () {
      sayUnready(true);
    });
    window.addEventListener("online", function () {
      sayUnready(false);
    });
    document.addEventListener(
      "click",
      function (event) {
        var pressed = event.target.closest && event.target.closest(ROUND_BUTTONS);
        if (pressed && offlineCopy()) {
          event.preventDefault();
          sayUnready(true);
        }
      },
      true
    );
  }

  function readiness() {
    return fetch(wordsUrl, { credentials: "same-origin" })
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
      .catch(function () {}); // no words: nothing is offered
  }

  function start() {
    control.hidden = ready; // the scoreboard's line: shown once it has something to offer
    if (!window.isSecureContext || !window.caches || !window.crypto || !crypto.subtle) {
      say(words.insecure);
      button.hidden = true;
      return;
    }
    readManifest().then(
      function (manifest) {
        return isKept(manifest).then(function (kept) {
          control.hidden = false;
          return kept ? showKept(manifest) : offer(manifest);
        });
      },
      function (error) {
        button.hidden = true;
        say(error.message === "unavailable" ? words.unavailable : words.offline);
      }
    );
    button.addEventListener("click", function () {
      if (busy) {
        return;
      }
      busy = true;
      button.disabled = true;
      readManifest()
        .then(function (manifest) {
          return keepKit(manifest).then(function () {
            showKept(manifest);
          });
        })
        .catch(function (error) {
          say(error && error.refused ? words.refused : words.failed);
          button.disabled = false;
        })
        .then(function () {
          busy = false;
        });
    });
  }

  if (ready) {
    readiness();
  } else {
    start();
  }
})();
