// The layers of src/, bottom to top, and what each may import (README "Layout", docs/architecture.md).
// A folder imports only folders below it; the files directly in src/ (app, platform, server, worker,
// demo) compose everything and may import anything. `npm run lint:layers` checks it; CI runs it.
const layers = [
  { name: 'foundation', folders: ['config', 'errors', 'observability'] },
  { name: 'db', folders: ['db'] },
  { name: 'queue', folders: ['queue'] },
  { name: 'domain', folders: ['domain'] },
  { name: 'channels', folders: ['channels', 'imaging'] },
  { name: 'engine', folders: ['engine'] },
  { name: 'http', folders: ['http'] },
  { name: 'adapters', folders: ['rest', 'graphql', 'cli'] },
];

const folderPattern = (folders) => `^src/(${folders.join('|')})/`;

const forbidden = layers.flatMap((layer, i) => {
  const above = layers.slice(i + 1).flatMap((l) => l.folders);
  // Adapters at the top may not import one another: REST, GraphQL and the CLI each stand on the domain.
  const siblings = layer.name === 'adapters' ? layer.folders : [];
  return [
    ...(above.length
      ? [{ name: `${layer.name}-imports-upward`, severity: 'error', from: { path: folderPattern(layer.folders) }, to: { path: folderPattern(above) } }]
      : []),
    {
      name: `${layer.name}-imports-composition`,
      comment: 'The files directly in src/ compose the layers; nothing inside a layer imports them.',
      severity: 'error',
      from: { path: folderPattern(layer.folders) },
      to: { path: '^src/[^/]+\\.ts$' },
    },
    ...siblings.map((folder) => ({
      name: `${folder}-imports-another-adapter`,
      severity: 'error',
      from: { path: `^src/${folder}/` },
      to: { path: folderPattern(siblings.filter((f) => f !== folder)) },
    })),
  ];
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
