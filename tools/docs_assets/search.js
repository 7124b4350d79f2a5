// Offline search of the docs site: reads the index the builder wrote (search-index.js sets window.SEARCH_INDEX),
// no network, no library. Every query term must appear in an entry's title, headings or text; titles weigh most.
(function () {
  "use strict";
  var here = document.currentScript.src, root = here.slice(0, here.lastIndexOf("/") + 1);
  function terms(q) { return q.toLowerCase().split(/[^\w.]+/).filter(function (t) { return t.length > 0; }); }
  function score(e, ts) {
    var total = 0, title = e.t.toLowerCase();
    for (var i = 0; i < ts.length; i++) {
      var t = ts[i], s = 0;
      if (title === t || (e.k !== "page" && title.split(".").pop() === t)) s += 100;   // a symbol's own name
      else if (title.indexOf(t) >= 0) s += 20;
      if (e.h.indexOf(t) >= 0) s += 5;
      if (e.x.indexOf(t) >= 0) s += 1;
      if (s === 0) return 0;              // every term must match somewhere
      total += s;
    }
    if (ts.length > 1 && title.indexOf(ts.join(" ")) >= 0) total += 50;                // the words as a phrase
    return total + (e.k === "page" ? 1 : 0);
  }
  function search(q) {
    var ts = terms(q), out = [];
    if (!ts.length || !window.SEARCH_INDEX) return out;
    window.SEARCH_INDEX.forEach(function (e) { var s = score(e, ts); if (s > 0) out.push([s, e]); });
    out.sort(function (a, b) { return b[0] - a[0]; });
    return out.slice(0, 12).map(function (p) { return p[1]; });
  }
  function show(list, results) {
    list.innerHTML = "";
    results.forEach(function (e) {
      var li = document.createElement("li"), a = document.createElement("a");
      a.href = root + e.u;
      a.textContent = e.t;
      var kind = document.createElement("span");
      kind.className = "search-kind";
      kind.textContent = e.k === "page" ? "page" : e.k + " · " + e.m;
      li.appendChild(a);
      li.appendChild(kind);
      list.appendChild(li);
    });
    list.hidden = results.length === 0;
  }
  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("search-box"), list = document.getElementById("search-results");
    if (!box || !list) return;
    box.addEventListener("input", function () { show(list, search(box.value)); });
    box.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter") {
        ev.preventDefault();
        var first = list.querySelector("a");
        if (first) window.location.href = first.href;
      } else if (ev.key === "Escape") { box.value = ""; show(list, []); }
    });
  });
})();
