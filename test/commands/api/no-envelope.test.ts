import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/harness.js';

/**
 * `cr api` prints a success's JSON body that has no envelope as it is, as `gh api` does
 * (docs/commands.md "cr api"): the server's own /openapi.json is one.
 */
const h = useHarness();

describe('cr api and a body without an envelope', () => {
  it('/openapi.json prints the document as it is, exit 0; --verbose says there was no envelope', async () => {
    const r = await h.cr(['api', '/openapi.json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain('/finance/summary');
    expect(r.stderr).not.toContain('envelope');
    const verbose = await h.cr(['api', '/openapi.json', '--verbose', '--jq', '.openapi']);
    expect(verbose.exitCode, verbose.stderr).toBe(0);
    expect(verbose.stdout).toBe(`${doc.openapi}\n`);
    expect(verbose.stderr).toContain('cr api: the response has no {"success", "data"} envelope; printed whole (parsed and indented as JSON, not byte for byte)');
  });

  it('an enveloped answer still prints only its data, and says nothing of envelopes', async () => {
    const r = await h.cr(['api', '/finance/summary', '--verbose']);
    expect(r.exitCode, r.stderr).toBe(0);
    const data = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(data).not.toHaveProperty('success');
    expect(data).toHaveProperty('summaries');
    expect(r.stderr).not.toContain('envelope');
  });
});
