// The service worker, served at /sw.js by companion/pwa/routes.py, which fills in the cache
// version and the list of files to keep (every static file, the offline page and the manifest).
// Static files are listed under their fingerprinted names (/static/style.3f2a91c0.css), the
// names the pages link: a name changes with the file's content, so a kept copy is never stale.
//
// - Static files: from the cache first, from the network when missing.
// - The manifest: from the network (it speaks the visitor's language), else from the cache.
// - Pages: from the network. The trick resolver and the rules page, public and the same for
//   every game, are kept as last seen (in the visitor's language; first when the worker
//   installs) and shown when the network fails. So is the scoreboard (and the trick resolver)
//   of each game this phone opened (in GAMES_CACHE; never a page marked no-store), shown
//   offline with its notice that it is the copy this phone last saw. Any other page then
//   shows the offline page. A game only this phone holds (started, or played again, with no
//   network: static/offline_new_game.js, static/offline_play.js) is shown in the kept shell
//   (SHELL_URL) at each of its addresses; the rules worker draws its pages there.
// - The offline kit (/offline-kit/<fingerprint>/<file>): the copy this phone kept ("Keep for
//   offline play", static/keep.js, into the caches named KIT_CACHE_PREFIX + fingerprint,
//   each file checked against its SHA-256) first, else the network. Its manifest: from the
//   network, else the kept copy. The worker never deletes a kept kit; keep.js replaces it.
// - The words of offline play (/offline/words.json?lang=..): the network, else the kept copy.
// - Anything else (other sites, the JSON API, any method but GET) is left to the browser.
// - The outbox of offline play (static/outbox.js): when the browser says the network is back
//   (Background Sync, where it has it), the rounds this phone kept are sent, in order, with no
//   page of the game open; a failure leaves them for the browser's next try and the pages.
// Every URL here carries the path the app is served under (URL_PREFIX).
(function () {
  "use strict";

  var CACHE_PREFIX = "sticheln-";
  var CACHE = CACHE_PREFIX + {{ version|tojson }};
  var KIT_CACHE_PREFIX = {{ kit_cache_prefix|tojson }};
  var OFFLINE_URL = {{ offline_url|tojson }};
  var MANIFEST_URL = {{ manifest_url|tojson }};
  var STATIC_PREFIX = {{ static_prefix|tojson }};
  var API_PREFIX = {{ api_prefix|tojson }};
  var PRECACHE = {{ precache|tojson }};
  var KEPT_PAGES = {{ kept_pages|tojson }};
  // The kept pages that show the phone's circles (their players' names), and the header an
  // answer tells the phone's circles by (a digest): see keepCirclesCurrent.
  var CIRCLE_PAGES = {{ circle_pages|tojson }};
  var CIRCLES_HEADER = {{ circles_header|tojson }};
  var KIT_PREFIX = {{ kit_prefix|tojson }};
  var KIT_MANIFEST = {{ kit_manifest|tojson }};
  var GAMES_CACHE = {{ games_cache|tojson }};
  var GAME_PAGE = new RegExp({{ game_page|tojson }});
  var ROUND_PAGE = new RegExp({{ round_page|tojson }});
  var LIVE_PAGE = new RegExp({{ live_page|tojson }});
  var NEXT_PAGE = new RegExp({{ next_page|tojson }});
  var NEW_PAGE = new RegExp({{ new_page|tojson }});
  var CORRECT_PAGE = /\/rounds\/[0-9]+$/; // a round page (ROUND_PAGE) correcting a round
  var FRAME_STYLES = {{ frame_styles|tojson }};
  // The one page a game only this phone holds is drawn in (templates/pwa/shell.html).
  var SHELL_URL = {{ shell_url|tojson }};
  var WORDS_URL = {{ words_url|tojson }};
  var OFFLINE_COPY_MARK = {{ offline_copy_mark|tojson }};
  var OUTBOX_URL = {{ outbox_url|tojson }};
  var GAMES_API = {{ games_api|tojson }};

  try {
    importScripts(OUTBOX_URL);
  } catch (error) {} // without it, the pages send what waits (they always do too)

  self.addEventListener("sync", function (event) {
    if (!self.StichelnOutbox || event.tag !== self.StichelnOutbox.SYNC_TAG) {
      return;
    }
    event.waitUntil(
      self.StichelnOutbox.sendAll(GAMES_API).then(function (left) {
        if (left > 0) {
          throw new Error(left + " games still wait: the browser tries again later");
        }
      })
    );
  });

  // The server says every response varies with the language and cookie; a cached static file
  // or offline page is right for any request all the same, so cache look-ups ignore Vary.
  var MATCH = { ignoreVary: true };

  self.addEventListener("install", function (event) {
    event.waitUntil(
      caches
        .open(CACHE)
        .then(function (cache) {
          // "reload" skips the browser's HTTP cache, so the files are those of this version.
          return cache.addAll(
            PRECACHE.map(function (url) {
              return new Request(url, { cache: "reload" });
            })
          );
        })
        .then(function () {
          // The kept pages too, in the language of this visit; a page that fails is kept at
          // its next visit instead of stopping the worker's installation.
          return keepPages();
        })
        .then(function () {
          return keepShell(); // this version's
        })
        .then(function () {
          return self.skipWaiting();
        })
    );
  });

  self.addEventListener("activate", function (event) {
    event.waitUntil(
      caches
        .keys()
        .then(function (names) {
          return Promise.all(
            names
              .filter(function (name) {
                return (
                  name.indexOf(CACHE_PREFIX) === 0 &&
                  name.indexOf(KIT_CACHE_PREFIX) !== 0 &&
                  name !== GAMES_CACHE &&
                  name !== CACHE
                );
              })
              .map(function (name) {
                return caches.delete(name);
              })
          );
        })
        .then(function () {
          // Start fetching a page while the worker wakes up, where the browser can.
          if (self.registration.navigationPreload) {
            return self.registration.navigationPreload.enable();
          }
        })
        .then(function () {
          return self.clients.claim();
        })
    );
  });

  // A page of a game asks for the shell to be kept in its language (static/offline_play.js).
  self.addEventListener("message", function (event) {
    if (event.data && event.data.keep === "shell") {
      event.waitUntil(keepShell(event.data.language));
    }
  });

  // The shell a game started or played again offline is drawn in: kept with this version's
  // files, once, and again when a page asks in another ``language`` than its own.
  function keepShell(language) {
    return caches
      .open(CACHE)
      .then(function (cache) {
        return cache.match(SHELL_URL).then(function (kept) {
          return kept ? kept.text() : "";
        }).then(function (text) {
          var found = text.match(/<html[^>]*\slang="([^"]*)"/);
          if (found && (!language || found[1] === language)) {
            return undefined;
          }
          return fetch(SHELL_URL, { credentials: "same-origin" }).then(function (response) {
            return keepable(response) ? cache.put(SHELL_URL, response) : undefined;
          });
        });
      })
      .then(null, function () {}); // kept at the next ask
  }

  // The kept copy of one of this worker's own URLs.
  function cached(url) {
    return caches.open(CACHE).then(function (cache) {
      return cache.match(url, MATCH).then(function (response) {
        return response || Response.error();
      });
    });
  }

  function keepPages() {
    return caches.open(CACHE).then(function (cache) {
      return Promise.all(
        KEPT_PAGES.map(function (url) {
          return fetch(new Request(url, { cache: "reload" })).then(function (response) {
            return keepable(response) ? cache.put(url, response) : undefined;
          }, function () {});
        })
      );
    });
  }

  // A page the worker may keep: whole, from our origin, not redirected.
  function keepable(response) {
    return response.status === 200 && response.type === "basic" && !response.redirected;
  }

  // A page from the network; the offline page when the network fails. The resolver, the
  // rules page and the scoreboards this phone opened are kept (under their path, whatever
  // their query) and shown instead; so are the round pages it opened (record, correct), under
  // their path and query (the entry mode), for rounds entered offline (static/offline_play.js).
  function page(event) {
    var url = new URL(event.request.url);
    var path = url.pathname;
    if (NEW_PAGE.test(path)) {
      return newPage(event, path, url.search);
    }
    var round = ROUND_PAGE.test(path);
    var store =
      KEPT_PAGES.indexOf(path) !== -1 ? CACHE : round || GAME_PAGE.test(path) ? GAMES_CACHE : null;
    var key = round ? path + url.search : path;
    return Promise.resolve(event.preloadResponse)
      .then(function (preloaded) {
        return preloaded || fetch(event.request);
      })
      .then(function (response) {
        keepCirclesCurrent(event, path, response);
        if (store && keepable(response) && !noStore(response)) {
          event.waitUntil(keep(store, key, response.clone()));
        } else if (store === GAMES_CACHE && !round && keepable(response)) {
          event.waitUntil(keepAgain(key));
        }
        return response;
      })
      .catch(function () {
        if (LIVE_PAGE.test(path)) {
          return liveFrame(path);
        }
        if (NEXT_PAGE.test(path)) {
          return shell(); // the table's next game, started on this phone
        }
        var kept = store ? caches.open(store).then(function (cache) {
          return cache.match(key, MATCH);
        }) : Promise.resolve(undefined);
        return kept.then(function (response) {
          if (!response && round && CORRECT_PAGE.test(path)) {
            return correctFrame(path);
          }
          if (!response) {
            return cached(OFFLINE_URL);
          }
          return store === GAMES_CACHE ? markedAsCopy(response) : response;
        });
      });
  }

  // Keep ``response`` in the cache ``store`` under ``key``.
  function keep(store, key, response) {
    return caches.open(store).then(function (cache) {
      return cache.put(key, response);
    });
  }

  // A scoreboard answered with a note for this phone alone (a round just saved, an edit link
  // just opened) is never kept as it is (no-store): the page is asked for again, now that the
  // note was said, and kept as it stands, so that a phone that goes offline next has the
  // game as it is now (the first scoreboard an edit link opens is such a page).
  function keepAgain(key) {
    return fetch(key, { credentials: "same-origin" })
      .then(function (again) {
        if (keepable(again) && !noStore(again)) {
          return keep(GAMES_CACHE, key, again);
        }
        return undefined;
      })
      .catch(function () {
        return undefined; // the network went: the copy kept before stays
      });
  }

  // A page that tells the phone's circles (CIRCLES_HEADER) other than a kept page showing
  // them was kept with: the phone left a circle, or joined one, since. That kept page is
  // dropped at once (its names are no longer this phone's to see) and kept again as it is
  // now, if the network allows.
  function keepCirclesCurrent(event, path, response) {
    var circles = response.headers.get(CIRCLES_HEADER);
    if (!circles || CIRCLE_PAGES.indexOf(path) !== -1) {
      return;
    }
    event.waitUntil(
      caches.open(CACHE).then(function (cache) {
        return Promise.all(
          CIRCLE_PAGES.map(function (url) {
            return cache.match(url, MATCH).then(function (kept) {
              if (!kept || kept.headers.get(CIRCLES_HEADER) === circles) {
                return undefined;
              }
              return cache.delete(url, MATCH).then(function () {
                return fetch(new Request(url, { cache: "reload" })).then(function (fresh) {
                  return keepable(fresh) ? cache.put(url, fresh) : undefined;
                }, function () {});
              });
            });
          })
        );
      })
    );
  }

  // The cache of the games' pages, on a phone that kept the offline kit (else null: without
  // it no page of offline play is drawn, so no kept page is shown in its place).
  function keptGames() {
    return Promise.all([caches.keys(), caches.open(GAMES_CACHE)]).then(function (found) {
      var kit = found[0].some(function (name) {
        return name.indexOf(KIT_CACHE_PREFIX) === 0;
      });
      return kit ? found[1] : null;
    });
  }

  // A live round's page offline (never kept: no-store): a kept page of its game, on which a
  // phone that kept the offline kit plays the round (static/offline_live.js draws it there,
  // from what the phone holds); its content stays hidden until then. A round page of the
  // game has the round pages' styles; the game's scoreboard is given them. Without the kit,
  // or with no page of the game kept, the offline page.
  function liveFrame(path) {
    var game = path.match(LIVE_PAGE)[1];
    var pages = path.slice(0, path.indexOf(game)) + game;
    return keptGames()
      .then(function (cache) {
        return !cache ? null : cache.keys().then(function (requests) {
          var paths = requests.map(function (request) {
            return new URL(request.url).pathname;
          });
          var round = requests.filter(function (request, index) {
            return paths[index] !== pages && ROUND_PAGE.test(paths[index]) && paths[index].indexOf(pages + "/") === 0;
          })[0];
          var frame = round ? cache.match(round) : cache.match(pages, MATCH);
          return frame.then(function (response) {
            return response && { response: response, styled: Boolean(round) };
          });
        });
      })
      .then(framed);
  }

  // The shell a game only this phone holds is drawn in (static/offline_play.js has the rules
  // worker draw each of its pages there); without the kit, the offline page.
  function shell() {
    return keptGames()
      .then(function (cache) {
        return cache && caches.match(SHELL_URL, MATCH);
      })
      .then(function (response) {
        return response || cached(OFFLINE_URL);
      });
  }

  // A game started on this phone with no network (static/offline_new_game.js), kept in the
  // outbox: each of its pages is the shell until the server has it; then the same page of
  // the game the server started. A game this phone does not keep: the network (the server
  // leads the address to the game).
  function newPage(event, path, search) {
    var found = path.match(NEW_PAGE);
    var kept = self.StichelnOutbox ? self.StichelnOutbox.keptGames() : Promise.resolve([]);
    return kept.then(function (games) {
      var game = games.filter(function (one) {
        return one.code === self.StichelnOutbox.newOf(found[1]);
      })[0];
      if (game && game.movedTo) {
        var moved = path.slice(0, path.indexOf("/games/new/")) + "/g/" + encodeURIComponent(game.movedTo);
        return Response.redirect(found[2] ? moved + "/rounds/" + found[2] + search : moved, 302);
      }
      return game ? shell() : fetch(event.request).catch(function () {
        return cached(OFFLINE_URL);
      });
    });
  }

  // A round's correct page this phone never opened: the game's kept record page, on which
  // static/offline_play.js has the round entered again (the same form; its entries as
  // first entered were never kept here). Without the kit or that page, the offline page.
  function correctFrame(path) {
    var record = path.replace(/\/[0-9]+$/, "/record");
    return keptGames()
      .then(function (cache) {
        return cache && cache.match(record);
      })
      .then(function (response) {
        return framed(response && { response: response, styled: true });
      });
  }

  // A kept page of a game, as the frame a page of offline play is drawn on: hidden until
  // then, with the round pages' stylesheets where it lacks them; the offline page if none.
  function framed(kept) {
    if (!kept) {
      return cached(OFFLINE_URL);
    }
    return kept.response.text().then(function (text) {
      var styles = kept.styled ? "" : FRAME_STYLES.map(function (href) {
        return '<link rel="stylesheet" href="' + href + '">';
      }).join("");
      var frame = text
        .replace("</head>", styles + "</head>")
        .replace('<main id="content"', '<main id="content" data-offline-frame hidden');
      return new Response(frame, {
        status: 200,
        headers: { "Content-Type": "text/html; charset=utf-8" },
      });
    });
  }

  // The words of offline play (one URL per language): the network, else the kept copy.
  function words(request) {
    return fetch(request)
      .then(function (response) {
        if (keepable(response)) {
          var copy = response.clone();
          caches.open(GAMES_CACHE).then(function (cache) {
            return cache.put(request.url, copy);
          });
        }
        return response;
      })
      .catch(function () {
        return caches.match(request.url, MATCH).then(function (response) {
          return response || Response.error();
        });
      });
  }

  // Whether the server asked that a response never be kept (a save's note, a conflict).
  function noStore(response) {
    return (response.headers.get("Cache-Control") || "").indexOf("no-store") !== -1;
  }

  // A kept scoreboard, shown offline: its notice that it is the copy last seen, unhidden.
  function markedAsCopy(response) {
    return response.text().then(function (text) {
      return new Response(text.replace(OFFLINE_COPY_MARK, OFFLINE_COPY_MARK.split(" ")[0]), {
        status: 200,
        headers: { "Content-Type": "text/html; charset=utf-8" },
      });
    });
  }

  // A file of the offline kit: the copy this phone kept, else the network. Its manifest:
  // the network, else the kept copy.
  function kitFile(request, path) {
    if (path === KIT_MANIFEST) {
      return fetch(request).catch(function () {
        return caches.match(KIT_MANIFEST, MATCH).then(function (response) {
          return response || Response.error();
        });
      });
    }
    return caches.match(path, MATCH).then(function (response) {
      return response || fetch(request);
    });
  }

  // A static file from the cache, from the network if it is not there.
  function staticFile(request) {
    return caches.open(CACHE).then(function (cache) {
      return cache.match(request, MATCH).then(function (response) {
        return response || fetch(request);
      });
    });
  }

  self.addEventListener("fetch", function (event) {
    var request = event.request;
    if (request.method !== "GET") {
      return;
    }
    var url = new URL(request.url);
    if (url.origin !== self.location.origin || url.pathname.indexOf(API_PREFIX) === 0) {
      return;
    }
    // (A page of a game asked for by offline play, to be swapped in place: as a navigation.)
    if (request.mode === "navigate" || request.headers.get("X-Sticheln-Page")) {
      event.respondWith(page(event));
    } else if (url.pathname.indexOf(KIT_PREFIX) === 0) {
      event.respondWith(kitFile(request, url.pathname));
    } else if (url.pathname.indexOf(STATIC_PREFIX) === 0) {
      event.respondWith(staticFile(request));
    } else if (url.pathname === WORDS_URL) {
      event.respondWith(words(request));
    } else if (url.pathname === MANIFEST_URL) {
      event.respondWith(
        fetch(request).catch(function () {
          return cached(MANIFEST_URL);
        })
      );
    }
  });
})();
