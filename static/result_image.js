// A finished game's "Share the result": draws the final standings (the page's data, in the
// page's language: data-result-image, from companion/web/finished_game_offer.py) on a canvas, makes a
// PNG of it and hands it to the phone's share sheet where the browser can share files
// (navigator.canShare), else downloads it. Nothing is asked of any server, so it works
// offline too. Without JavaScript the button stays hidden.
(function () {
  "use strict";

  var block = document.querySelector("[data-result-image]");
  if (!block) return;
  var canvas = document.createElement("canvas");
  if (!canvas.getContext || !canvas.toBlob) return;
  var data = JSON.parse(block.dataset.resultImage);
  var button = block.querySelector("button");
  var status = block.querySelector("[role=status]");

  var WIDTH = 1080;
  var MARGIN = 64;
  var HEADER = 330;
  var ROW = 124;
  var FOOTER = 210;
  var FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", Arial, sans-serif';
  var COLOURS = {
    bg: "#fbfaf7",
    band: "#b3261e",
    bandText: "#ffffff",
    text: "#1d1f23",
    muted: "#5b616b",
    rule: "#d9d6cf",
    winBg: "#e6f4e8",
    winBorder: "#2e7d32",
  };

  function font(size, weight) {
    return (weight || "400") + " " + size + "px " + FONT;
  }

  // Writes ``text`` from x (or ending at x, align "right"), in at most ``width`` pixels: the
  // type shrinks down to ``least`` first, then the text is cut with "…" (by characters, not
  // UTF-16 units, so no letter is split).
  function fitted(ctx, text, x, y, width, size, least, weight, align) {
    var current = size;
    ctx.font = font(current, weight);
    while (ctx.measureText(text).width > width && current > least) {
      current -= 2;
      ctx.font = font(current, weight);
    }
    var shown = text;
    if (ctx.measureText(shown).width > width) {
      var letters = Array.from(text);
      while (letters.length > 1 && ctx.measureText(letters.join("") + "…").width > width) {
        letters.pop();
      }
      shown = letters.join("").replace(/\s+$/, "") + "…";
    }
    ctx.textAlign = align || "left";
    ctx.fillText(shown, x, y);
    return current;
  }

  // Writes ``text`` from x on at most ``lines`` lines of ``width`` pixels, breaking between
  // words: the type shrinks down to ``least`` until it fits, else the last line is cut.
  function wrapped(ctx, text, x, y, width, size, least, lines, weight) {
    var words = text.split(/\s+/);
    var current = size;
    var broken;
    for (;;) {
      ctx.font = font(current, weight);
      broken = [];
      var line = "";
      words.forEach(function (word) {
        var longer = line ? line + " " + word : word;
        if (line && ctx.measureText(longer).width > width) {
          broken.push(line);
          line = word;
        } else {
          line = longer;
        }
      });
      broken.push(line);
      if (broken.length <= lines || current <= least) break;
      current -= 2;
    }
    var shown = broken.slice(0, lines);
    if (broken.length > lines) shown[lines - 1] = broken.slice(lines - 1).join(" ");
    shown.forEach(function (part, index) {
      fitted(ctx, part, x, y + index * Math.round(current * 1.35), width, current, current, weight);
    });
  }

  function draw() {
    var rows = data.rows;
    canvas.width = WIDTH;
    canvas.height = HEADER + rows.length * ROW + FOOTER;
    var ctx = canvas.getContext("2d");
    var inner = WIDTH - 2 * MARGIN;
    ctx.textBaseline = "alphabetic";
    ctx.fillStyle = COLOURS.bg;
    ctx.fillRect(0, 0, canvas.width, canvas.height);

    // The band: the game, the result, the variant and rounds, the date and circle.
    ctx.fillStyle = COLOURS.band;
    ctx.fillRect(0, 0, WIDTH, HEADER - 40);
    ctx.fillStyle = COLOURS.bandText;
    fitted(ctx, data.game + " · " + data.title, MARGIN, 104, inner, 68, 40, "700");
    fitted(ctx, data.variant + " · " + data.rounds, MARGIN, 176, inner, 38, 24, "400");
    fitted(ctx, data.date + " · " + data.circle, MARGIN, 236, inner, 38, 24, "400");

    // The standings, by rank, the winners on green with their word. The totals take the
    // room their widest needs; the names take the rest.
    var rankWidth = 96;
    ctx.font = font(56, "700");
    var totalWidth = Math.min(
      260,
      Math.max.apply(
        null,
        rows.map(function (row) {
          return Math.ceil(ctx.measureText(row.total).width);
        })
      )
    );
    var nameX = MARGIN + rankWidth;
    var nameWidth = inner - rankWidth - totalWidth - 32;
    rows.forEach(function (row, index) {
      var top = HEADER + index * ROW;
      if (row.winner) {
        ctx.fillStyle = COLOURS.winBg;
        ctx.fillRect(MARGIN - 24, top, inner + 48, ROW - 12);
        ctx.fillStyle = COLOURS.winBorder;
        ctx.fillRect(MARGIN - 24, top, 10, ROW - 12);
      } else {
        ctx.fillStyle = COLOURS.rule;
        ctx.fillRect(MARGIN, top + ROW - 6, inner, 2);
      }
      var baseline = top + (row.winner ? 64 : 74);
      ctx.fillStyle = row.winner ? COLOURS.winBorder : COLOURS.muted;
      fitted(ctx, row.rank + ".", MARGIN, baseline, rankWidth - 16, 52, 30, "700");
      ctx.fillStyle = COLOURS.text;
      fitted(ctx, row.name, nameX, baseline, nameWidth, 52, 30, row.winner ? "700" : "400");
      if (row.winner) {
        ctx.fillStyle = COLOURS.winBorder;
        fitted(ctx, "★ " + data.winner, nameX, top + 100, nameWidth, 28, 20, "700");
      }
      ctx.fillStyle = COLOURS.text;
      fitted(ctx, row.total, MARGIN + inner, baseline, totalWidth, 56, 56, "700", "right");
    });

    // The summary (on two lines at most) and the app's name at the foot.
    var foot = HEADER + rows.length * ROW;
    ctx.fillStyle = COLOURS.text;
    wrapped(ctx, data.summary, MARGIN, foot + 62, inner, 36, 26, 2, "400");
    ctx.fillStyle = COLOURS.muted;
    fitted(ctx, data.app, MARGIN, foot + 176, inner, 28, 20, "400");
  }

  function say(text) {
    if (status) status.textContent = text;
  }

  function download(blob) {
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = data.file;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () {
      URL.revokeObjectURL(link.href);
    }, 60000);
    say(button.dataset.saved);
  }

  function share(blob) {
    var file = typeof File === "function" ? new File([blob], data.file, { type: "image/png" }) : null;
    var shareable = file && typeof navigator.canShare === "function" && typeof navigator.share === "function" &&
      navigator.canShare({ files: [file] });
    if (!shareable) {
      download(blob);
      return;
    }
    navigator.share({ files: [file], title: data.game + " · " + data.title, text: data.summary }).then(
      function () {
        say(button.dataset.shared);
      },
      function (error) {
        // Closing the sheet without choosing is no failure; anything else falls back.
        if (!error || error.name !== "AbortError") download(blob);
      }
    );
  }

  // The picture is made once the page's fonts are in, before any tap: a share sheet opens
  // only straight from the tap (some browsers allow nothing to be awaited in between).
  var picture = null;
  function made() {
    if (picture) return picture;
    var fontsReady = document.fonts && document.fonts.ready ? document.fonts.ready : Promise.resolve();
    picture = fontsReady.then(function () {
      draw();
      return new Promise(function (resolve) {
        canvas.toBlob(resolve, "image/png");
      });
    });
    return picture;
  }

  var blob = null;
  made().then(function (result) {
    blob = result;
  });

  button.addEventListener("click", function () {
    say("");
    if (blob) {
      share(blob);
      return;
    }
    made().then(function (result) {
      if (result) share(result);
    });
  });
  block.hidden = false;
})();
