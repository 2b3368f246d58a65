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

  // one text per body whatever the order of its keys, to compare a button with a follow
  function canonical(value) {
    if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
    if (value && typeof value === "object") {
      return "{" + Object.keys(value).sort().map(function (k) {
        return JSON.stringify(k) + ":" + canonical(value[k]);
      }).join(",") + "}";
    }
    return JSON.stringify(value === undefined ? null : value);
  }

  function pressed(button, followId) {
    button.setAttribute("aria-pressed", "true");
    button.setAttribute("data-follow-id", String(followId));
    button.classList.add("on");
    button.textContent = button.classList.contains("small") ? "✓" : button.getAttribute("data-label-on");
  }

  function released(button) {
    button.setAttribute("aria-pressed", "false");
    button.removeAttribute("data-follow-id");
    button.classList.remove("on");
    button.textContent = button.classList.contains("small") ? "+" : button.getAttribute("aria-label");
  }

  // buttons of what is already followed show it (pages stay cacheable: the state comes here)
  document.addEventListener("DOMContentLoaded", function () {
    var buttons = document.querySelectorAll(".follow[data-follow]");
    if (!buttons.length) return;
    fetch("/api/follows", {headers: {"Accept": "application/json"}}).then(function (r) {
      return r.ok ? r.json() : {follows: []};
    }).then(function (res) {
      var known = {};
      res.follows.forEach(function (f) { known[canonical(f.body)] = f.id; });
      buttons.forEach(function (b) {
        var id = known[canonical(JSON.parse(b.getAttribute("data-follow")))];
        if (id !== undefined) pressed(b, id);
      });
    }).catch(function () {});
  });

  document.addEventListener("click", function (ev) {
    var target = ev.target.closest && ev.target.closest(".follow, .unfollow, #mark-seen");
    if (!target) return;
    ev.preventDefault();
    if (target.classList.contains("follow") && target.getAttribute("data-follow-id")) {
      // pressed again: stop following
      run(target, "/api/follows/remove", {id: +target.getAttribute("data-follow-id")}, function () {
        released(target);
        target.disabled = false;
      });
    } else if (target.classList.contains("follow")) {
      run(target, "/api/follows", JSON.parse(target.getAttribute("data-follow")), function (res) {
        pressed(target, res.id);
        target.disabled = false;
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
