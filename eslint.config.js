// The JS lint of web/, run by `make lint-js` after `node --check` on each file.
//
// Why ESLint: it is the linter the JS world keeps up (the recommended rules catch real
// mistakes such as unused variables, undefined names and unreachable code, without
// opinions on layout); it runs on web/*.js as the browser loads them, with no build step;
// and its versions are pinned in package-lock.json, so `npm ci` installs exactly them.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: [".venv/", "node_modules/", "build/", "test-artifacts/", "var/"] },
  js.configs.recommended,
  {
    files: ["web/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module", // every page loads its script with <script type="module">
      globals: globals.browser,
    },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "module", globals: globals.node },
  },
];
