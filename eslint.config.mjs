// Type-aware lint: floating promises and misused promises are errors everywhere.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import architecture from './eslint.architecture.cjs';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/src/generated/**',
      'coverage/**',
      'bench/out/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
      '**/prisma.config.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
    },
  },
  // Layering: domain → storage/HTTP, library → service and service → service imports fail the build.
  ...architecture.architectureRules,
  {
    // Test code reads arbitrary JSON responses.
    files: ['tests/**/*.ts', '**/test/**/*.ts', 'libs/devkit/src/client.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
