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

/** Forbid importing the listed layers of our own code and the listed libraries. */
function restrict(ourLayers, libs, why) {
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
      'no-restricted-syntax': [
        'error',
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
          message:
            'Append with append(target, items) from src/core/arrays.ts: a spread passes every item as an argument and overflows the stack on large inputs.',
        },
        {
          selector: "CallExpression[callee.property.name='setState'] Property[key.name='document']",
          message: 'Change the document through a named edit (src/state/edits.ts); load or import through replaceDocument.',
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
    files: ['src/core/**/*.ts'],
    rules: {
      ...restrict(
        ['formats', 'engine', 'state', 'persistence', 'viewport', 'ui', 'workers', 'cli', 'app'],
        uiLibs,
        'src/core imports nothing of ours outside core and no React/three/zustand/dexie.',
      ),
      'no-restricted-globals': ['error', ...domGlobals],
    },
  },
  {
    files: ['src/formats/**/*.ts', 'src/engine/**/*.ts'],
    rules: restrict(
      ['state', 'persistence', 'viewport', 'ui', 'workers', 'cli', 'app'],
      ['react', 'react-dom', 'zustand', 'dexie'],
      'formats and engine import only core (and their own libraries).',
    ),
  },
  {
    files: ['src/state/**/*.ts'],
    rules: restrict(
      ['formats', 'engine', 'persistence', 'viewport', 'ui', 'workers', 'cli', 'app'],
      ['three', 'three/*', 'dexie'],
      'state imports only core; React binding lives in one file.',
    ),
  },
  {
    files: ['src/persistence/**/*.{ts,tsx}', 'src/viewport/**/*.{ts,tsx}', 'src/ui/**/*.{ts,tsx}', 'src/workers/**/*.ts', 'src/cli/**/*.ts'],
    rules: restrict(['app'], [], 'Only the composition root (src/app) imports everything.'),
  },
  {
    // src/build holds the Vite plugins (Node-side, run by vite.config.ts): no runtime code imports them.
    files: ['src/{core,formats,engine,state,persistence,viewport,ui,workers,cli,app}/**/*.{ts,tsx}'],
    rules: restrict(['build'], [], 'src/build is the Vite build (Node-side): the studio and the command line do not import it.'),
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: restrict(
      ['app', 'ui', 'viewport', 'persistence', 'state'],
      ['react', 'react-dom', 'three', '@react-three/*', 'dexie'],
      'The command line runs in Node over core and formats only.',
    ),
  },
);
