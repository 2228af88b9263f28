import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, makeKey, tempDir } from '../../helpers/tmp.js';
import { fail, ok, startTestServer, type TestServer } from '../../helpers/http-server.js';

/**
 * `cr api` on par with `gh api` (docs/cli-contract.md "cr api"): --paginate, -H, --include, --jq and the
 * GET default for fields on a GET-only path. The real local server (`--local` over a demo
 * store: 120 nurture sequences) wherever it can answer; a scripted server only for a 405
 * and to see the request headers as they arrive.
 */
let store: string;
const local = (args: string[]) => runCli(['--local', 'api', ...args], { env: { CR_STORE: store } });

beforeAll(() => {
  store = `${tempDir('cr-api-')}/store.json`;
});
afterAll(() => cleanupTempDirs());

describe('cr api --paginate', () => {
  it('120 sequences, 7 a page: one merged {sequences, total} with 120 distinct items', async () => {
    const r = await local(['/content/nurture-sequences', '-F', 'limit=7', '--paginate']);
    expect(r.exitCode, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { sequences: { contentId: string }[]; total: number };
    expect(out.total).toBe(120);
    expect(out.sequences).toHaveLength(120);
    expect(new Set(out.sequences.map((s) => s.contentId)).size).toBe(120);
    const all = JSON.parse((await runCli(['--local', 'nurture', 'list', '--all', '--json'], { env: { CR_STORE: store } })).stdout) as { sequences: unknown[] };
    expect(out.sequences).toEqual(all.sequences);
  });

  it('with --jsonl the items stream, one a line', async () => {
    const r = await local(['/content/nurture-sequences', '-F', 'limit=7', '-F', 'offset=100', '--paginate', '--jsonl']);
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { contentId: string });
    expect(lines).toHaveLength(20);
  });

  it('--jq filters the merged list', async () => {
    const r = await local(['/content/nurture-sequences', '-F', 'limit=50', '--paginate', '--jq', '.sequences | length']);
    expect(r.stdout).toBe('120\n');
  });

  it('a list that does not page by offset is fetched once (learnings: limit only)', async () => {
    const r = await local(['/intelligence/learnings', '-F', 'limit=2', '--paginate']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { learnings: unknown[] }).learnings).toHaveLength(2);
  });

  it('refused on a write', async () => {
    const r = await local(['/content/listeners', '-X', 'POST', '--paginate']);
    expect(r.exitCode).toBe(2);
  });
});

describe('cr api: the method of -F fields', () => {
  it('a path the endpoint table knows as GET-only gets its fields as the query', async () => {
    const r = await local(['/intelligence/learnings', '-F', 'limit=2', '--jq', '.learnings | length']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('2\n');
  });

  it('the same for a path with a parameter the table knows only for POST: POST stays', async () => {
    const r = await local(['/social/posts/00000000-0000-4000-8000-000000000000/schedule', '-F', 'scheduled_at=2031-01-01T00:00:00Z']);
    expect(r.exitCode).toBe(5);
  });
});

describe('cr api: headers and --include', () => {
  const KEY = makeKey('1a2b', '9f0e', '7');
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(ok({ hi: 1 }));
  });
  afterAll(() => server.close());
  const env = () => ({ CR_API_KEY: KEY, CR_BASE_URL: server.baseUrl });

  it("-H adds request headers (repeatable); Authorization stays the profile's key", async () => {
    server.reset();
    server.handle(ok({ hi: 1 }));
    const r = await runCli(['api', '/x', '-H', 'X-Trace: abc 1', '-H', 'Accept: application/vnd.test+json'], { env: env() });
    expect(r.exitCode, r.stderr).toBe(0);
    const h = server.requests[0]!.headers;
    expect(h['x-trace']).toBe('abc 1');
    expect(h.accept).toBe('application/vnd.test+json');
    expect(h.authorization).toBe(`Bearer ${KEY}`);
  });

  it('-H Authorization is refused with exit 2 and nothing is sent', async () => {
    server.reset();
    const r = await runCli(['api', '/x', '-H', `authorization: Bearer ${makeKey('9', '9', '9')}`], { env: env() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('-H Authorization is refused');
    expect(server.requests).toHaveLength(0);
  });

  it('a malformed -H is a usage error', async () => {
    const r = await runCli(['api', '/x', '-H', 'no colon'], { env: env() });
    expect(r.exitCode).toBe(2);
  });

  it('a 405 on the POST that fields imply says to add -X GET', async () => {
    server.reset();
    server.handle(fail(405, 'Method not allowed', 'METHOD_NOT_ALLOWED'));
    const r = await runCli(['api', '/not/in/the/table', '-F', 'limit=2'], { env: env() });
    expect(server.requests[0]!.method).toBe('POST');
    expect(r.stderr).toContain('add -X GET');
  });
});
