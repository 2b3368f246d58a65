/* /recommend: "not interested" marks the paper disliked in the page's collection
   (POST /api/not-interested, JSON from this page only) and takes its card off the list. */
(function () {
  "use strict";

  document.addEventListener("click", function (ev) {
    var button = ev.target.closest && ev.target.closest(".not-interested");
    if (!button) return;
    ev.preventDefault();
    button.disabled = true;
    fetch("/api/not-interested", {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify({id: button.getAttribute("data-id"), collection: button.getAttribute("data-collection")})
    }).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      var pick = button.closest(".pick");
      if (pick) pick.remove();
    }).catch(function () {
      button.classList.add("error");
      button.disabled = false;
    });
  });
})();
