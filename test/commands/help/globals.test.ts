import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../../src/cli.js';
import { createContext } from '../../../src/cli/context.js';
import { createIO } from '../../../src/io/streams.js';
import { commandPathOf, GLOBALS_OF, globalsOf } from '../../../src/cli/globals.js';
import { runCli } from '../../helpers/run-cli.js';

/** Help offers each command the global options it honours (src/cli/globals.ts), and no others. */
describe('global options per command', () => {
  const leaves = async () => {
    const env = { HOME: '/nonexistent' };
    const io = createIO(env, { out: { write: () => {} }, err: { write: () => {} }, stdin: Readable.from([]), isTTY: { out: false, err: false, in: false } });
    const program = await buildProgram(createContext(env, io), [], true);
    const found: Command[] = [];
    const walk = (c: Command) => (c.commands.length ? c.commands.forEach(walk) : found.push(c));
    program.commands.forEach(walk);
    return { program, leaves: found };
  };

  it('every command is in the table, and the table names only commands and options that exist', async () => {
    const { program, leaves: all } = await leaves();
    const paths = all.map(commandPathOf);
    expect(paths.filter((p) => !(p in GLOBALS_OF))).toEqual([]);
    expect(Object.keys(GLOBALS_OF).filter((p) => !paths.includes(p))).toEqual([]);
    const longs = new Set(program.options.map((o) => o.long));
    for (const c of all) for (const flag of globalsOf(c)) expect(longs.has(flag), `${commandPathOf(c)}: ${flag}`).toBe(true);
  });

  it("a command's help lists the ones it honours under Global Options, once", async () => {
    const serve = (await runCli(['serve', '--help'])).stdout;
    expect(serve.slice(serve.indexOf('Global Options:'))).not.toMatch(/--(csv|jq|profile|json)\b/);
    const login = (await runCli(['auth', 'login', '--help'])).stdout;
    const globals = login.slice(login.indexOf('Global Options:'));
    expect(globals).toContain('--base-url');
    expect(globals).not.toContain('--csv');
    expect(login.match(/Global Options:/g)).toHaveLength(1);
  });
});
