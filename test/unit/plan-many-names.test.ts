import { describe, expect, it } from 'vitest';
import { readCsv, readJsonl } from '../../src/bulk/read-plan.js';
import { soak } from '../helpers/soak.js';

/**
 * A plan's problem lines stay short however many unknown names a row has (docs/cli-contract.md
 * "For CI jobs"): a JSON Lines object with a million unknown keys, or a CSV header of a million
 * columns, once made one stderr line longer than the plan itself. 20,000 names in `npm test`
 * (a list of them all is ~190 KB, far past the bound), 200,000 in `npm run test:soak`.
 */
const MANY = soak(20_000, 200_000);

describe('plan problems with many unknown names', () => {
  it('JSON Lines: the first few unknown fields are named, the rest counted', () => {
    const obj = Object.fromEntries(Array.from({ length: MANY }, (_, i) => [`k${i}`, 1]));
    const { problems } = readJsonl(`${JSON.stringify(obj)}\n`);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message.length).toBeLessThan(1000);
    expect(problems[0]!.message).toBe(`unknown fields "k0", "k1", "k2" and ${(MANY - 3).toLocaleString('en-US')} more`);
  });

  it('JSON Lines: one or two unknown fields are named as before', () => {
    expect(readJsonl('{"id":"x","at":"y","foo":1}\n').problems[0]!.message).toBe('unknown field "foo"');
  });

  it('CSV: a header of many unknown columns names a few and counts the rest', async () => {
    const { problems } = await readCsv(`id,at,${Array.from({ length: MANY }, (_, i) => `c${i}`).join(',')}\n`);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message.length).toBeLessThan(1000);
    expect(problems[0]!.message).toContain(`unknown "c0", "c1", "c2" and ${(MANY - 3).toLocaleString('en-US')} more`);
  });
});
