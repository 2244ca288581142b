// @ts-check
// The status page's small DOM helpers, shared by its modules.

/** The element with this id: status.html has every one asked for. @param {string} id */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** Set `el`'s text only when it changes (a live region would say it again). @param {Element | null} el @param {string} text */
export function setText(el, text) {
  if (el && el.textContent !== text) el.textContent = text;
}

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {string} [cls] @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}
