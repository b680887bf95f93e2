import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Layer zones (docs/architecture.md names the layers). ESLint keeps only the last `no-restricted-imports` that
// matches a file, so each zone lists everything its files may not import, the shared rules included.
const restrict = (...patterns) => ['error', { patterns }];
const rule = (regex, message) => ({ regex, message });
const notOtherPackagesSources = rule(
  '(^|/)packages/[a-z-]+/src/|(^|/)(protocol|recipes|testkit|sasl-kerberos|opentelemetry|cli|server)/src/',
  "Another package's sources are private: import its public entry ('@zkts/…').",
);
const recipesOnlyPublicProtocol = rule(
  '^@zkts/(?!protocol$)',
  "Recipes are built on @zkts/protocol's client entry alone.",
);
const protocolNeverAbove = rule(
  '^@zkts/(recipes|testkit|sasl-kerberos|opentelemetry|server|cli)',
  'The protocol package depends on no other zkts package.',
);
const family = (up) => rule(
  `^${up}(?!errors\\.js$|[a-z-]+/index\\.js$)`,
  "A recipe family reaches internal/ and other families only through their index.ts (or the public errors.ts).",
);
const recipeFamilies = ['locks', 'election', 'counters', 'groups', 'queues', 'leases', 'nodes', 'barriers', 'cache', 'discovery', 'inspect', 'quotas', 'compression'];
const zones = [
  {
    // Outside the recipes package nothing reaches into its src/ (internal/ least of all), nor into any other
    // package's sources; each package's own tests may read their package's src by path.
    files: ['**/*.ts'],
    ignores: ['packages/*/test/**', 'packages/*/scripts/**', 'bench/codec/**', 'test/**'],
    rules: { 'no-restricted-imports': restrict(notOtherPackagesSources) },
  },
  {
    files: ['packages/*/test/**/*.ts', 'test/**/*.ts'],
    ignores: ['packages/recipes/test/**'],
    rules: { 'no-restricted-imports': restrict(rule('(^|/)recipes/src/', 'Only the recipes package\'s own tests read its sources.')) },
  },
  {
    files: ['packages/protocol/src/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(notOtherPackagesSources, protocolNeverAbove) },
  },
  {
    files: ['packages/protocol/src/codec/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        notOtherPackagesSources, protocolNeverAbove,
        rule('(^|/)(client|inspect)/', 'The codec does no I/O and knows no session: it imports only codec/ and errors/.'),
      ),
    },
  },
  {
    files: ['packages/protocol/src/inspect/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        notOtherPackagesSources, protocolNeverAbove,
        rule('(^|/)client/', 'The conversation decoder reads frames with the codec; it knows no client.'),
      ),
    },
  },
  {
    files: ['packages/protocol/src/errors/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        notOtherPackagesSources, protocolNeverAbove,
        rule('(^|/)(client|codec|inspect)/', 'The error taxonomy sits under every layer and imports none of them.'),
      ),
    },
  },
  {
    files: ['packages/recipes/src/index.ts'],
    rules: {
      'no-restricted-imports': restrict(
        notOtherPackagesSources, recipesOnlyPublicProtocol,
        rule('^\\./[a-z-]+/(?!index\\.js$)', 'The package entry re-exports each family through its index.ts.'),
      ),
    },
  },
  {
    files: recipeFamilies.map((f) => `packages/recipes/src/${f}/*.ts`),
    rules: {
      'no-restricted-imports': restrict(notOtherPackagesSources, recipesOnlyPublicProtocol, family('\\.\\./')),
    },
  },
  {
    files: recipeFamilies.map((f) => `packages/recipes/src/${f}/*/**/*.ts`),
    rules: {
      'no-restricted-imports': restrict(notOtherPackagesSources, recipesOnlyPublicProtocol, family('\\.\\./\\.\\./')),
    },
  },
  {
    files: ['packages/recipes/src/internal/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        notOtherPackagesSources, recipesOnlyPublicProtocol,
        rule('^\\.\\./(?!errors\\.js$)', 'internal/ serves every family and imports none (only the public errors).'),
      ),
    },
  },
  {
    // The server speaks the wire through the codec; it shares nothing with the client's session.
    files: ['packages/server/src/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        notOtherPackagesSources,
        rule('^@zkts/(?!protocol/codec$)', 'The server depends on @zkts/protocol/codec alone.'),
      ),
    },
  },
  {
    // The OpenTelemetry package hears the clients and recipes through their diagnostics channels only: of the
    // other zkts packages it imports @zkts/protocol's public entry alone (option checks and the error taxonomy).
    files: ['packages/opentelemetry/src/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        notOtherPackagesSources,
        rule('^@zkts/(?!protocol$)', "The OpenTelemetry package imports only @zkts/protocol's public entry; it hears the rest on diagnostics channels."),
      ),
    },
  },
  {
    // The console's page runs in a browser: it knows the API only through its JSON types and imports no Node
    // module and no zkts package (the bundle would drag them in).
    files: ['packages/cli/ui/**/*.ts', 'packages/cli/ui/**/*.tsx'],
    rules: {
      'no-restricted-imports': restrict(
        rule('^node:', 'The page runs in a browser: no Node modules.'),
        rule('^@zkts/', 'The page talks to the console over HTTP; it bundles no zkts package.'),
        rule('src/console/(?!api-types\\.js$)', 'The page shares only the API contract (api-types.ts) with the console.'),
      ),
    },
  },
  {
    // The testkit starts real servers for any client: it depends on no zkts package. Its embedded backend loads
    // @zkts/server at run time (a dynamic import in src/embedded.ts, which this rule does not see), installed by
    // the user beside it: a package edge would close a cycle with the packages whose tests use the testkit.
    files: ['packages/testkit/src/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(notOtherPackagesSources, rule('^@zkts/', 'The testkit depends on no other zkts package.')),
    },
  },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'bench/results/**', 'bench/.build/**', '**/*.d.ts', 'docs/api/**'] },
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
    files: ['packages/protocol/src/**/*.ts', 'packages/recipes/src/**/*.ts', 'packages/sasl-kerberos/src/**/*.ts', 'packages/opentelemetry/src/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
  ...zones,
);
