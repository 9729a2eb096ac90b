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
      // React and Ink stay behind the UI facade (design.md, "Layout and dependency direction").
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'ink', message: 'Only src/ui may import ink.' }, { name: 'react', message: 'Only src/ui may import react.' }] },
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
