/* Balance charts (Chart.js, vendored): every <canvas data-chart-url> is drawn as one line per
 * player from its JSON ({labels, datasets: [{label, data}]}); a table of the same numbers is
 * filled below it for screen readers and printing. */
(function () {
  "use strict";

  const COLOURS = ["#a3121a", "#0b6b2b", "#1f4e9c", "#8a4b00", "#6a2c91", "#00727a", "#b3006b", "#4a4a4a",
    "#c25b00", "#2f7d32", "#3c3c9c", "#7a1414"];

  function fillTable(table, data) {
    if (!table) return;
    const head = "<thead><tr><th></th>" + data.labels.map((l) => "<th>" + l + "</th>").join("") + "</tr></thead>";
    const body = data.datasets.map((d) => "<tr><th>" + d.label.replace(/</g, "&lt;") + "</th>" +
      d.data.map((v) => '<td class="num">' + v + "</td>").join("") + "</tr>").join("");
    table.innerHTML = head + "<tbody>" + body + "</tbody>";
  }

  async function draw(canvas) {
    const response = await fetch(canvas.dataset.chartUrl, { headers: { Accept: "application/json" } });
    if (!response.ok) return;
    const data = await response.json();
    canvas.dataset.points = String(data.labels.length);
    fillTable(document.getElementById(canvas.dataset.table), data);
    if (data.labels.length <= 1 || !data.datasets.length) {
      // Only the starting point, no ván yet: say so instead of drawing an empty 0–1 axis.
      const box = canvas.closest(".chart-box");
      const empty = box && box.parentNode ? box.parentNode.querySelector("[data-chart-empty]") : null;
      if (empty) { empty.hidden = false; box.hidden = true; }
      canvas.dataset.drawn = "0";
      return;
    }
    if (!window.Chart) return;
    const chart = new window.Chart(canvas, {
      type: "line",
      data: {
        labels: data.labels,
        datasets: data.datasets.map((d, i) => ({
          label: d.label, data: d.data, borderColor: COLOURS[i % COLOURS.length],
          backgroundColor: COLOURS[i % COLOURS.length], tension: 0, pointRadius: data.labels.length > 60 ? 0 : 3,
        })),
      },
      options: {
        responsive: true, maintainAspectRatio: false, animation: false, interaction: { mode: "index", intersect: false },
        scales: { y: { title: { display: true, text: gettext("Điểm") } } },
        plugins: { legend: { position: "bottom" } },
      },
    });
    canvas.dataset.drawn = String(chart.data.datasets.length);
  }

  function start() {
    document.querySelectorAll("canvas[data-chart-url]").forEach((c) => draw(c));
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
