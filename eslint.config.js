// The browser code's lint (the last step of make lint): ESLint's recommended rules for ES
// modules that run in the browser, and a complexity budget like ruff's for the Python side.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["src/**/*.js"],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      complexity: ["error", 20],
      "max-depth": ["error", 4],
      "max-params": ["error", 6],
      "max-statements": ["error", 45],
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
      eqeqeq: ["error", "smart"],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
  { ignores: ["node_modules/", ".venv/", "build/", "test-artifacts/"] },
];
