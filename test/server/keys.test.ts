import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { KeyError, buildApiKey } from '../../src/server/domain/keys.js';
import type { KeyErrorKind } from '../../src/server/domain/keys.js';
import { initStore } from '../../src/server/ops/init-store.js';
import { demoStore, DEMO } from '../../src/server/ops/seed.js';
import { emptyStore } from '../../src/server/store/collections.js';
import { openStore } from '../../src/server/store/open-store.js';
import { fixedClock } from '../../src/server/domain/clock.js';
import { asCliError } from '../../src/local/errors.js';
import { exitCodeOf } from '../../src/errors.js';
import { runCli } from '../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';

afterAll(() => cleanupTempDirs());

const data = await openStore({ memory: demoStore(fixedClock('2025-06-15T12:00:00Z')) });
const NO_SUCH = '00000000-0000-4000-8000-000000000000';

describe('key requests fail with a KeyError of a kind', () => {
  const cases: [KeyErrorKind, () => unknown][] = [
    ['unknown-role', () => buildApiKey(data, { role: 'owner' as never, websiteId: DEMO.websiteId })],
    ['scope', () => buildApiKey(data, { role: 'viewer', websiteId: DEMO.websiteId, agencyId: DEMO.agencyId })],
    ['scope', () => buildApiKey(data, { role: 'viewer' })],
    ['unknown-website', () => buildApiKey(data, { role: 'viewer', websiteId: NO_SUCH })],
    ['unknown-agency', () => buildApiKey(data, { role: 'viewer', agencyId: NO_SUCH })],
    ['unknown-user', () => buildApiKey(data, { role: 'viewer', websiteId: DEMO.websiteId, userId: NO_SUCH })],
    ['no-user', async () => buildApiKey(await openStore({ memory: { ...emptyStore(), agencies: [{ id: 'a1', name: 'A' }] } }), { role: 'viewer', agencyId: 'a1' })],
  ];
  it.each(cases)('%s', async (kind, make) => {
    let caught: unknown;
    try {
      await make();
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(KeyError);
    expect((caught as KeyError).kind).toBe(kind);
  });
});

describe('the CLI exit code comes from the kind, not the words', () => {
  it.each([
    ['unknown-role', 2],
    ['scope', 2],
    ['unknown-website', 2],
    ['unknown-agency', 2],
    ['unknown-user', 2],
    ['unknown-key', 2],
    ['no-user', 1],
  ] as [KeyErrorKind, number][])('%s → exit %i', async (kind, code) => {
    expect(exitCodeOf(await asCliError(new KeyError(kind, 'whatever the words')))).toBe(code);
  });

  it('a plain Error that reads like a key problem is not turned into a usage error', async () => {
    const err = new Error('No API key with id x');
    expect(await asCliError(err)).toBe(err);
  });

  it('cr local keys: an unknown id or website exits 2, naming it (built CLI)', async () => {
    const store = join(tempDir('cr-keys-'), 'store.json');
    await initStore(store, { demo: true });
    const revoke = await runCli(['local', 'keys', 'revoke', 'nope', '--store', store]);
    expect(revoke.exitCode).toBe(2);
    expect(revoke.stderr).toContain('No API key with id nope');
    const create = await runCli(['--website', NO_SUCH, 'local', 'keys', 'create', '--role', 'viewer', '--store', store]);
    expect(create.exitCode).toBe(2);
    expect(create.stderr).toContain(`Unknown website ${NO_SUCH}`);
  });
});
