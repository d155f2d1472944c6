// yimao serve: fold a table page's column descriptions into one <details> element, and show
// each column's description when the pointer rests on its heading.
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("dl.column-descriptions").forEach((dl) => {
    const described = {};
    dl.querySelectorAll("dt").forEach((dt) => {
      const dd = dt.nextElementSibling;
      if (dd) described[dt.textContent.trim()] = dd.textContent.trim();
    });
    const details = document.createElement("details");
    details.className = "yimao-columns";
    const summary = document.createElement("summary");
    summary.textContent = `Column descriptions (${Object.keys(described).length})`;
    dl.parentNode.insertBefore(details, dl);
    details.appendChild(summary);
    details.appendChild(dl);
    document.querySelectorAll("th[data-column]").forEach((th) => {
      const text = described[th.dataset.column];
      if (text) th.title = text;
    });
  });
});
