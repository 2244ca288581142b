// @ts-check
// The top bar's link to the account page (/account), reading "Sign in" when signed out,
// or the account's name when signed in, with its rating when it has one ("Ada · 1532").

import { accountLinkText } from "./players_model.js";

/**
 * Put the link in the page's top bar (once), after its How to play link, and say who is
 * signed in: `name` the account's, null when signed out, undefined when not known (the
 * server did not say); `rating` the account's rating (players_model.js's ratingOf), when
 * the server gave one.
 * @param {string | null | undefined} name
 * @param {number | null} [rating]
 */
export function showAccountLink(name, rating = null) {
  const bar = document.querySelector(".topbar");
  if (!bar) return;
  let link = /** @type {HTMLAnchorElement | null} */ (document.getElementById("account-link"));
  if (!link) {
    link = document.createElement("a");
    link.id = "account-link";
    link.className = "topbar-link";
    link.href = "/account";
    const after = bar.querySelector('a[href="/how-to-play"]');
    if (after) after.after(link);
    else bar.append(link);
  }
  link.textContent = name === undefined ? "Account" : name === null ? "Sign in" : "";
  if (name) {
    // the name isolated (any script, right to left too), then " · 1532": its accessible
    // name "Ada (your account), rating 1532"
    // (one inline box: the link is a flex box, which would drop the spaces around " · ")
    const own = document.createElement("bdi");
    own.textContent = name;
    const text = document.createElement("span");
    text.append(own, srOnly(" (your account)"));
    if (rating !== null) { // (hidden at a table on a phone, where the top bar is short of room)
      const shown = document.createElement("span");
      shown.setAttribute("aria-hidden", "true"); // said as ", rating 1532" instead
      shown.textContent = accountLinkText(name, rating).slice(name.length);
      const rated = document.createElement("span");
      rated.className = "account-rating";
      rated.append(shown, srOnly(`, rating ${rating}`));
      text.append(rated);
    }
    link.append(text);
    link.dataset.rating = rating === null ? "" : String(rating);
  }
}

/** Words for a screen reader only. @param {string} text */
function srOnly(text) {
  const span = document.createElement("span");
  span.className = "sr-only";
  span.textContent = text;
  return span;
}
