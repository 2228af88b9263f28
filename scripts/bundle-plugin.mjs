// The esbuild plugin that keeps a dependency's eager require off cr's start-up path
// (scripts/bundle.mjs uses it). It edits no dependency's source: it only hands commander a
// module that loads on first use.

/**
 * commander requires node:child_process for executable subcommands, which cr has none of:
 * it gets a proxy that loads the module on first use.
 */
export const startupPlugin = {
  name: 'cr-startup',
  setup(b) {
    b.onResolve({ filter: /^node:child_process$/ }, (a) =>
      a.importer.includes('/node_modules/commander/') ? { path: 'node:child_process', namespace: 'cr-lazy' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'cr-lazy' }, (a) => ({
      contents: `let m; module.exports = new Proxy({}, { get: (_, k) => (m ??= require(${JSON.stringify(a.path)}))[k] });`,
      loader: 'js',
    }));
  },
};
