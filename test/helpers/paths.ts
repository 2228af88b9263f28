import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The project folder, the launcher the package installs, and the package version. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'cr.js');
export const PKG_VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/**
 * The Node that process-level tests run the CLI with: CR_TEST_NODE (.ci/run sets it to each
 * supported Node line, scripts/node-lines.sh), else the Node running the tests.
 */
export const NODE = process.env.CR_TEST_NODE || process.execPath;
/** The server fixture store (test/server/fixtures/store.json): copy it, never write it. */
export const FIXTURE_STORE = join(ROOT, 'test', 'server', 'fixtures', 'store.json');
