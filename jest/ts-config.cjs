// Node 20 cannot load jest.config.ts by itself (type stripping arrived in Node 22.18), and Jest's
// fallback loaders (ts-node, esbuild-register) are not dependencies of this project. tsx, which is,
// compiles it instead: its require hook handles .ts, and Jest is told that Node can now load
// TypeScript. On a Node that strips types natively this does nothing.
if (!process.features.typescript) {
  require('tsx/cjs')
  Object.defineProperty(process.features, 'typescript', { value: 'transform', configurable: true })
}
