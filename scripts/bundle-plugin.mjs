// The esbuild plugin that keeps dependencies' eager requires off cr's start-up path
// (scripts/bundle.mjs uses it; CONTRIBUTING.md, "undici's edits, and taking an undici release").
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/**
 * Source edits that keep node:http (its client, server, agent and parser modules: ~3 ms of
 * every run) from loading with undici, which uses it for two things cr's requests do not need
 * at load time:
 * - lib/core/util.js compares a stream's constructor with http.IncomingMessage before
 *   destroying it. A stream can only be an IncomingMessage once node:http is loaded, so the
 *   comparison is made only for a constructor of that name;
 * - lib/dispatcher/client.js reads http.maxHeaderSize at load time, for the default of a
 *   Client's maxHeaderSize. That is Node's --max-http-header-size, 16 KiB unless given on the
 *   command line or in NODE_OPTIONS (with dashes or underscores): only then is node:http asked (test/e2e/startup.test.ts
 *   checks 16 KiB against node:http itself).
 * Each edit names the exact text it replaces, and each edited file is pinned by its sha256
 * (undici's version is pinned in package.json for this reason too): when an undici release
 * changes a file under an edit, the build fails naming the file and what to re-check, rather
 * than bundling an edit made for other code (CONTRIBUTING.md, "undici's edits, and taking an undici release").
 * They still pay on every supported Node line: none of these built-ins is loaded by Node
 * itself before a script runs, on 20 to 26 (bench/undici-edits.mjs; docs/benchmarks.md).
 */
const undiciEdits = {
  'lib/core/util.js': [
    ["const { IncomingMessage } = require('node:http')\n", ''],
    [
      'if (Object.getPrototypeOf(stream).constructor === IncomingMessage) {',
      "if (Object.getPrototypeOf(stream).constructor?.name === 'IncomingMessage' && Object.getPrototypeOf(stream).constructor === require('node:http').IncomingMessage) {",
    ],
  ],
  'lib/dispatcher/client.js': [
    [
      "const http = require('node:http')\n",
      "const http = { get maxHeaderSize () { return /max[-_]http[-_]header[-_]size/.test([...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ')) ? require('node:http').maxHeaderSize : 16384 } }\n",
    ],
    [
      `const getDefaultNodeMaxHeaderSize = http &&
  http.maxHeaderSize &&
  Number.isInteger(http.maxHeaderSize) &&
  http.maxHeaderSize > 0
  ? () => http.maxHeaderSize
  : () => { throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid') }`,
      `const getDefaultNodeMaxHeaderSize = () => {
  const size = http.maxHeaderSize
  if (Number.isInteger(size) && size > 0) return size
  throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid')
}`,
    ],
  ],
};

/**
 * What the edits were checked against, and what to re-check when a file changes: the sha256
 * of each file read by an edit (undici 7.30.2). A new release: re-check, then put its hashes.
 */
const undiciChecked = {
  'lib/core/util.js': {
    sha256: '86cf260e28a97ad7e91c75523ac1dec5df95a7cb15bbd9e858be6a60890692b8',
    recheck: 'node:http is still used in util.js only for the IncomingMessage comparison when destroying a stream',
  },
  'lib/dispatcher/client.js': {
    sha256: '84205dc96cb9bf7432c4b3e80f0babaa11d6f4faf24ead3e7d9660e9d8fee0b3',
    recheck: "node:http is still used in client.js only for the default of a Client's maxHeaderSize",
  },
  'lib/dispatcher/client-h2.js': {
    sha256: null, // not edited: only its try/catch around require('node:http2') is relied on
    recheck: "client-h2.js still falls back to `{ constants: {} }` when require('node:http2') throws, and cr still never sets allowH2",
  },
};

/** Fails the build, saying which undici file changed under an edit and what to re-check. */
function undiciChanged(file, why, importer) {
  const { version } = JSON.parse(readFileSync(`${importer.slice(0, importer.lastIndexOf('/undici/'))}/undici/package.json`, 'utf8'));
  return new Error(
    `scripts/bundle-plugin.mjs: undici ${version}'s ${file} ${why}. Its start-up edits were checked against other code: re-check that ${undiciChecked[file]?.recheck ?? "undici still calls node:assert only as assert(value, message), which the bundle's stand-in answers"}, then update undiciEdits/undiciChecked in scripts/bundle-plugin.mjs (CONTRIBUTING.md, "undici's edits, and taking an undici release").`,
  );
}

