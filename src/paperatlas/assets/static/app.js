/* paperatlas pages: like/unlike stars, the triage buttons (read, skip, save for later),
   the keyboard (j/k between papers, single keys to mark, ? for help), a paper's tags and
   note, copying a paper's BibTeX, and topic swatches. Text goes in with textContent only. */
(function () {
  "use strict";

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (res) {
        if (!r.ok) throw new Error(res.error || res.detail || ("HTTP " + r.status));
        return res;
      });
    });
  }

  function sameId(id) {
    return function (el) { return el.getAttribute("data-id") === id; };
  }

  function toggle(button) {
    var liked = button.getAttribute("aria-pressed") !== "true";
    button.disabled = true;
    post("/api/marks", {id: button.getAttribute("data-id"), liked: liked}).then(function (res) {
      // every star of the same paper on the page follows
      Array.prototype.filter.call(document.querySelectorAll(".star"), sameId(res.id)).forEach(function (b) {
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

  function setState(button) {
    // pressing the state a paper is in takes it back off
    var state = button.getAttribute("aria-pressed") === "true" ? null : button.getAttribute("data-state");
    button.disabled = true;
    post("/api/state", {id: button.getAttribute("data-id"), state: state}).then(function (res) {
      Array.prototype.filter.call(document.querySelectorAll(".state-btn"), sameId(res.id)).forEach(function (b) {
        var on = b.getAttribute("data-state") === res.state;
        b.setAttribute("aria-pressed", on ? "true" : "false");
        b.classList.toggle("on", on);
      });
      document.querySelectorAll("article[data-paper]").forEach(function (a) {
        if (a.getAttribute("data-paper") !== res.id) return;
        ["read", "skipped", "saved"].forEach(function (s) { a.classList.toggle("state-" + s, res.state === s); });
      });
    }).catch(function () {
      button.classList.add("error");
    }).finally(function () {
      button.disabled = false;
    });
  }

  // -- the keyboard: j/k move between the papers of the page, single keys mark the current one
  var current = -1;

  function items() {
    return Array.prototype.slice.call(document.querySelectorAll("article[data-paper]"));
  }

  function select(index) {
    var all = items();
    if (!all.length) return;
    current = Math.max(0, Math.min(all.length - 1, index));
    all.forEach(function (a, i) { a.classList.toggle("current", i === current); });
    all[current].tabIndex = -1; // focusable by script only: Tab still goes link to link
    all[current].focus({preventScroll: true});
    all[current].scrollIntoView({block: "nearest"});
  }

  function currentItem() {
    var all = items();
    if (current < 0 && all.length && all[0].id === "paper") current = 0; // a paper's page: the paper
    return all[current] || null;
  }

  function toggleHelp(show) {
    var help = document.getElementById("keys-help");
    var button = document.getElementById("keys-show");
    if (!help) return;
    var open = show === undefined ? help.hidden : show;
    help.hidden = !open;
    if (button) button.setAttribute("aria-expanded", open ? "true" : "false");
  }

  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var t = ev.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var key = ev.key;
    if (key === "?") { toggleHelp(); ev.preventDefault(); return; }
    if (key === "Escape") { toggleHelp(false); return; }
    if (key === "j" || key === "k") {
      select(current + (key === "j" ? 1 : -1));
      ev.preventDefault();
      return;
    }
    var item = currentItem();
    if (!item) return;
    if (key === "o" || (key === "Enter" && t === item)) {
      var a = item.querySelector(".card-title a");
      if (a) { a.click(); ev.preventDefault(); }
      return;
    }
    var button = item.querySelector('.triage [data-key="' + key + '"]');
    if (!button || button.disabled) return;
    ev.preventDefault();
    if (button.classList.contains("star")) toggle(button); else setState(button);
  });

  // -- a paper's tags and note
  function tagItem(list, tag) {
    var li = document.createElement("li");
    var a = document.createElement("a");
    a.className = "chip";
    a.href = "/tags/" + encodeURIComponent(tag) + (list.getAttribute("data-lang") === "zh" ? "?lang=zh" : "");
    a.textContent = "#" + tag;
    var x = document.createElement("button");
    x.type = "button";
    x.className = "tag-remove";
    x.setAttribute("data-tag", tag);
    x.setAttribute("aria-label", (list.getAttribute("data-remove-label") || "Remove tag") + " " + tag);
    x.textContent = "×";
    li.appendChild(a);
    li.appendChild(x);
    return li;
  }

  function showTags(tags) {
    var list = document.getElementById("paper-tags");
    if (!list) return;
    while (list.firstChild) list.removeChild(list.firstChild);
    tags.forEach(function (tag) { list.appendChild(tagItem(list, tag)); });
  }

  function changeTags(id, add, remove) {
    var status = document.getElementById("tag-status");
    if (status) status.textContent = "";
    return post("/api/tags", {id: id, add: add, remove: remove}).then(function (res) {
      showTags(res.tags);
      return true;
    }).catch(function (err) {
      if (status) status.textContent = err.message;
      return false;
    });
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (form.id === "tag-form") {
      ev.preventDefault();
      var input = document.getElementById("tag-input");
      var tag = input.value.trim();
      if (!tag) return;
      changeTags(form.getAttribute("data-id"), [tag], []).then(function (ok) { if (ok) input.value = ""; });
    } else if (form.id === "note-form") {
      ev.preventDefault();
      var text = document.getElementById("note-text");
      var status = document.getElementById("note-status");
      var button = form.querySelector("button[type=submit]");
      button.disabled = true;
      status.textContent = "";
      post("/api/note", {id: form.getAttribute("data-id"), note: text.value}).then(function () {
        // the rendered note comes from the server's page (Markdown made safe there)
        window.location.reload();
      }).catch(function (err) {
        status.textContent = (status.getAttribute("data-failed") || "") + " " + err.message;
        button.disabled = false;
      });
    }
  });

  document.addEventListener("click", function (ev) {
    var el = ev.target.closest ? ev.target : null;
    if (!el) return;
    var star = el.closest(".star");
    if (star) { ev.preventDefault(); toggle(star); return; }
    var state = el.closest(".state-btn");
    if (state) { ev.preventDefault(); setState(state); return; }
    var remove = el.closest(".tag-remove");
    if (remove) {
      var list = document.getElementById("paper-tags");
      ev.preventDefault();
      changeTags(list.getAttribute("data-id"), [], [remove.getAttribute("data-tag")]);
      return;
    }
    if (el.closest("#keys-show")) { toggleHelp(); return; }
    var copy = el.closest("button[data-copy]");
    if (copy) { copyFrom(copy); return; }
    var card = el.closest("article[data-paper]");
    if (card) current = items().indexOf(card);
  });

  // the text is selected first: where the clipboard is refused (a page not served from
  // localhost or https), the reader still has it selected to copy by hand
  function copyFrom(button) {
    var source = document.getElementById(button.getAttribute("data-copy"));
    var status = document.getElementById("copy-status");
    var range = document.createRange();
    range.selectNodeContents(source);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    function said(ok) { if (status) status.textContent = button.getAttribute(ok ? "data-copied" : "data-failed") || ""; }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(source.textContent).then(function () { said(true); }, function () { said(false); });
      return;
    }
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    said(ok);
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("button[data-copy]").forEach(function (b) { b.hidden = false; });
    var colour = window.paperatlasColour;
    document.querySelectorAll(".swatch[data-topic]").forEach(function (s) {
      var id = +s.getAttribute("data-topic");
      s.style.background = colour ? colour(id) : "hsl(" + ((id * 137.5) % 360) + ",55%,55%)";
    });
  });
})();
