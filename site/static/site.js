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

  /* The sentence `esrpdb compare` writes (queries/compare.py: sentence). */
  function sentence(aKey, bKey, words, a, b) {  /* aKey, bKey: the names shown */
    if (a === null || b === null) { return "no " + words + " figure for " + (a === null ? aKey : bKey); }
    if (b === 0) { return bKey + " has zero " + words + "; no percentage"; }
    var difference = (a / b - 1) * 100;
    if (Math.abs(difference) < 0.05) { return aKey + " and " + bKey + " delivered the same " + words; }
    var direction = difference > 0 ? "more" : "less";
    return aKey + " delivered " + Math.abs(difference).toFixed(0) + "% " + direction + " " + words + " than " + bKey;
  }

  function number(value, places) {
    if (value === null || value === undefined) { return "—"; }
    return value.toLocaleString("en-US", { minimumFractionDigits: places, maximumFractionDigits: places });
  }

  function setupCompare(data) {
    var form = document.getElementById("compare-form");
    var table = document.getElementById("compare-result");
    if (!form || !table) { return; }
    var selectA = document.getElementById("compare-a"), selectB = document.getElementById("compare-b");
    var hash = /#a=([^&]*)&b=(.*)$/.exec(window.location.hash);
    if (hash) { selectA.value = decodeURIComponent(hash[1]); selectB.value = decodeURIComponent(hash[2]); }
    function update() {
      var a = selectA.value, b = selectB.value, sa = data.solutions[a], sb = data.solutions[b];
      if (!sa || !sb) { return; }
      var nameA = sa.name, nameB = sb.name;  /* names on the page; keys only in the URL */
      document.getElementById("compare-head-a").textContent = nameA;
      document.getElementById("compare-head-b").textContent = nameB;
      var unlike = document.getElementById("compare-unlike");
      unlike.hidden = sa.group === sb.group;
      unlike.textContent = "Unlike tests: " + nameA + " is \u201c" + sa.group + "\u201d, " + nameB + " is \u201c" + sb.group +
        "\u201d. The figures do not compare directly.";
      var body = table.tBodies[0];
      while (body.firstChild) { body.removeChild(body.firstChild); }
      Object.keys(data.metrics).forEach(function (name) {
        var va = sa.values[name], vb = sb.values[name];
        va = va === undefined ? null : va; vb = vb === undefined ? null : vb;
        var diff = va !== null && vb !== null && vb !== 0 ? (va / vb - 1) * 100 : null;
        var cells = [name, number(va, 2), number(vb, 2), number(diff, 1), sentence(nameA, nameB, data.metrics[name].words, va, vb)];
        var tr = document.createElement("tr");
        cells.forEach(function (text, i) {
          var td = document.createElement("td");
          td.textContent = text;
          if (i > 0 && i < 4) { td.className = "n"; }
          if (i === 4) { td.className = "sentence"; }
          tr.appendChild(td);
        });
        body.appendChild(tr);
      });
      table.hidden = false;
      history.replaceState(null, "", "#a=" + encodeURIComponent(a) + "&b=" + encodeURIComponent(b));
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
