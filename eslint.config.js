// ESLint for the browser code and its node tests (`make jslint`, part of
// `make test`). tsc --checkJs checks the types; this catches what types do
// not: unused code, shadowed names, loose equality, mistakes in control flow.
import js from "@eslint/js";
import globals from "globals";

export default [
  // The service worker is a Jinja template (its asset lists are filled in).
  { ignores: ["node_modules/", ".venv/", ".venv-lowest/", "build/", "dist/", "cardwar/web/templates/"] },
  js.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      eqeqeq: ["error", "always"],
      "no-shadow": "error",
      "no-var": "error",
      "prefer-const": "error",
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_" }],
      "no-implicit-coercion": "error",
      "no-throw-literal": "error",
      "no-self-compare": "error",
      "no-unmodified-loop-condition": "error",
      "no-unreachable-loop": "error",
      "no-use-before-define": ["error", { functions: false, variables: false }],
      "default-case-last": "error",
      "no-promise-executor-return": "error",
      "require-atomic-updates": "error",
    },
  },
  // The game page's ES modules.
  {
    files: ["cardwar/web/static/play/**/*.js"],
    languageOptions: { sourceType: "module", globals: globals.browser },
  },
  // Every other page's script: a classic script, no modules.
  {
    files: ["cardwar/web/static/site.js"],
    languageOptions: { sourceType: "script", globals: globals.browser },
    rules: { "no-var": "off" },
  },
  // node's test runner over the modules (tests/js).
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.node, ...globals.browser } },
  },
];
