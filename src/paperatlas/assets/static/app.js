/* paperatlas pages: like/unlike stars and topic swatches. Text goes in with textContent only. */
(function () {
  "use strict";

  function toggle(button) {
    var liked = button.getAttribute("aria-pressed") !== "true";
    button.disabled = true;
    fetch("/api/marks", {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify({id: button.getAttribute("data-id"), liked: liked})
    }).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.json();
    }).then(function (res) {
      // every star of the same paper on the page follows
      var id = button.getAttribute("data-id");
      document.querySelectorAll(".star").forEach(function (b) {
        if (b.getAttribute("data-id") !== id) return;
        b.setAttribute("aria-pressed", res.liked ? "true" : "false");
        b.classList.toggle("on", res.liked);
        b.textContent = res.liked ? "★" : "☆";
        b.title = b.getAttribute(res.liked ? "data-label-on" : "data-label-off") || "";
      });
    }).catch(function () {
      button.classList.add("error");
    }).finally(function () {
      button.disabled = false;
    });
  }

  document.addEventListener("click", function (ev) {
    var star = ev.target.closest && ev.target.closest(".star");
    if (star) { ev.preventDefault(); toggle(star); }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var colour = window.paperatlasColour;
    document.querySelectorAll(".swatch[data-topic]").forEach(function (s) {
      var id = +s.getAttribute("data-topic");
      s.style.background = colour ? colour(id) : "hsl(" + ((id * 137.5) % 360) + ",55%,55%)";
    });
  });
})();
