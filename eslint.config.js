// ESLint's flat configuration for the browser client (src/dreizehn/web, served as it is) and its node tests
// (tests/js): make check-js runs it next to TypeScript's checker.
import js from "@eslint/js";
import globals from "globals";

/** Markup written as text: the client builds every element with dom.js's h(), text always as text. */
const NO_MARKUP = [
  { selector: "AssignmentExpression > MemberExpression.left[property.name=/^(innerHTML|outerHTML)$/]",
    message: "write elements with dom.js's h(), never markup" },
  { selector: "CallExpression[callee.property.name=/^(insertAdjacentHTML|write|writeln)$/]",
    message: "write elements with dom.js's h(), never markup" },
];

export default [
  js.configs.recommended,
  {
    files: ["src/dreizehn/web/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
    rules: {
      "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }],
      "no-restricted-syntax": ["error", ...NO_MARKUP],
      "no-implied-eval": "error",
      "no-new-func": "error",
      eqeqeq: ["error", "always"],
      "no-var": "error",
      "prefer-const": "error",
      "no-shadow": "error",
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
    },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
  {
    // the tests run in node with a page's globals set (tests/js/page.mjs)
    files: ["tests/js/**/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node, ...globals.browser } },
  },
];
