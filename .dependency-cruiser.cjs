// The layer rule: each folder of src/ imports only from the folders before it in
// LAYERS (and src/errors.ts, which any layer may use), so a lower layer never depends
// on what is built on it. Cycles fail. Above every layer sit the library's entry
// points — src/index.ts, src/api.ts, src/open-index.ts and src/entry/ (the subpath
// exports) — which no layer but cli imports.
const LAYERS = ['infra', 'uri', 'ladder', 'base', 'html', 'fetch', 'archive', 'store', 'crawl', 'report', 'config', 'cli'];

const layerRules = LAYERS.map((layer, position) => {
  const later = LAYERS.slice(position + 1);
  return later.length === 0
    ? null
    : {
        name: `layer-${layer}`,
        comment: `src/${layer} may import only from ${LAYERS.slice(0, position).join(', ') || 'no other layer'}`,
        severity: 'error',
        from: { path: `^src/${layer}/` },
        to: { path: `^src/(${later.join('|')})/` },
      };
}).filter(Boolean);

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'entry-is-top',
      comment: 'the library entry points (src/entry/, src/index.ts, src/api.ts) are imported by no layer but cli, the top one',
      severity: 'error',
      from: { path: `^src/(${LAYERS.filter((layer) => layer !== 'cli').join('|')})/` },
      to: { path: '^src/(entry/|index\\.ts$|api\\.ts$)' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'infra-is-pure',
      comment: 'src/infra imports no npm package and no node: module',
      severity: 'error',
      from: { path: '^src/infra/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'core'] },
    },
    {
      name: 'uri-is-pure',
      comment: 'src/uri imports no npm package and no node: module',
      severity: 'error',
      from: { path: '^src/uri/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'core'] },
    },
    {
      name: 'ladder-is-pure',
      comment: 'src/ladder may use node:url (domainToASCII) and nothing else from outside',
      severity: 'error',
      from: { path: '^src/ladder/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'core'], pathNot: '^url$' },
    },
    {
      name: 'enter-through-index',
      comment: 'a layer is entered through its index.ts',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { path: '^src/([^/]+)/(?!index\\.ts$)', pathNot: '^src/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
