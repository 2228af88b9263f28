import { EMBEDDED_JQ } from './jq-source.js';

/**
 * The worker jq runs in (src/render/jq.ts), as CommonJS source for `new Worker(…, { eval: true })`.
 *
 * jq-web collects jq's output one byte at a time into a JavaScript array of numbers (8 bytes a
 * byte) and returns it only when jq ends, so a runaway program (`repeat(1)`) grew the process
 * by gigabytes. Here jq-web's own source is loaded with its two output callbacks pointed at
 * counters: standard output goes into byte chunks, and past `cap` bytes (the response cap,
 * docs/cli-contract.md §5) or `errCap` bytes of warnings the worker tells the main thread,
 * which terminates it (docs/reliability.md "A runaway --jq"). The patch is checked: a jq-web
 * whose callbacks moved fails every --jq loudly instead of running uncapped. In the single
 * executable, jq-web comes from its assets (src/render/jq-source.ts).
 */
export const JQ_WORKER_SOURCE = `'use strict';
const { parentPort, workerData: w } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname } = require('node:path');
const vm = require('node:vm');
const warnings = [];
console.warn = (...args) => void warnings.push(String(args.at(-1)));
let size = 0;
let errSize = 0;
let over = false;
const full = [];
let chunk = new Uint8Array(64 * 1024);
let used = 0;
const stop = (what) => {
  over = true;
  parentPort.postMessage({ over: what });
};
globalThis.__crJqOut = (c) => {
  if (over) return;
  if (++size > w.cap) return stop('output');
  if (used === chunk.length) {
    full.push(chunk);
    chunk = new Uint8Array(Math.min(chunk.length * 2, 16 * 1024 * 1024));
    used = 0;
  }
  chunk[used++] = c;
};
globalThis.__crJqErr = (c) => {
  if (over) return false;
  if (++errSize > w.errCap) return stop('warnings'), false;
  return true;
};
const OUT = 'if (c) outBuffer.push(c)';
const ERR = 'if (c) errBuffer.push(c)';
${EMBEDDED_JQ}
const jqWeb = w.path ? { path: w.path, source: readFileSync(w.path, 'utf8'), require: Module.createRequire(w.path) } : embeddedJq();
const source = jqWeb.source;
if (source.split(OUT).length !== 2 || source.split(ERR).length !== 2) throw new Error('jq-web changed: its output callbacks were not found, so its output cannot be capped');
const patched = source.replace(OUT, 'if (c) __crJqOut(c)').replace(ERR, 'if (c && __crJqErr(c)) errBuffer.push(c)');
const mod = { exports: {} };
vm.runInThisContext(Module.wrap(patched), { filename: jqWeb.path })(mod.exports, jqWeb.require, mod, jqWeb.path, dirname(jqWeb.path));
const output = () => {
  if (size === 0) return undefined;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of [...full, chunk.subarray(0, used)]) {
    bytes.set(c, at);
    at += c.length;
  }
  // jq-web drops the last newline of the output; so does this.
  return bytes[size - 1] === 0x0a ? bytes.subarray(0, size - 1) : bytes;
};
Promise.resolve(mod.exports)
  .then((jq) => {
    jq.raw(w.json, w.expression, ['-r', '-c']);
    if (over) return;
    const out = output();
    parentPort.postMessage({ out, warnings }, out ? [out.buffer] : []);
  })
  .catch((e) => {
    if (over) return;
    // What jq printed before a runtime error is printed too, as jq does (src/render/jq.ts).
    const out = output();
    parentPort.postMessage({ error: { exitCode: e.exitCode, stderr: e.stderr, message: e.message }, out, warnings }, out ? [out.buffer] : []);
  });`;
