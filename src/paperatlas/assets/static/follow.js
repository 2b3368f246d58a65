/* paperatlas pages: follow a search, an author or a topic; stop following; mark a list
   seen. Each is one JSON POST to the app's own origin. Text goes in with textContent only. */
(function () {
  "use strict";

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify(body)
    }).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.json();
    });
  }

  function run(button, url, body, done) {
    button.disabled = true;
    post(url, body).then(function (res) {
      button.classList.remove("error");
      done(res);
    }).catch(function () {
      button.classList.add("error");
      button.disabled = false;
    });
  }

  document.addEventListener("click", function (ev) {
    var target = ev.target.closest && ev.target.closest(".follow, .unfollow, #mark-seen");
    if (!target) return;
    ev.preventDefault();
    if (target.classList.contains("follow")) {
      run(target, "/api/follows", JSON.parse(target.getAttribute("data-follow")), function () {
        target.setAttribute("aria-pressed", "true");
        target.classList.add("on");
        if (!target.classList.contains("small")) target.textContent = target.getAttribute("data-label-on");
        else target.textContent = "✓";
      });
    } else if (target.classList.contains("unfollow")) {
      run(target, "/api/follows/remove", {id: +target.getAttribute("data-id")}, function () {
        var row = target.closest(".follow-row");
        if (row) row.remove();
      });
    } else {
      run(target, "/api/seen", {list: target.getAttribute("data-list")}, function () {
        target.textContent = target.getAttribute("data-label-on");
      });
    }
  });
})();
