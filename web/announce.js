// @ts-check
// A polite live region for what the table otherwise says only by sound: a new decision of
// yours and the last ten seconds of your timer. One region for the page, made on first use.

/** @type {HTMLElement | null} */
let region = null;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let timer;

function live() {
  if (region && region.isConnected) return region;
  region = document.createElement("div");
  region.id = "announce";
  region.className = "sr-only";
  region.setAttribute("role", "status");
  region.setAttribute("aria-live", "polite");
  region.setAttribute("aria-atomic", "true");
  document.body.append(region);
  return region;
}

let waiting = ""; // said together with the next, if it comes before this one is out

/** Say `text` politely. The region is emptied first, so that the same words said again
 * (a second decision in the same phase) are announced again; two said at once are one.
 * @param {string} text */
export function announce(text) {
  const el = live();
  clearTimeout(timer);
  waiting = waiting ? `${waiting} ${text}` : text;
  el.textContent = "";
  timer = setTimeout(() => { el.textContent = waiting; waiting = ""; }, 60);
}
