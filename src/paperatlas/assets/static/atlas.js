/* paperatlas map: a small canvas renderer for the stored atlas (pan, zoom, hover, click).
 * Used by the web app's /map page and inlined into the offline `paperatlas map --html` file.
 * Data comes from <script type="application/json" id="atlas-data"> or the element's data-src.
 * A short list placed on the reference (data.field) is drawn in colour over the field's
 * papers in grey; a long list with a reference layer (data.layer) can be coloured, labelled
 * and filtered by the field's topics instead of its own.
 * A big map (data.lod) comes as an overview sample; the papers a view adds are asked of
 * data.lod's endpoint for the box in view once the view settles (level of detail).
 * Paper text is only ever put into the page with textContent (never innerHTML). */
(function () {
  "use strict";

  var PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
    "#ff9da7", "#9c755f", "#2f7ebc", "#d37295", "#8cd17d", "#b6992d", "#499894", "#e49444",
    "#86bcb6", "#d4a6c8", "#fabfd2", "#79706e", "#a0cbe8", "#ffbe7d", "#f1ce63", "#6a9f58",
    "#d7b5a6", "#bab0ac", "#7b66d2", "#dc5fbd", "#5fa2ce", "#c85200", "#57606c"];
  var FINE_ZOOM = 2.4;  // above this zoom, fine topic labels replace broad ones
  var DETAIL_WAIT = 150;  // ms without moving before a big map asks for the view's papers
  var MATCH_WAIT = 250;  // ms after the last key before a sampled map's filter asks the server
  var DETAIL_MARGIN = 0.25;  // share of the view asked for on each side: small pans need no request

  function colour(topic) {
    if (topic < PALETTE.length) return PALETTE[topic];
    var hue = (topic * 137.508) % 360;
    return "hsl(" + hue.toFixed(0) + ",55%,55%)";
  }

  // Words of the page (data-* attributes in the web app's language), English otherwise.
  // fine topic id -> the label its papers are shown under at the broad level, where that is
  // not their broad topic's (a short list's paper supporting only its fine topic's label)
  function shownBroad(fine) {
    var out = {};
    for (var i = 0; i < fine.length; i++) if (fine[i].shown_broad) out[fine[i].id] = fine[i].shown_broad;
    return out;
  }

  function words(root, name, fallback, values) {
    var text = root.getAttribute("data-" + name) || fallback;
    Object.keys(values || {}).forEach(function (k) { text = text.split("{" + k + "}").join(values[k]); });
    return text;
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function AtlasMap(root, data) {
    this.root = root;
    this.data = data;
    this.canvas = root.querySelector("canvas");
    this.ctx = this.canvas.getContext("2d");
    this.card = root.querySelector(".atlas-card");
    this.paperUrl = root.getAttribute("data-paper-url") || "";
    this.topicUrl = root.getAttribute("data-topic-url") || "";
    // with paper filters on the page: topic id -> its papers that pass (the legend's counts)
    this.topicCounts = JSON.parse(root.getAttribute("data-topic-counts") || "null");
    this.points = data.points;
    this.lod = data.lod || null;  // {papers, overview, ...}: the rest comes by view
    this.overviewPoints = data.points;
    this.detail = null;  // the last view's answer: {box, zoom, complete, points}
    this.detailTimer = 0;
    this.detailAsk = null;  // the request in flight (an AbortController)
    this.filterText = "";
    this.matchUrl = root.getAttribute("data-match-src") || "";
    this.matchTimer = 0;
    this.matchAsk = null;  // the filter's request in flight (an AbortController)
    this.found = null;  // a sampled map's filter, answered by the server: {text, found, complete, points, ids}
    this.topicShown = null;
    this.field = data.field || null;
    this.layer = data.layer || null;
    this.ownBroad = data.topics.broad;
    this.ownFine = data.topics.fine;
    this.broad = data.topics.broad;
    this.fine = data.topics.fine;
    this.colourAt = 2;  // which element of a point row gives its colour (8: field topic)
    this.topicLabel = {};
    for (var i = 0; i < this.broad.length; i++) this.topicLabel[this.broad[i].id] = this.broad[i].label;
    this.fineLabel = {};
    for (var j = 0; j < this.fine.length; j++) this.fineLabel[this.fine[j].id] = this.fine[j].label;
    this.shownBroad = shownBroad(this.fine);
    this.view = {k: 1, x: 0, y: 0};
    this.hover = -1;
    this.match = null;
    this.placedLabels = [];
    this.buildGrid();
    this.bind();
    this.resize();
    this.layerSwitch();
    this.legend();
    this.lodNote();
    this.fit();
  }

  // For a long list with a reference layer: switch between its own topics and the field's.
  AtlasMap.prototype.layerSwitch = function () {
    if (!this.layer) return;
    var self = this, tools = this.root.querySelector(".atlas-tools");
    if (!tools) return;
    var box = el("label", "atlas-layer small");
    box.appendChild(document.createTextNode(words(this.root, "layer-label", "Topics: ")));
    var select = el("select", "atlas-layer-select");
    [["own", words(this.root, "layer-own", "this list's own")],
     ["field", words(this.root, "layer-field", "the field's ({title})", {title: this.layer.title || this.layer.name})]]
      .forEach(function (o) { var opt = el("option", null, o[1]); opt.value = o[0]; select.appendChild(opt); });
    select.addEventListener("change", function () { self.useLayer(select.value === "field"); });
    box.appendChild(select);
    var legend = tools.querySelector(".atlas-legend");
    tools.insertBefore(box, legend);
  };

  AtlasMap.prototype.useLayer = function (field) {
    this.colourAt = field ? 8 : 2;
    if (field) {
      // the field's topics, labelled where this list's papers of each topic are
      var at = {}, i, p;
      for (i = 0; i < this.points.length; i++) {
        p = this.points[i];
        (at[p[8]] || (at[p[8]] = [])).push(p);
      }
      var place = function (rows, key) {
        return rows.filter(function (t) { return at[t.id]; }).map(function (t) {
          var pts = at[t.id], xs = pts.map(function (q) { return q[0]; }).sort(function (a, b) { return a - b; });
          var ys = pts.map(function (q) { return q[1]; }).sort(function (a, b) { return a - b; });
          return {id: t.id, label: t.label, size: pts.length, x: xs[xs.length >> 1], y: ys[ys.length >> 1]};
        });
      };
      this.broad = place(this.layer.topics.broad);
      var fineAt = {};
      for (i = 0; i < this.points.length; i++) (fineAt[this.points[i][9]] || (fineAt[this.points[i][9]] = [])).push(this.points[i]);
      at = fineAt;
      this.fine = place(this.layer.topics.fine);
    } else {
      this.broad = this.ownBroad;
      this.fine = this.ownFine;
    }
    this.topicLabel = {};
    for (var b = 0; b < this.broad.length; b++) this.topicLabel[this.broad[b].id] = this.broad[b].label;
    this.fineLabel = {};
    for (var f = 0; f < this.fine.length; f++) this.fineLabel[this.fine[f].id] = this.fine[f].label;
    this.shownBroad = shownBroad(this.fine);
    this.match = null;
    var list = this.root.querySelector(".atlas-legend");
    if (list) while (list.firstChild) list.removeChild(list.firstChild);
    this.legend();
    this.draw();
  };

  // Highlight the papers of one topic (the field's, in the field layer): a filter.
  AtlasMap.prototype.showTopic = function (id) {
    this.topicShown = id;
    this.filterText = "";
    var match = new Uint8Array(this.points.length);
    for (var i = 0; i < this.points.length; i++) if (this.points[i][this.colourAt] === id) match[i] = 1;
    this.match = match;
    this.draw();
  };

  AtlasMap.prototype.buildGrid = function () {
    // a 64x64 grid over world coordinates for fast nearest-point lookups
    this.gridN = 64;
    this.grid = new Array(this.gridN * this.gridN);
    for (var i = 0; i < this.points.length; i++) {
      var c = this.cell(this.points[i][0], this.points[i][1]);
      (this.grid[c] || (this.grid[c] = [])).push(i);
    }
  };

  AtlasMap.prototype.cell = function (x, y) {
    var n = this.gridN;
    var cx = Math.min(n - 1, Math.max(0, Math.floor(x * n)));
    var cy = Math.min(n - 1, Math.max(0, Math.floor(y * n)));
    return cy * n + cx;
  };

  AtlasMap.prototype.resize = function () {
    var rect = this.canvas.getBoundingClientRect();
    var dpr = window.devicePixelRatio || 1;
    this.width = Math.max(200, rect.width);
    this.height = Math.max(200, rect.height);
    this.canvas.width = Math.round(this.width * dpr);
    this.canvas.height = Math.round(this.height * dpr);
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.draw();
  };

  // world [0,1]^2 (y up) -> screen pixels
  AtlasMap.prototype.toScreen = function (x, y) {
    var base = Math.min(this.width, this.height) * 0.9;
    return [(x - 0.5) * base * this.view.k + this.width / 2 + this.view.x,
            (0.5 - y) * base * this.view.k + this.height / 2 + this.view.y];
  };

  AtlasMap.prototype.toWorld = function (sx, sy) {
    var base = Math.min(this.width, this.height) * 0.9;
    return [(sx - this.width / 2 - this.view.x) / (base * this.view.k) + 0.5,
            0.5 - (sy - this.height / 2 - this.view.y) / (base * this.view.k)];
  };

  AtlasMap.prototype.fit = function () {
    // centre the map in the space right of the side panel when there is room
    var tools = this.root.querySelector(".atlas-tools");
    var shift = tools && this.width > 900 ? (tools.offsetWidth + 12) / 2 : 0;
    this.view = {k: 1, x: shift, y: 0};
    this.draw();
  };

  AtlasMap.prototype.zoomTo = function (x0, y0, x1, y1) {
    var base = Math.min(this.width, this.height) * 0.9;
    var k = Math.min(12, 0.8 * Math.min(this.width / ((x1 - x0) * base + 1e-6),
                                        this.height / ((y1 - y0) * base + 1e-6)));
    k = Math.max(1, k);
    var cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
    this.view = {k: k, x: -(cx - 0.5) * base * k, y: -(0.5 - cy) * base * k};
    this.draw();
  };

  AtlasMap.prototype.zoomToTopic = function (topic) {
    var xs = [], ys = [];
    for (var i = 0; i < this.points.length; i++) {
      if (this.points[i][this.colourAt] === topic) { xs.push(this.points[i][0]); ys.push(this.points[i][1]); }
    }
    if (!xs.length) return;
    xs.sort(function (a, b) { return a - b; });
    ys.sort(function (a, b) { return a - b; });
    var lo = Math.floor(xs.length * 0.05), hi = Math.max(lo, Math.ceil(xs.length * 0.95) - 1);
    this.zoomTo(xs[lo], ys[lo], xs[hi], ys[hi]);
  };

  AtlasMap.prototype.setFilter = function (text) {
    text = (text || "").trim().toLowerCase();
    var asked = text !== this.filterText;
    this.filterText = text;
    this.topicShown = null;
    if (asked && this.lod) this.askMatches(text);
    if (!text) { this.match = null; this.lodNote(); this.draw(); return; }
    var ids = this.found && this.found.text === text ? this.found.ids : null;
    var match = new Uint8Array(this.points.length);
    for (var i = 0; i < this.points.length; i++) {
      var p = this.points[i];
      var hay = ((p[6] || "") + " " + (p[7] || "")).toLowerCase();
      if (hay.indexOf(text) >= 0 || (ids && ids[p[5]])) match[i] = 1;
    }
    this.match = match;
    this.lodNote();
    this.draw();
  };

  // A sampled map: the filter asks the server for the papers of the whole map whose titles
  // hold the words (at most a sample of them), drawn with the rest once they come.
  AtlasMap.prototype.askMatches = function (text) {
    var self = this;
    clearTimeout(this.matchTimer);
    if (this.matchAsk) { this.matchAsk.abort(); this.matchAsk = null; }
    if (this.found) { this.found = null; this.setPoints(); }
    if (!text || !this.matchUrl) return;
    this.matchTimer = setTimeout(function () {
      var ask = self.matchAsk = new AbortController();
      var url = self.matchUrl + (self.matchUrl.indexOf("?") >= 0 ? "&" : "?") + "q=" + encodeURIComponent(text);
      fetch(url, {headers: {"Accept": "application/json"}, signal: ask.signal})
        .then(function (r) { if (!r.ok) throw new Error("map: HTTP " + r.status); return r.json(); })
        .then(function (res) {
          if (self.matchAsk !== ask || self.filterText !== text) return;  // typed on since
          self.matchAsk = null;
          var ids = Object.create(null);
          for (var i = 0; i < res.points.length; i++) ids[res.points[i][5]] = 1;
          self.found = {text: text, found: res.found, complete: res.complete, points: res.points, ids: ids};
          self.setPoints();
          self.setFilter(text);
        })
        .catch(function (err) { if (err.name !== "AbortError") self.matchAsk = null; });
    }, MATCH_WAIT);
  };

  // The points held: the overview, the view's papers and the filter's, each paper once.
  AtlasMap.prototype.setPoints = function () {
    var points = this.overviewPoints;
    var extra = (this.detail ? this.detail.points : []).concat(this.found ? this.found.points : []);
    if (extra.length) {
      var seen = Object.create(null);
      points = points.slice();
      for (var i = 0; i < points.length; i++) seen[points[i][5]] = 1;
      for (var j = 0; j < extra.length; j++) {
        if (!seen[extra[j][5]]) { seen[extra[j][5]] = 1; points.push(extra[j]); }
      }
    }
    this.points = points;
    this.hover = -1;
    this.buildGrid();
  };

  AtlasMap.prototype.draw = function () {
    var ctx = this.ctx;
    if (!this.width) return;
    if (this.lod) this.askDetail();
    ctx.clearRect(0, 0, this.width, this.height);
    if (this.field) this.drawField();
    var n = this.lod ? this.lod.overview : this.points.length;
    var density = n > 5000 ? 1 : n > 1000 ? 1.6 : n > 300 ? 2.2 : 3.5;
    var r = Math.max(1.4, Math.min(8, 1.2 * Math.sqrt(this.view.k) * density));
    if (this.field) r = Math.max(r, 4.5);  // a short list over the field: its dots stand out
    // points, grouped by colour to keep the number of fill() calls small
    var groups = {};
    for (var i = 0; i < this.points.length; i++) {
      var p = this.points[i];
      var dim = this.match && !this.match[i];
      var key = dim ? "dim" : (p[4] ? "out" : p[this.colourAt]);
      (groups[key] || (groups[key] = [])).push(i);
    }
    var order = Object.keys(groups).sort(function (a, b) {
      var rank = function (k) { return k === "dim" ? 0 : (k === "out" ? 1 : 2); };
      return rank(a) - rank(b);
    });
    for (var g = 0; g < order.length; g++) {
      var key = order[g], members = groups[key];
      ctx.fillStyle = key === "dim" ? "rgba(160,160,170,0.18)" : key === "out" ? "rgba(120,120,130,0.55)" : colour(+key);
      ctx.globalAlpha = key === "dim" || key === "out" ? 1 : 0.78;
      ctx.beginPath();
      for (var m = 0; m < members.length; m++) {
        var q = this.points[members[m]];
        var s = this.toScreen(q[0], q[1]);
        if (s[0] < -5 || s[1] < -5 || s[0] > this.width + 5 || s[1] > this.height + 5) continue;
        var rr = key === "out" ? r * 0.8 : (this.match && !this.match[members[m]] ? r * 0.8 : r);
        ctx.moveTo(s[0] + rr, s[1]);
        ctx.arc(s[0], s[1], rr, 0, 6.2832);
      }
      ctx.fill();
      if (this.field && key !== "dim") { ctx.lineWidth = 1; ctx.strokeStyle = "#ffffff"; ctx.stroke(); }
    }
    ctx.globalAlpha = 1;
    if (this.match) {  // matches on top, outlined
      ctx.strokeStyle = "#111827";
      ctx.lineWidth = 1;
      for (var t = 0; t < this.points.length; t++) {
        if (!this.match[t]) continue;
        var ps = this.toScreen(this.points[t][0], this.points[t][1]);
        ctx.beginPath(); ctx.arc(ps[0], ps[1], r + 1.5, 0, 6.2832); ctx.stroke();
      }
    }
    if (this.hover >= 0) {
      var h = this.points[this.hover], hs = this.toScreen(h[0], h[1]);
      ctx.beginPath(); ctx.arc(hs[0], hs[1], r + 4, 0, 6.2832);
      ctx.lineWidth = 2.5; ctx.strokeStyle = "#111827"; ctx.stroke();
    }
    this.drawLabels();
  };

  // The field (the reference's papers) in grey, with its broad topics' names in grey.
  AtlasMap.prototype.drawField = function () {
    var ctx = this.ctx, pts = this.field.points;
    var r = Math.max(0.9, Math.min(3, 0.9 * Math.sqrt(this.view.k)));
    ctx.fillStyle = "rgba(140,144,155,0.42)";
    ctx.beginPath();
    for (var i = 0; i < pts.length; i++) {
      var s = this.toScreen(pts[i][0], pts[i][1]);
      if (s[0] < -3 || s[1] < -3 || s[0] > this.width + 3 || s[1] > this.height + 3) continue;
      ctx.moveTo(s[0] + r, s[1]);
      ctx.arc(s[0], s[1], r, 0, 6.2832);
    }
    ctx.fill();
  };

  AtlasMap.prototype.drawFieldLabels = function (placed) {
    var ctx = this.ctx, own = {};
    for (var o = 0; o < this.broad.length; o++) own[this.broad[o].label] = 1;
    var topics = this.field.broad.slice().sort(function (a, b) { return b.size - a.size; });
    ctx.font = "600 11px system-ui, -apple-system, 'Segoe UI', sans-serif";
    for (var i = 0; i < topics.length; i++) {
      var tp = topics[i];
      if (own[tp.label]) continue;
      var s = this.toScreen(tp.x, tp.y), lines = wrap(tp.label, 20), w = 0;
      for (var l = 0; l < lines.length; l++) w = Math.max(w, ctx.measureText(lines[l]).width);
      var hgt = lines.length * 13;
      var box = [s[0] - w / 2 - 2, s[1] - hgt / 2 - 1, s[0] + w / 2 + 2, s[1] + hgt / 2 + 1];
      if (box[0] < 2 || box[2] > this.width - 2 || box[1] < 2 || box[3] > this.height - 2) continue;
      var clash = false;
      for (var b = 0; b < placed.length && !clash; b++) {
        var q = placed[b].box;
        clash = !(box[2] < q[0] || box[0] > q[2] || box[3] < q[1] || box[1] > q[3]);
      }
      if (clash) continue;
      placed.push({box: box, id: -1, level: -1, label: tp.label});
      for (var k = 0; k < lines.length; k++) {
        var y = s[1] - hgt / 2 + 13 * (k + 0.5);
        ctx.lineWidth = 3; ctx.strokeStyle = "rgba(255,255,255,0.85)";
        ctx.strokeText(lines[k], s[0], y);
        ctx.fillStyle = "#8b8f99";
        ctx.fillText(lines[k], s[0], y);
      }
    }
  };

  AtlasMap.prototype.drawLabels = function () {
    var ctx = this.ctx, placed = [];
    var fine = this.view.k >= FINE_ZOOM;
    var topics = (fine ? this.fine : this.broad).slice().sort(function (a, b) { return b.size - a.size; });
    var maxSize = topics.length ? topics[0].size : 1;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    for (var i = 0; i < topics.length; i++) {
      var tp = topics[i];
      var s = this.toScreen(tp.x, tp.y);
      if (s[0] < 0 || s[1] < 0 || s[0] > this.width || s[1] > this.height) continue;
      if (this.field) s = [s[0], s[1] - 16];  // above the list's few dots, not on them
      var size = fine ? 11.5 + 3 * Math.sqrt(tp.size / maxSize) : 12.5 + 6 * Math.sqrt(tp.size / maxSize);
      ctx.font = (fine ? "600 " : "700 ") + size.toFixed(1) + "px system-ui, -apple-system, 'Segoe UI', sans-serif";
      var lines = wrap(tp.label, fine ? 22 : 20);
      var w = 0;
      for (var l = 0; l < lines.length; l++) w = Math.max(w, ctx.measureText(lines[l]).width);
      var hgt = lines.length * size * 1.15;
      var box = [s[0] - w / 2 - 3, s[1] - hgt / 2 - 2, s[0] + w / 2 + 3, s[1] + hgt / 2 + 2];
      if (box[0] < 2 || box[2] > this.width - 2 || box[1] < 2 || box[3] > this.height - 2) continue;
      var clash = false;
      for (var b = 0; b < placed.length && !clash; b++) {
        var o = placed[b].box;
        clash = !(box[2] < o[0] || box[0] > o[2] || box[3] < o[1] || box[1] > o[3]);
      }
      if (clash) continue;
      placed.push({box: box, id: tp.id, level: fine ? 1 : 0, label: tp.label});
      for (var k = 0; k < lines.length; k++) {
        var y = s[1] - hgt / 2 + size * 1.15 * (k + 0.5);
        ctx.lineWidth = 4; ctx.strokeStyle = "rgba(255,255,255,0.92)";
        ctx.strokeText(lines[k], s[0], y);
        ctx.fillStyle = "#111827";
        ctx.fillText(lines[k], s[0], y);
      }
    }
    if (this.field) {
      this.drawFieldLabels(placed);
      placed = placed.filter(function (p) { return p.level >= 0; });
    }
    this.placedLabels = placed;
  };

  function wrap(text, width) {
    var words = String(text).split(" "), lines = [], line = "";
    for (var i = 0; i < words.length; i++) {
      if (line && (line + " " + words[i]).length > width) { lines.push(line); line = words[i]; }
      else line = line ? line + " " + words[i] : words[i];
    }
    if (line) lines.push(line);
    return lines.slice(0, 3);
  }

  AtlasMap.prototype.nearest = function (sx, sy) {
    var w = this.toWorld(sx, sy);
    var base = Math.min(this.width, this.height) * 0.9 * this.view.k;
    var radius = 8 / base;  // 8 px in world units
    var n = this.gridN, best = -1, bestD = radius * radius;
    var c0 = Math.floor((w[0] - radius) * n), c1 = Math.floor((w[0] + radius) * n);
    var r0 = Math.floor((w[1] - radius) * n), r1 = Math.floor((w[1] + radius) * n);
    for (var cy = Math.max(0, r0); cy <= Math.min(n - 1, r1); cy++) {
      for (var cx = Math.max(0, c0); cx <= Math.min(n - 1, c1); cx++) {
        var bucket = this.grid[cy * n + cx];
        if (!bucket) continue;
        for (var i = 0; i < bucket.length; i++) {
          var p = this.points[bucket[i]];
          if (this.match && !this.match[bucket[i]]) continue;
          var dx = p[0] - w[0], dy = p[1] - w[1], d = dx * dx + dy * dy;
          if (d < bestD) { bestD = d; best = bucket[i]; }
        }
      }
    }
    return best;
  };

  AtlasMap.prototype.labelAt = function (sx, sy) {
    for (var i = 0; i < this.placedLabels.length; i++) {
      var b = this.placedLabels[i].box;
      if (sx >= b[0] && sx <= b[2] && sy >= b[1] && sy <= b[3]) return this.placedLabels[i];
    }
    return null;
  };

  AtlasMap.prototype.showCard = function (index, sx, sy, pinned) {
    var card = this.card;
    if (!card) return;
    if (index < 0) { card.hidden = true; return; }
    var p = this.points[index];
    while (card.firstChild) card.removeChild(card.firstChild);
    card.appendChild(el("div", "atlas-card-title", p[6] || p[5]));
    if (p[7]) card.appendChild(el("span", "badge name", p[7]));
    var topic = el("div", "atlas-card-topic");
    var sw = el("span", "swatch");
    var bt = p[this.colourAt], ft = p[this.colourAt + 1];
    sw.style.background = colour(bt);
    topic.appendChild(sw);
    // a paper whose text supports only its fine topic's label is shown under it, one that
    // supports none as its topic's other part (shown_broad), never under the broad label
    var shown = this.shownBroad[ft] || this.topicLabel[bt] || "";
    var fineText = this.fineLabel[ft] && this.fineLabel[ft] !== shown ? " › " + this.fineLabel[ft] : "";
    topic.appendChild(document.createTextNode(shown + fineText));
    card.appendChild(topic);
    if (p[4]) card.appendChild(el("div", "atlas-card-note", this.field ?
      words(this.root, "field-outlier", "far from the field's topics: placed in the nearest") :
      "outlier: placed in its nearest topic"));
    if (pinned && !this.paperUrl) card.appendChild(el("div", "atlas-card-note", "id " + p[5]));
    card.hidden = false;
    var x = Math.min(sx + 14, this.width - card.offsetWidth - 8);
    var y = Math.min(sy + 14, this.height - card.offsetHeight - 8);
    card.style.left = Math.max(4, x) + "px";
    card.style.top = Math.max(4, y) + "px";
  };

  AtlasMap.prototype.open = function (index) {
    var id = this.points[index][5];
    if (this.paperUrl) window.location.href = this.paperUrl.replace("{id}", encodeURIComponent(id));
  };

  // Zoom by `factor` keeping the screen point (sx, sy) where it is.
  AtlasMap.prototype.zoomAround = function (sx, sy, factor) {
    var k = Math.min(60, Math.max(0.6, this.view.k * factor));
    factor = k / this.view.k;
    this.view.x = (this.view.x + this.width / 2 - sx) * factor + sx - this.width / 2;
    this.view.y = (this.view.y + this.height / 2 - sy) * factor + sy - this.height / 2;
    this.view.k = k;
    this.draw();
  };

  AtlasMap.prototype.panBy = function (dx, dy) {
    this.view.x += dx; this.view.y += dy;
    this.draw();
  };

  // Mouse, pen and touch through pointer events: one pointer drags, two pinch to zoom;
  // the canvas takes keys too (arrows pan, + and - zoom, 0 resets the view).
  AtlasMap.prototype.bind = function () {
    var self = this, canvas = this.canvas, drag = null, pointers = {}, pinch = null;
    window.addEventListener("resize", function () { self.resize(); });
    canvas.addEventListener("wheel", function (ev) {
      ev.preventDefault();
      var rect = canvas.getBoundingClientRect();
      self.zoomAround(ev.clientX - rect.left, ev.clientY - rect.top, Math.exp(-ev.deltaY * 0.0015));
    }, {passive: false});
    function spread() {
      var ids = Object.keys(pointers), a = pointers[ids[0]], b = pointers[ids[1]];
      return {d: Math.hypot(a.x - b.x, a.y - b.y) || 1, x: (a.x + b.x) / 2, y: (a.y + b.y) / 2};
    }
    canvas.addEventListener("pointerdown", function (ev) {
      if (ev.pointerType === "mouse" && ev.button !== 0) return;
      pointers[ev.pointerId] = {x: ev.clientX, y: ev.clientY};
      if (canvas.setPointerCapture) canvas.setPointerCapture(ev.pointerId);
      if (Object.keys(pointers).length === 2) { pinch = spread(); if (drag) drag.moved = true; return; }
      drag = {x: ev.clientX, y: ev.clientY, vx: self.view.x, vy: self.view.y, moved: false};
    });
    function release(ev) {
      delete pointers[ev.pointerId];
      if (Object.keys(pointers).length < 2) pinch = null;
      // the click that ends a drag comes after pointerup: it still has to see `moved`
      setTimeout(function () { if (!Object.keys(pointers).length) drag = null; }, 0);
    }
    canvas.addEventListener("pointerup", release);
    canvas.addEventListener("pointercancel", release);
    canvas.addEventListener("pointermove", function (ev) {
      var rect = canvas.getBoundingClientRect();
      var sx = ev.clientX - rect.left, sy = ev.clientY - rect.top;
      if (pointers[ev.pointerId]) pointers[ev.pointerId] = {x: ev.clientX, y: ev.clientY};
      if (pinch) {
        var now = spread();
        self.view.x += now.x - pinch.x; self.view.y += now.y - pinch.y;
        self.zoomAround(now.x - rect.left, now.y - rect.top, now.d / pinch.d);
        pinch = now;
        return;
      }
      if (drag && pointers[ev.pointerId]) {
        var dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
        if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
        self.view.x = drag.vx + dx; self.view.y = drag.vy + dy;
        self.draw();
        return;
      }
      if (ev.pointerType !== "mouse") return;
      var hit = self.nearest(sx, sy);
      if (hit !== self.hover) { self.hover = hit; self.draw(); }
      canvas.style.cursor = hit >= 0 || self.labelAt(sx, sy) ? "pointer" : "grab";
      self.showCard(hit, sx, sy, false);
    });
    canvas.addEventListener("pointerleave", function (ev) {
      if (ev.pointerType !== "mouse") return;
      self.hover = -1; self.showCard(-1); self.draw();
    });
    if (!canvas.hasAttribute("tabindex")) canvas.tabIndex = 0;
    canvas.addEventListener("keydown", function (ev) {
      if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
      var step = ev.shiftKey ? 240 : 60;
      var moves = {ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step]};
      if (moves[ev.key]) self.panBy(moves[ev.key][0], moves[ev.key][1]);
      else if (ev.key === "+" || ev.key === "=") self.zoomAround(self.width / 2, self.height / 2, 1.4);
      else if (ev.key === "-" || ev.key === "_") self.zoomAround(self.width / 2, self.height / 2, 1 / 1.4);
      else if (ev.key === "0") self.fit();
      else return;
      ev.preventDefault();
      ev.stopPropagation();  // the page's own keys (j, k, ...) are not the map's
    });
    // a narrow window starts with the panel folded: the map first
    var tools = this.root.querySelector(".atlas-tools");
    if (tools && tools.tagName === "DETAILS" && window.innerWidth < 600) tools.open = false;
    canvas.addEventListener("click", function (ev) {
      if (drag && drag.moved) return;
      var rect = canvas.getBoundingClientRect();
      var sx = ev.clientX - rect.left, sy = ev.clientY - rect.top;
      var hit = self.nearest(sx, sy);
      if (hit >= 0) {
        if (self.paperUrl) self.open(hit); else self.showCard(hit, sx, sy, true);
        return;
      }
      var label = self.labelAt(sx, sy);
      if (label) {
        if (label.level === 0) self.zoomToTopic(label.id);
        else { self.view.k *= 1.6; self.draw(); }
      }
    });
    canvas.addEventListener("dblclick", function (ev) {
      ev.preventDefault();
    });
    var filter = this.root.querySelector(".atlas-filter");
    if (filter) filter.addEventListener("input", function () { self.setFilter(filter.value); });
    var reset = this.root.querySelector(".atlas-reset");
    if (reset) reset.addEventListener("click", function () { self.fit(); });
  };

  // -- a big map: the view's papers beyond the overview ------------------------------------
  // The world box in view, grown by DETAIL_MARGIN on each side.
  AtlasMap.prototype.viewBox = function (margin) {
    var a = this.toWorld(0, this.height), b = this.toWorld(this.width, 0);
    var mx = (b[0] - a[0]) * margin, my = (b[1] - a[1]) * margin;
    return [a[0] - mx, a[1] - my, b[0] + mx, b[1] + my];
  };

  function inside(inner, outer) {
    return inner[0] >= outer[0] && inner[1] >= outer[1] && inner[2] <= outer[2] && inner[3] <= outer[3];
  }

  // Called on every draw: once the view has stayed still for DETAIL_WAIT ms, ask for its
  // papers unless the last answer already covers it (its box holds the view, at about
  // this zoom, or at any higher zoom when it held every paper of its box).
  AtlasMap.prototype.askDetail = function () {
    var self = this;
    clearTimeout(this.detailTimer);
    this.detailTimer = setTimeout(function () { self.fetchDetail(); }, DETAIL_WAIT);
  };

  AtlasMap.prototype.fetchDetail = function () {
    var self = this, k = this.view.k, seen = this.viewBox(0), last = this.detail;
    if (k < 1.2) {  // the overview is enough: drop the view's papers and any request for them
      if (this.detailAsk) { this.detailAsk.abort(); this.detailAsk = null; }
      if (last) this.setDetail(null);
      return;
    }
    if (last && inside(seen, last.box) &&
        ((last.complete && k >= last.zoom) || Math.abs(Math.log(k / last.zoom)) < 0.35)) return;
    if (this.detailAsk) this.detailAsk.abort();
    var ask = this.detailAsk = new AbortController();
    var box = this.viewBox(DETAIL_MARGIN), zoom = k;
    var url = this.lod.url + (this.lod.url.indexOf("?") >= 0 ? "&" : "?") + "bbox=" +
      box.map(function (v) { return v.toFixed(6); }).join(",") + "&zoom=" + zoom.toFixed(3);
    fetch(url, {headers: {"Accept": "application/json"}, signal: ask.signal})
      .then(function (r) { if (!r.ok) throw new Error("map: HTTP " + r.status); return r.json(); })
      .then(function (res) {
        if (self.detailAsk !== ask) return;  // a newer view asked since
        self.detailAsk = null;
        self.setDetail({box: box, zoom: zoom, complete: res.complete, points: res.points});
      })
      .catch(function (err) { if (err.name !== "AbortError") self.detailAsk = null; });
  };

  AtlasMap.prototype.setDetail = function (detail) {
    this.detail = detail;
    this.setPoints();
    if (this.topicShown !== null) this.showTopic(this.topicShown);
    else if (this.filterText) this.setFilter(this.filterText);
    else this.match = null;
    this.lodNote();
    this.paint();
  };

  // A draw that asks for nothing (an answer has just come).
  AtlasMap.prototype.paint = function () {
    var lod = this.lod;
    this.lod = null;
    try { this.draw(); } finally { this.lod = lod; }
  };

  AtlasMap.prototype.lodNote = function () {
    var tools = this.root.querySelector(".atlas-tools");
    if (!this.lod || !tools) return;
    var note = tools.querySelector(".atlas-lod");
    if (!note) {
      note = el("p", "atlas-lod muted small");
      tools.insertBefore(note, tools.querySelector(".atlas-legend"));
    }
    var values = {shown: this.points.length.toLocaleString(), papers: this.lod.papers.toLocaleString()};
    note.textContent = words(this.root, "lod-note", "{shown} of {papers} papers drawn: zoom in for more", values);
    // the filter looks at the drawn papers only (a sample of a big map): said where it answers
    var filter = this.root.querySelector(".atlas-filter");
    if (filter && !this.matchUrl) {
      filter.placeholder = words(this.root, "lod-filter", "Highlight drawn titles containing…", values);
    }
    if (this.filterText && this.found && this.found.text === this.filterText) {
      values.found = this.found.found.toLocaleString();
      values.drawn = this.found.points.length.toLocaleString();
      note.textContent += " · " + (this.found.complete ?
        words(this.root, "lod-match-note", "{found} papers' titles have these words; {drawn} of them drawn", values) :
        words(this.root, "lod-match-more", "more than {found} papers' titles have these words; {drawn} of them drawn, search finds all", values));
    } else if (this.filterText && this.match) {
      var found = 0;
      for (var i = 0; i < this.match.length; i++) found += this.match[i];
      values.matches = found.toLocaleString();
      note.textContent += " · " + words(this.root, "lod-filter-note",
        "{matches} of the {shown} drawn papers match; search finds all {papers}", values);
    }
  };

  AtlasMap.prototype.legend = function () {
    var list = this.root.querySelector(".atlas-legend");
    if (!list) return;
    var self = this;
    if (this.field && !this.root.querySelector(".atlas-field-note")) {
      list.parentNode.insertBefore(el("p", "atlas-field-note muted small", words(this.root, "field-note",
        "Grey: the field, {title} ({papers} papers). In colour: this list, in the field's topics.",
        {title: this.field.title || this.field.name, papers: this.field.papers})), list);
    }
    var topics = this.broad.slice().sort(function (a, b) { return b.size - a.size; });
    topics.forEach(function (tp) {
      var li = el("li", "atlas-legend-item");
      li.setAttribute("data-topic", tp.id);
      var sw = el("span", "swatch");
      sw.style.background = colour(tp.id);
      var name = el("button", "atlas-legend-label", tp.label);
      name.type = "button";
      name.addEventListener("click", function () {
        if (self.colourAt === 8) self.showTopic(tp.id); else self.zoomToTopic(tp.id);
      });
      li.appendChild(sw);
      li.appendChild(name);
      var passing = self.topicCounts && self.colourAt === 2 ? self.topicCounts[tp.id] || 0 : null;
      var count = el("span", "count", passing === null ? tp.size : passing);
      var notes = [];
      if (passing !== null) notes.push(words(self.root, "passing-note",
        "{n} of the topic's {size} papers pass the filters", {n: passing, size: tp.size}));
      if (tp.field_size) notes.push(tp.field_size + " papers of the field");
      if (tp.other) notes.push(words(self.root, "label-other", "{n} not matching the label", {n: tp.other}));
      // a short list's topic that is not the field's: say which field topic it sits in
      if (tp.shown_fine) notes.push(words(self.root, "label-shown-fine",
        "{n} shown under their fine topic's label", {n: tp.shown_fine}));
      if (notes.length) count.title = notes.join("; ");
      li.appendChild(count);
      if (self.topicUrl && self.colourAt === 2) {
        var a = el("a", "atlas-legend-open", "↗");
        a.href = self.topicUrl.replace("{id}", encodeURIComponent(tp.id));  // the page's filters ride along
        a.title = tp.label;
        li.appendChild(a);
      }
      list.appendChild(li);
    });
  };

  function start(root) {
    var inline = document.getElementById("atlas-data");
    if (inline) {
      root.atlasMap = window.atlasMap = new AtlasMap(root, JSON.parse(inline.textContent));
      return;
    }
    var src = root.getAttribute("data-src");
    fetch(src, {headers: {"Accept": "application/json"}})
      .then(function (r) { if (!r.ok) throw new Error("map: HTTP " + r.status); return r.json(); })
      .then(function (data) {
        if (data.lod) data.lod.url = root.getAttribute("data-points-src");
        root.atlasMap = window.atlasMap = new AtlasMap(root, data);
      })
      .catch(function (err) { root.appendChild(el("p", "note", String(err))); });
  }

  window.paperatlasColour = colour;
  document.addEventListener("DOMContentLoaded", function () {
    var root = document.getElementById("atlas");
    if (root) start(root);
  });
})();
