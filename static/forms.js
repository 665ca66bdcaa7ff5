// Pages with a form. A form sent while the phone has no network (a round entered as the
// Wi-Fi drops) would end on the browser's error page, and going back may not bring the
// entries back. So nothing is sent: a notice (this script's data-offline-unsent) says so,
// the entries stay on the page, and the notice goes when the network is back. The form is
// caught before the page's own scripts see it (the live round posts its taps in the
// background).
(function () {
  "use strict";

  var text = document.currentScript && document.currentScript.getAttribute("data-offline-unsent");
  if (!text) {
    return;
  }
  var notice = null;

  function hide() {
    if (notice) {
      notice.remove();
      notice = null;
    }
  }

  window.addEventListener(
    "submit",
    function (event) {
      // A round form that offline play (offline_play.js) keeps on the phone is its own, and
      // the trick resolver's taps are answered by the rules worker (resolver.js).
      var form = event.target;
      if (navigator.onLine !== false || form.method !== "post" || form.hasAttribute("data-offline-entry")) {
        return;
      }
      event.preventDefault();
      event.stopPropagation();
      hide();
      notice = document.createElement("p");
      notice.className = "offline-notice";
      notice.setAttribute("role", "alert");
      notice.textContent = text;
      document.body.appendChild(notice);
    },
    true
  );
  window.addEventListener("online", hide);
})();
