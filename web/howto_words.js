// @ts-check
// Numbers and lists in words, for the How to play page (web/howto.js): every number on the
// page comes from /api/rules and is written out here, so the page's own text holds none.

const WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
  "ten", "eleven", "twelve"];

/** A whole number in words up to twelve ("seven"), else in digits ("65").
 * @param {number} n
 * @returns {string} */
export function numberWord(n) {
  return Number.isInteger(n) && n >= 0 && n < WORDS.length ? WORDS[n] : String(n);
}

/** The first letter in capitals ("Seven", "Flax, wool").
 * @param {string} text
 * @returns {string} */
export const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** A count with its noun, the noun plural unless the count is one: "1 coin", "2 coins".
 * @param {number} n
 * @param {string} noun
 * @returns {string} */
export function counted(n, noun) {
  return `${n} ${n === 1 ? noun : `${noun}s`}`;
}

/** "a", "a and b", "a, b and c".
 * @param {string[]} items
 * @param {string} [and]
 * @returns {string} */
export function listed(items, and = "and") {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${and} ${items[items.length - 1]}`;
}

/** A value of a nested object by a dotted path ("limits.holding_spaces", "setups.2.seals"),
 * or undefined.
 * @param {any} data
 * @param {string} path
 * @returns {any} */
export function at(data, path) {
  let here = data;
  for (const part of path.split(".")) {
    if (here === null || typeof here !== "object" || !(part in here)) return undefined;
    here = here[part];
  }
  return here;
}
