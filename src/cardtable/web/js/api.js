// Small helpers around the HTTP API and the DOM.
export async function api(path, options = {}) {
  const init = { headers: { "Content-Type": "application/json" }, ...options };
  if (init.body && typeof init.body !== "string") init.body = JSON.stringify(init.body);
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const detail = data.detail;
    const message = typeof detail === "string" ? detail : detail?.message || JSON.stringify(detail);
    const error = new Error(message || response.statusText);
    error.code = detail?.code; // the page says it in its language (errorText in i18n.js)
    error.status = response.status;
    throw error;
  }
  return data;
}

/** Create an element: h("div", {class: "x", onclick: f}, child, "text"). */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "html") element.innerHTML = value;
    else element.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** An element from an SVG string. */
export function svg(markup, attrs = {}) {
  const holder = document.createElement("span");
  holder.className = "card-holder";
  holder.innerHTML = markup;
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) holder.addEventListener(name.slice(2), value);
    else holder.setAttribute(name, value === true ? "" : value);
  }
  return holder;
}

let cardData = null;
export async function cards() {
  if (!cardData) cardData = await api("/api/cards");
  return cardData;
}
