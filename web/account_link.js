// @ts-check
// The lobby's top bar: a link to the account page (/account), reading "Sign in" when
// signed out, or the account's name when signed in.

/**
 * Put the link in the page's top bar (once), after its How to play link, and say who is
 * signed in: `name` the account's, null when signed out, undefined when not known (the
 * server did not say).
 * @param {string | null | undefined} name
 */
export function showAccountLink(name) {
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
  link.textContent = name === undefined ? "Account" : name === null ? "Sign in" : name;
  if (name) {
    const hint = document.createElement("span");
    hint.className = "sr-only";
    hint.textContent = " (your account)";
    link.append(hint);
  }
}
