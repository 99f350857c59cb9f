// Lint rules that hold the architecture's dependency direction (see docs/architecture.md).
import tseslint from 'typescript-eslint';

const layer = (name) => [`**/${name}`, `**/${name}/**`];
const uiLibs = ['react', 'react-dom', 'react-dom/*', 'three', 'three/*', '@react-three/*', 'zustand', 'zustand/*', 'dexie'];
const domGlobals = ['window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'indexedDB', 'location', 'HTMLElement', 'File', 'Blob', 'fetch'].map(
  (name) => ({
    name,
    message: 'src/core is pure: no DOM or browser globals. Do IO at the edges (formats, persistence, app).',
  }),
);

/** Syntax refused in every file of ours. */
const everywhere = [
  {
    selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
    message: 'User text is shown as text, never as HTML.',
  },
  {
    // Every document change is a named edit (src/state/edits.ts): one undo step under a fixed label.
    selector: "ImportSpecifier[imported.name='commitDocument']",
    message: 'Change the document through a named edit (defineEdit / applyEdit in src/state/edits.ts), not commitDocument.',
  },
  {
    // `list.push(...items)` passes every item as an argument: past ~120,000 the call stack overflows.
    selector: "CallExpression[callee.property.name='push'][arguments.length=1] > SpreadElement",
    message: 'Append with append(target, items) from src/core/arrays.ts: a spread passes every item as an argument and overflows the stack on large inputs.',
  },
  {
    selector: "CallExpression[callee.property.name='setState'] Property[key.name='document']",
    message: 'Change the document through a named edit (src/state/edits.ts); load or import through replaceDocument.',
  },
];

/**
 * Forbid importing the listed layers of our own code and the listed libraries. src/build is always
 * among them: a file's last matching block decides its import rule, so each layer's list repeats it.
 */
function restrict(ourLayers, libs, why) {
  ourLayers = [...new Set([...ourLayers, 'build'])];
  return {
    'no-restricted-imports': [
      'error',
      {
        patterns: [...(ourLayers.length ? [{ group: ourLayers.flatMap(layer), message: why }] : []), ...(libs.length ? [{ group: libs, message: why }] : [])],
      },
    ],
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'scenes/sample-house/**', 'scenes/generated-large/**', 'public/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', ...everywhere],
    },
  },
  {
    // Panels and the 3D view change the state only through named changes and commands (state/sessionChanges.ts,
    // a feature's state/ folder), so every way the session changes can be found by name.
    files: ['src/ui/**/*.{ts,tsx}', 'src/viewport/**/*.{ts,tsx}', 'src/features/*/ui/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...everywhere,
        {
          selector: "CallExpression[callee.property.name='setState']",
          message: "Panels and the 3D view do not set state: call a named change (src/state/sessionChanges.ts, or the feature's state/ folder) or a command.",
        },
      ],
    },
  },
  {
    // The edit machinery itself.
    files: ['src/state/edits.ts', 'src/state/history.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // src/build holds the Vite plugins (Node-side, run by vite.config.ts): no runtime code imports them.
    files: ['src/{core,formats,engine,state,persistence,viewport,ui,workers,cli,app,features,services,shell}/**/*.{ts,tsx}'],
    rules: restrict(['build'], [], 'src/build is the Vite build (Node-side): the studio and the command line do not import it.'),
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      ...restrict(
        ['formats', 'engine', 'state', 'persistence', 'viewport', 'ui', 'workers', 'cli', 'app', 'features', 'services', 'shell'],
        uiLibs,
        'src/core imports nothing of ours outside core and no React/three/zustand/dexie.',
      ),
      'no-restricted-globals': ['error', ...domGlobals],
    },
  },
  {
    files: ['src/formats/**/*.ts', 'src/engine/**/*.ts'],
    rules: restrict(
      ['state', 'persistence', 'viewport', 'ui', 'workers', 'cli', 'app', 'features', 'services', 'shell'],
      ['react', 'react-dom', 'zustand', 'dexie'],
      'formats and engine import only core (and their own libraries).',
    ),
  },
  {
    // A feature's state/ folder is state too: it may use other features' state, never their panels or
    // controllers; the shared state (src/state) names no feature.
    files: ['src/features/*/state/**/*.ts'],
    rules: restrict(
      ['formats', 'engine', 'persistence', 'viewport', 'ui', 'workers', 'cli', 'app', 'services', 'shell'],
      ['three', 'three/*', 'dexie'],
      'state imports only core; React binding lives in one file.',
    ),
  },
  {
    files: ['src/state/**/*.ts'],
    rules: restrict(
      ['formats', 'engine', 'persistence', 'viewport', 'ui', 'workers', 'cli', 'app', 'services', 'shell', 'features'],
      ['three', 'three/*', 'dexie'],
      'The shared state imports only core and names no feature (a feature registers its slice, its slice rule and its workspace feed).',
    ),
  },
  {
    // A feature's ui/ folder is ui: panels call commands and read state, never a controller (app/) or a service.
    files: ['src/features/*/ui/**/*.{ts,tsx}'],
    rules: restrict(['app', 'services', 'shell'], [], 'Panels never use a controller (src/features/*/app), a service or the shell (only src/app does).'),
  },
  {
    // The shared layers below the features name no feature: a feature plugs into them, not the other way round.
    files: ['src/persistence/**/*.{ts,tsx}', 'src/viewport/**/*.{ts,tsx}', 'src/ui/**/*.{ts,tsx}', 'src/workers/**/*.ts'],
    rules: restrict(['app', 'services', 'shell', 'features'], [], 'The shared layers name no feature, service or shell; only src/app imports everything.'),
  },
  {
    // The shell (views, header, overview) composes the features' panels; only src/app uses it.
    files: ['src/shell/**/*.{ts,tsx}'],
    rules: restrict(['app', 'services'], [], "The shell shows the features' panels; controllers and services are wired by src/app."),
  },
  {
    // Services are shared by features' controllers: they know no feature and no composition root.
    files: ['src/services/**/*.{ts,tsx}'],
    rules: restrict(['app', 'features'], [], 'A service is shared by features: it imports no feature and not the composition root.'),
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: restrict(
      ['app', 'ui', 'viewport', 'persistence', 'state', 'features', 'services', 'shell'],
      ['react', 'react-dom', 'three', '@react-three/*', 'dexie'],
      'The command line runs in Node over core and formats only.',
    ),
  },
);
