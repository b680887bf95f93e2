import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'bench/results/**', 'bench/.build/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly' } },
    rules: {
      'no-restricted-syntax': ['error', { selector: 'TSEnumDeclaration', message: 'Use a const object and a union, not an enum.' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // The libraries never print: observability goes through diagnostics_channel and debuglog.
    files: ['packages/protocol/src/**/*.ts', 'packages/recipes/src/**/*.ts', 'packages/sasl-kerberos/src/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
);
