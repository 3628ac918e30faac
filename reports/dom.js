// The one way the report's and the dossier's scripts make an element: text from the data
// is only ever set as textContent, never parsed as markup (reports/markup.py escapes the
// page's own HTML).  tdaEl("p", {cls: "x", text: "..."}, child, "text", ...)
function tdaEl(tag, attrs) {
  var e = document.createElement(tag);
  if (attrs) Object.keys(attrs).forEach(function (k) {
    if (k === "text") e.textContent = attrs[k];
    else if (k === "cls") e.className = attrs[k];
    else e.setAttribute(k, attrs[k]);
  });
  for (var i = 2; i < arguments.length; i++) {
    var c = arguments[i];
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
  }
  return e;
}