/**
 * undici checks its invariants with a plain `assert(value)` (no other node:assert method),
 * and requires node:assert at load: with its AssertionError and error-message helpers that is
 * ~1 ms of every run for checks that never fail. This stand-in loads node:assert on the first
 * failing check and throws its AssertionError from the caller's frame.
 */
const assertOnFailure = `module.exports = function assert(value, message) {
  if (value) return;
  if (message instanceof Error) throw message;
  const { AssertionError } = require('node:assert');
  throw new AssertionError({ message, actual: value, expected: true, operator: '==', stackStartFn: assert });
};`;

/**
 * Keeps two of the dependencies' eager requires off the start-up path:
 * - undici loads node:http2 (and with it tls and crypto, ~10 ms) at require time, inside a
 *   try/catch that falls back to "no HTTP/2". cr speaks HTTP/1.1 only (no allowH2), so the
 *   bundle hands undici the fallback;
 * - commander requires node:child_process for executable subcommands, which cr has none
 *   of: it gets a proxy that loads the module on first use.
 */
export const startupPlugin = {
  name: 'cr-startup',
  setup(b) {
    b.onResolve({ filter: /^node:http2$/ }, (a) => {
      if (!a.importer.includes('/node_modules/undici/')) return undefined;
      const file = a.importer.slice(a.importer.lastIndexOf('/undici/') + '/undici/'.length);
      const fallback = "try {\n  http2 = require('node:http2')\n} catch {\n  // @ts-ignore\n  http2 = { constants: {} }\n}";
      if (file !== 'lib/dispatcher/client-h2.js' || !readFileSync(a.importer, 'utf8').includes(fallback))
        throw undiciChanged(file, 'requires node:http2 other than in the try/catch the bundle leaves out', a.importer);
      return { path: 'node:http2', namespace: 'cr-absent' };
    });
    b.onLoad({ filter: /.*/, namespace: 'cr-absent' }, (a) => ({
      contents: `throw new Error(${JSON.stringify(`${a.path} is left out of the cr bundle`)});`,
      loader: 'js',
    }));
    b.onResolve({ filter: /^node:assert$/ }, (a) => {
      if (!a.importer.includes('/node_modules/undici/')) return undefined;
      // The stand-in is a plain assert(value, message): a file calling one of node:assert's methods needs the real one.
      if (/\bassert\s*\.\s*\w+\s*\(/.test(readFileSync(a.importer, 'utf8')))
        throw undiciChanged(a.importer.slice(a.importer.lastIndexOf('/undici/') + '/undici/'.length), 'calls a method of node:assert', a.importer);
      return { path: 'node:assert', namespace: 'cr-assert' };
    });
    b.onLoad({ filter: /.*/, namespace: 'cr-assert' }, () => ({ contents: assertOnFailure, loader: 'js' }));
    b.onResolve({ filter: /^node:child_process$/ }, (a) =>
      a.importer.includes('/node_modules/commander/') ? { path: 'node:child_process', namespace: 'cr-lazy' } : undefined,
    );
    b.onLoad({ filter: /\/node_modules\/undici\/lib\/(core\/util|dispatcher\/client)\.js$/ }, async (a) => {
      const file = Object.keys(undiciEdits).find((f) => a.path.endsWith(`/undici/${f}`));
      let text = await readFile(a.path, 'utf8');
      const sha256 = createHash('sha256').update(text).digest('hex');
      if (sha256 !== undiciChecked[file].sha256) throw undiciChanged(file, `is not the file its edits were checked against (sha256 ${sha256})`, a.path);
      for (const [from, to] of undiciEdits[file]) {
        if (!text.includes(from)) throw undiciChanged(file, `no longer holds ${JSON.stringify(from.slice(0, 60))}`, a.path);
        text = text.replace(from, to);
      }
      return { contents: text, loader: 'js' };
    });
    b.onLoad({ filter: /.*/, namespace: 'cr-lazy' }, (a) => ({
      contents: `let m; module.exports = new Proxy({}, { get: (_, k) => (m ??= require(${JSON.stringify(a.path)}))[k] });`,
      loader: 'js',
    }));
  },
};
