import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/out/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // React and Ink stay behind the UI facade (docs/architecture.md "Layout and dependency direction").
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'ink', message: 'Only src/ui may import ink.' }, { name: 'react', message: 'Only src/ui may import react.' }] },
      ],
    },
  },
  {
    // The declaration types of the nouns compose without casts (docs/architecture.md "One table per API family"):
    // `x as never` and `x as unknown as T` silence the checker where a type does not fit; a value read from outside
    // is parsed (zod) instead, and a type that does not fit is fixed where it is declared.
    files: ['src/commands/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "TSAsExpression[typeAnnotation.type='TSNeverKeyword']", message: 'no `as never` in src/commands: fix the declaration type, or parse the value' },
        {
          selector: "TSAsExpression[expression.type='TSAsExpression'][expression.typeAnnotation.type='TSUnknownKeyword']",
          message: 'no `as unknown as` in src/commands: fix the declaration type, or parse the value',
        },
      ],
    },
  },
  {
    // The entry is CommonJS (bin/package.json) so `--version` starts without the ESM loader.
    files: ['bin/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/ui/**', 'tests/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src/api/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../core/*', '../commands/*', '../bulk/*', '../ui/*', '../emulator/*', '../context*'], message: 'src/api imports nothing else of ours.' }] },
      ],
    },
  },
);
