/* esrpdb site: sorting and filtering of the index, the any-pair compare page, and (for very large
   catalogues only) charts drawn in the browser. Plain JavaScript; the pages read fine without it. */
(function () {
  "use strict";

  function cellValue(row, index, type) {
    var cell = row.cells[index];
    var raw = cell.hasAttribute("data-sort") ? cell.getAttribute("data-sort") : cell.textContent.trim();
    if (type === "number") { return raw === "" ? null : parseFloat(raw); }
    return raw.toLowerCase();
  }

  function makeSortable(table) {
    var headers = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(headers, function (th, index) {
      th.tabIndex = 0;
      th.addEventListener("click", function () { sortBy(table, th, index); });
      th.addEventListener("keydown", function (e) { if (e.key === "Enter") { sortBy(table, th, index); } });
    });
  }

  function sortBy(table, th, index) {
    var type = th.getAttribute("data-type") || "text";
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    /* Keys read once per row, and the body detached while rows move: one layout, not one per row. */
    var body = table.tBodies[0];
    var keyed = Array.prototype.map.call(body.rows, function (row, position) {
      return { key: cellValue(row, index, type), row: row, position: position };
    });
    keyed.sort(function (a, b) {
      var x = a.key, y = b.key;
      if (x === null || y === null) { return x === y ? a.position - b.position : (x === null ? 1 : -1); }
      var order = x < y ? -1 : (x > y ? 1 : 0);
      return (ascending ? order : -order) || a.position - b.position;
    });
    var next = body.nextSibling;
    table.removeChild(body);
    keyed.forEach(function (item) { body.appendChild(item.row); });
    table.insertBefore(body, next);
  }

  function applyFilters(form, table) {
    var equal = form.querySelectorAll("[data-filter]");
    var search = form.querySelector("[data-filter-text]");
    var words = search ? search.value.trim().toLowerCase() : "";
    var shown = 0, rows = table.tBodies[0].rows;
    for (var i = 0; i < rows.length; i++) {
      var row = rows[i], keep = true;
      for (var j = 0; j < equal.length && keep; j++) {
        var want = equal[j].value, have = row.getAttribute("data-" + equal[j].getAttribute("data-filter")) || "";
        if (want && have.split(", ").indexOf(want) < 0) { keep = false; }
      }
      if (keep && words && row.textContent.toLowerCase().indexOf(words) < 0) { keep = false; }
      row.hidden = !keep;
      if (keep) { shown++; }
    }
    var counter = document.getElementById("shown-count");
    if (counter) { counter.textContent = shown + " of " + rows.length + " shown"; }
  }

  /* What `esrpdb compare` writes, ported from queries/compare.py (percent, sentence, _spread,
     unlike_notes, compare_figures) over the figures compare_figures.read_figures read; the
     browser tests hold every pair of the seed equal to the Python. */
  function percentWords(value) { return Math.abs(value).toFixed(0) + "% " + (value >= 0 ? "more" : "less"); }

  function sentence(aName, bName, words, a, b, spread) {
    if (a === null || b === null) { return "no " + words + " figure for " + (a === null ? aName : bName); }
    if (b === 0) { return bName + " has zero " + words + "; no percentage"; }
    var difference = (a / b - 1) * 100, said;
    if (Math.abs(difference) < 0.05) { said = aName + " and " + bName + " delivered the same " + words; }
    else { said = aName + " delivered " + percentWords(difference) + " " + words + " than " + bName; }
    if (spread && Math.round(spread[0]) !== Math.round(spread[1])) {
      var low = spread[0], high = spread[1];
      if (low >= 0) { said += " (" + low.toFixed(0) + "\u2013" + high.toFixed(0) + "% across the runs)"; }
      else if (high < 0) { said += " (" + (-high).toFixed(0) + "\u2013" + (-low).toFixed(0) + "% across the runs)"; }
      else { said += " (from " + percentWords(low) + " to " + percentWords(high) + " across the runs)"; }
    }
    return said;
  }

  /* fa, fb: [value, lowest, highest, runs] of each trial */
  function spreadOf(fa, fb) {
    if (fa[3] + fb[3] <= 2 || !fa[3] || !fb[3] || fb[1] <= 0) { return null; }
    return [(fa[1] / fb[2] - 1) * 100, (fa[2] / fb[1] - 1) * 100];
  }

  function unlikeNotes(data, aName, sa, bName, sb) {
    var notes = [];
    if (!sa.run || !sb.run) { return notes; }
    Object.keys(data.likeness).forEach(function (column) {
      var ta = sa.test[column], tb = sb.test[column];
      if (ta && tb && ta[0] !== tb[0]) {
        notes.push(data.likeness[column] + ": " + ta[1] + " (" + aName + ") vs " + tb[1] + " (" + bName + ")");
      }
    });
    var da = sa.test.duration_h, db = sb.test.duration_h;
    if (da && db && Math.abs(da[0] - db[0]) > data.duration_share * Math.max(da[0], db[0])) {
      notes.push("duration: " + da[1] + " h (" + aName + ") vs " + db[1] + " h (" + bName + ")");
    }
    return notes;
  }

  function number(value, places) {
    if (value === null || value === undefined) { return "\u2014"; }
    return value.toLocaleString("en-US", { minimumFractionDigits: places, maximumFractionDigits: places });
  }

  function significant(value) {  /* site/formatting.py: sig */
    if (value === null || value === undefined || !isFinite(value)) { return "\u2014"; }
    var places = value === 0 ? 0 : Math.max(0, 5 - Math.floor(Math.log10(Math.abs(value))));
    return value.toLocaleString("en-US", { minimumFractionDigits: 0, maximumFractionDigits: Math.min(places, 20) });
  }

  function setupCompare(data) {
    var form = document.getElementById("compare-form");
    var table = document.getElementById("compare-result");
    if (!form || !table) { return; }
    var selectA = document.getElementById("compare-a"), selectB = document.getElementById("compare-b");
    var first = data.default ? data.default.join("\n") : null;  /* the pair the page was written with */
    var hash = /#a=([^&]*)&b=(.*)$/.exec(window.location.hash);
    if (hash) { selectA.value = decodeURIComponent(hash[1]); selectB.value = decodeURIComponent(hash[2]); }
    function update() {
      var a = selectA.value, b = selectB.value, sa = data.solutions[a], sb = data.solutions[b];
      if (!sa || !sb) { return; }
      var nameA = sa.name, nameB = sb.name;  /* names on the page; keys only in the URL */
      document.getElementById("compare-head-a").textContent = nameA;
      document.getElementById("compare-head-b").textContent = nameB;
      var written = a + "\n" + b === first;
      document.getElementById("compare-default").hidden = !written;
      var notes = unlikeNotes(data, nameA, sa, nameB, sb);
      var unlike = document.getElementById("compare-unlike"), list = unlike.querySelector("ul");
      while (list.firstChild) { list.removeChild(list.firstChild); }
      notes.forEach(function (note) { var li = document.createElement("li"); li.textContent = note; list.appendChild(li); });
      unlike.hidden = notes.length === 0;
      var body = table.tBodies[0], neither = [];
      while (body.firstChild) { body.removeChild(body.firstChild); }
      data.figures.forEach(function (figure, i) {
        var key = figure[0], words = figure[1], fa = sa.figures[i], fb = sb.figures[i];
        if (!fa && !fb) { neither.push(words); return; }
        var va = fa ? fa[0] : null, vb = fb ? fb[0] : null;
        var diff = va !== null && vb !== null && vb !== 0 ? (va / vb - 1) * 100 : null;
        var spread = diff !== null ? spreadOf(fa, fb) : null;
        var cells = [words, significant(va), significant(vb), number(diff, 1),
                     spread ? number(spread[0], 1) + " to " + number(spread[1], 1) : "\u2014",
                     sentence(nameA, nameB, words, va, vb, spread)];
        var tr = document.createElement("tr");
        tr.dataset.metric = key.split("|")[0]; tr.dataset.basis = key.split("|")[1];
        cells.forEach(function (text, i) {
          var td = document.createElement("td");
          td.textContent = text;
          td.className = i === 0 ? "metric" : i === 5 ? "sentence" : "n";
          tr.appendChild(td);
        });
        body.appendChild(tr);
      });
      var rest = document.getElementById("compare-neither");
      rest.textContent = "Neither has a figure for: " + neither.join(", ") + ".";
      rest.hidden = neither.length === 0;
      if (!written || hash) {
        history.replaceState(null, "", "#a=" + encodeURIComponent(a) + "&b=" + encodeURIComponent(b));
      }
    }
    form.hidden = false;
    selectA.addEventListener("change", update);
    selectB.addEventListener("change", update);
    update();
  }

  function drawClientCharts() {
    var specs = document.querySelectorAll("script.chart-spec");
    if (!specs.length || typeof window.vegaEmbed !== "function") { return; }
    Array.prototype.forEach.call(specs, function (script) {
      var target = script.previousElementSibling;
      window.vegaEmbed(target, JSON.parse(script.textContent), { renderer: "svg", actions: false });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var table = document.getElementById("solutions");
    if (table) { makeSortable(table); }
    var form = document.getElementById("filters");
    if (form && table) {
      form.hidden = false;  /* filters need this script; without it the table lists every solution */
      form.addEventListener("input", function () { applyFilters(form, table); });
      form.addEventListener("change", function () { applyFilters(form, table); });
    }
    if (window.ESRP_COMPARE) { setupCompare(window.ESRP_COMPARE); }
    drawClientCharts();
  });
})();
