import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { StateWriter } from '../../src/bulk/state.js';
import type { PlanRow } from '../../src/bulk/types.js';

// /dev/full accepts open() but every write fails with ENOSPC: a disk that fills mid-run.
describe.runIf(existsSync('/dev/full'))('StateWriter', () => {
  it('a write that fails (disk full) is a STATE_UNWRITABLE error naming the file', async () => {
    const writer = await StateWriter.open('/dev/full');
    const row: PlanRow = { line: 2, id: '00000000-0000-4000-8000-000000000001', at: '2026-12-01T09:00:00Z', when: new Date('2026-12-01T09:00:00Z'), wire: '2026-12-01T09:00:00Z' };
    const err = await writer.record({ row, status: 'scheduled', scheduledAt: row.wire }, new Date()).catch((e: unknown) => e);
    await writer.close();
    expect(err).toMatchObject({ code: 'STATE_UNWRITABLE', exitCode: 1 });
    expect((err as Error).message).toBe('Cannot write the state file /dev/full: ENOSPC: no space left on device, write');
  });
});
