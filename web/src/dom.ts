// A tiny element builder: h("div.a.b", {attr: value}, children...). Text is always set as text, never as HTML.

type Child = Node | string | number | null | undefined | false;

export function h(tag: string, attrs: Record<string, unknown> | null = null, ...children: (Child | Child[])[]): HTMLElement {
  const [name, ...classes] = tag.split(".");
  const el = document.createElement(name || "div");
  if (classes.length) el.className = classes.join(" ");
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (key.startsWith("on") && typeof value === "function") {
        el.addEventListener(key.slice(2), value as EventListener);
      } else if (key === "class") {
        el.className = [el.className, String(value)].filter(Boolean).join(" ");
      } else if (key === "dataset") {
        Object.assign(el.dataset, value as Record<string, string>);
      } else if (value === true) {
        el.setAttribute(key, "");
      } else {
        el.setAttribute(key, String(value));
      }
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}
