// `prepack` of the checkout's package.json: `npm pack` and `npm publish` run in the checkout
// would ship package.json as it is, with `prepare` and the build scripts a clone needs, and
// npm 11 warns about them on every install of the package ("install scripts not yet covered by
// allowScripts"). The package to publish is the one scripts/pack.mjs stages (docs/install.md).
// scripts/pack.mjs and the benches pack with --ignore-scripts, which skips this.
console.error(
  'cr: `npm pack` and `npm publish` in the checkout would ship its build scripts; run `npm run build:package` ' +
    'and publish the tarball it prints (npm publish ./dist/cr-cli-<version>.tgz)',
);
process.exit(1);
