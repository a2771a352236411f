// The house's layer rules (docs/ARCHITECTURE.md, "Layers"), checked by dependency-cruiser on every
// `npm run typecheck` (scripts/check-layers.mjs). Each rule has a fixture under test/fixtures/layers/
// that breaks it on purpose; test/unit/layers.test.ts proves the rule fires on it.
/** Node built-ins are "core"; the package names the renderer may use are listed, nothing else. */
const npm = ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-bundled', 'npm-no-pkg', 'npm-unknown'];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'electron-only-in-main-and-preload',
      comment: "Only electron/shell/main.ts and electron/shell/preload.ts import 'electron'; the rest of the core is plain Node (runs in the web host, tests and a utility process).",
      severity: 'error',
      from: { pathNot: '^electron/shell/(main|preload)\\.ts$' },
      to: { path: '(^|/)node_modules/electron/|^electron$' },
    },
    {
      name: 'shared-only-zod',
      comment: 'shared/ runs on both sides (renderer and core): no Node built-ins, no package but zod.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { dependencyTypes: ['core', ...npm], pathNot: '(^|/)node_modules/zod/' },
    },
    {
      name: 'shared-imports-only-shared',
      comment: 'shared/ is the contract between renderer and core; it depends on neither, nor on the sandbox.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(electron|renderer|sandbox)/' },
    },
    {
      name: 'renderer-no-node',
      comment: 'The renderer is a browser page (sandboxed, no nodeIntegration): no Node built-ins.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'renderer-browser-packages-only',
      comment: 'The renderer may use only browser packages; a Node-only package (better-sqlite3, ws, pdfkit...) would not load in the page.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { dependencyTypes: npm, pathNot: '(^|/)node_modules/(react|react-dom|scheduler|zustand|zod|recharts)/' },
    },
    {
      name: 'renderer-only-through-contract',
      comment: 'The renderer talks to the core only through shared/contract (RPC), never by importing the core or the sandbox.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '^(electron|sandbox)/' },
    },
    {
      name: 'core-not-renderer',
      comment: 'The core (electron/) never imports the page.',
      severity: 'error',
      from: { path: '^electron/' },
      to: { path: '^renderer/' },
    },
    {
      name: 'sandbox-standalone',
      comment: 'The sandbox is a stand-in for the real service: it shares no code or wire types with the station.',
      severity: 'error',
      from: { path: '^sandbox/' },
      to: { path: '^(electron|renderer|shared)/' },
    },
    {
      name: 'api-client-not-sandbox',
      comment: "The station's API client reads the service by the spec, not by the sandbox's own types (else both could drift together).",
      severity: 'error',
      from: { path: '^electron/(api|sync)/' },
      to: { path: '^sandbox/' },
    },
    {
      name: 'sql-only-in-store',
      comment:
        "All SQL lives in electron/store/ (repositories by domain): only the store imports better-sqlite3 or opens it (store/sqlite.ts); the rest of the core gets repositories, and the composition root the database from store/wireStore.ts.",
      severity: 'error',
      from: { path: '^electron/', pathNot: '^electron/store/' },
      to: { path: ['(^|/)node_modules/(@types/)?better-sqlite3/', '^electron/store/sqlite\\.ts$'] },
    },
    {
      name: 'composition-root-only-wires',
      comment:
        'electron/station.ts only connects the parts: from the store it takes the database wiring (store/wireStore.ts) and nothing else, so no repository, no SQL and no raw database there; each part opens its own repositories in its wire*.ts.',
      severity: 'error',
      from: { path: '^electron/station\\.ts$' },
      to: { path: '^electron/store/', pathNot: '^electron/store/wireStore\\.ts$' },
    },
    {
      name: 'layers-resolvable',
      comment: 'An import the tool cannot resolve (a computed or misspelt path) cannot be checked, so it is refused in the layered folders.',
      severity: 'error',
      from: { path: '^(electron|shared|renderer|sandbox)/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    // Type-only imports count too: a shared type from the wrong layer is still a wrong dependency.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
    moduleSystems: ['es6', 'cjs', 'tsd'],
  },
};
