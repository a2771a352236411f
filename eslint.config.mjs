// ESLint over the code folders: typescript-eslint's type-aware rules (a promise nobody awaits or
// catches, a promise passed where a callback's result is ignored, `any` leaking into the core) and
// the React hooks rules for the renderer. Formatting is Prettier's job (.prettierrc.json);
// eslint-config-prettier turns off the stylistic rules that would fight it.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['dist/', 'native/', 'release/', 'build/', 'bench/results/', 'bench/.build/', 'test-results/']),
  {
    files: ['{electron,renderer,shared,sandbox,test,bench}/**/*.{ts,tsx}', 'scripts/**/*.ts', '*.config.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      // Each file is checked with the tsconfig.json nearest to it (renderer/, shared/, bench/ or the root).
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A leading underscore marks a parameter or a destructured field that is left out on purpose
      // (`{ token: _t, ...rest }` drops a field; `(_req, res)` keeps a callback's shape).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Off: the code makes its objects with closures (factories, zustand stores, React props) and
      // declares them with method shorthand in interfaces; none of them reads `this`, and
      // destructuring a store's actions (`const { load, save } = useSettings()`) is zustand's own
      // idiom. The rule cannot tell these from class methods and flagged only them (70 places).
      '@typescript-eslint/unbound-method': 'off',
      // Off: an `async` method without `await` is how the code implements a Promise-returning
      // interface (keychain stores, printer drivers' `status`, test doubles): a throw inside it
      // becomes a rejection, as callers expect. Dropping `async` would change that.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests read the service's JSON, the page's state and child processes' output as `any`
    // (`res.json()`, `page.evaluate`) and check it with `expect`: the assertion is the check, and a
    // type for each answer would be written only to be asserted again. Production code keeps the rules.
    files: ['test/**/*.{ts,tsx}', 'sandbox/test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Build scripts and the two CommonJS workers: plain JavaScript, outside every tsconfig.
    files: ['scripts/**/*.mjs', 'electron/**/*.cjs', '*.config.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
  prettier,
);
