// ESLint with typescript-eslint's type-aware rules: the promise mistakes that tsc lets through.
// Each file is checked with the types of the tsconfig.json that holds it (the root one for the
// server, test/ and bench/; console/tsconfig.json for the console; the menu page's own for its
// browser script), found by the TypeScript project service. `npm run lint` runs it; CI too.
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores([
    '**/node_modules/**',
    'dist/**',
    '.dist-*/**',
    '.dist-old-*/**',
    'console/dist/**',
    'console/.dist-*/**',
    'test-output/**',
    'data/**',
    '.scratch/**',
    // Generated from the OpenAPI document by console/api-types.ts.
    'console/src/api/schema.d.ts',
  ]),
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A promise nobody awaits loses its rejection (an unhandled rejection ends the process).
      '@typescript-eslint/no-floating-promises': 'error',
      // An async function where a plain callback is expected (an event handler, forEach, an
      // `if`) runs unawaited and its failure goes nowhere.
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      // An `any` switches the checks above off for everything it touches: each one is there on
      // purpose, said so where it is with an eslint-disable comment.
      '@typescript-eslint/no-explicit-any': 'error',
      // `x as unknown as T` tells the compiler to believe anything: narrow with a check (a type
      // guard, a parser) or build the value with its real type instead (docs/decisions/0421).
      'no-restricted-syntax': [
        'error',
        {
          selector: 'TSAsExpression > TSAsExpression.expression[typeAnnotation.type="TSUnknownKeyword"]',
          message: 'No `as unknown as`: narrow with a checked type guard or a parser, or type the value where it is made.',
        },
        {
          selector: 'TSAsExpression > TSTypeAssertion.expression[typeAnnotation.type="TSUnknownKeyword"]',
          message: 'No `<unknown>x as T`: narrow with a checked type guard or a parser, or type the value where it is made.',
        },
      ],
      // Three `../` say nothing of where the target lives and break when a file moves: another
      // top-level folder is named by its alias, `#domain/…` (docs/decisions/0422).
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./){3,}(?!\\.\\./|assets/)',
              message: 'Import another top-level folder by its alias (#domain/…, #platform/…): decision 0422.',
            },
          ],
        },
      ],
    },
  },
);
