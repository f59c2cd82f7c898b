import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'fixtures/', 'src/generated/', '.bench/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-constant-condition': ['error', { checkLoops: false }],
      // JSON and URL rules are about control characters; the regexes name them on purpose.
      'no-control-regex': 'off',
      // TypeScript checks names; this rule knows no Node globals.
      'no-undef': 'off',
    },
  },
);
