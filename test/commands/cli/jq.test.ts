import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeJq } from '../../../src/render/jq.js';
import { testIO } from '../../helpers/io.js';
import { makeKey } from '../../helpers/tmp.js';
import { createContext } from '../../../src/cli/context.js';
import { runProcessSync } from '../../helpers/process.js';
import { useHarness } from '../../helpers/harness.js';
import { onPostgres } from '../../helpers/store-under-test.js';
import { KEYS } from '../../helpers/fixture-store.js';

/**
 * --jq runs jq itself (jq-web: jq 1.7 in WebAssembly). The cases are examples of the jq 1.7
 * manual, the part scripts use with cr (paths, iteration, select/map, strings, formats,
 * reduce); each expected output is the manual's, printed the --jq way (`jq -r -c`). Where
 * the machine has jq (/usr/bin/jq), its output for the same program and input must agree.
 */
const MANUAL: [program: string, input: string, output: string[]][] = [
  ['.foo', '{"foo": 42, "bar": "less interesting data"}', ['42']],
  ['.foo?', '{"notfoo": true}', ['null']],
  ['.[0]', '[{"name":"JSON", "good":true}, {"name":"XML", "good":false}]', ['{"name":"JSON","good":true}']],
  ['.[2:4]', '["a","b","c","d","e"]', ['["c","d"]']],
  ['.[] | .name', '[{"name":"JSON", "good":true}, {"name":"XML", "good":false}]', ['JSON', 'XML']],
  ['.user, .projects[]', '{"user":"stedolan", "projects": ["jq", "wikiflow"]}', ['stedolan', 'jq', 'wikiflow']],
  ['{user, title: .titles[]}', '{"user":"stedolan","titles":["JQ Primer", "More JQ"]}', ['{"user":"stedolan","title":"JQ Primer"}', '{"user":"stedolan","title":"More JQ"}']],
  ['.[] | length', '[[1,2], "string", {"a":2}, null, -5]', ['2', '6', '1', '0', '5']],
  ['keys', '{"abc": 1, "abcd": 2, "Foo": 3}', ['["Foo","abc","abcd"]']],
  ['map(has("foo"))', '[{"foo": 42}, {}]', ['[true,false]']],
  ['map(.+1)', '[1,2,3]', ['[2,3,4]']],
  ['del(.foo)', '{"foo": 42, "bar": 9001, "baz": 42}', ['{"bar":9001,"baz":42}']],
  ['to_entries', '{"a": 1, "b": 2}', ['[{"key":"a","value":1},{"key":"b","value":2}]']],
  ['with_entries(.key |= "KEY_" + .)', '{"a": 1, "b": 2}', ['{"KEY_a":1,"KEY_b":2}']],
  ['map(select(. >= 2))', '[1,5,3,0,7]', ['[5,3,7]']],
  ['.[] | select(.id == "second")', '[{"id": "first", "val": 1}, {"id": "second", "val": 2}]', ['{"id":"second","val":2}']],
  ['add', '["a","b","c"]', ['abc']],
  ['any', '[true, false]', ['true']],
  ['[range(0; 10; 3)]', 'null', ['[0,3,6,9]']],
  ['sort_by(.foo)', '[{"foo":4, "bar":10}, {"foo":3, "bar":10}, {"foo":2, "bar":1}]', ['[{"foo":2,"bar":1},{"foo":3,"bar":10},{"foo":4,"bar":10}]']],
  ['group_by(.foo)', '[{"foo":1, "bar":10}, {"foo":3, "bar":100}, {"foo":1, "bar":1}]', ['[[{"foo":1,"bar":10},{"foo":1,"bar":1}],[{"foo":3,"bar":100}]]']],
  ['unique_by(length)', '["chunky", "bacon", "kitten", "cicada", "asparagus"]', ['["bacon","chunky","asparagus"]']],
  ['max_by(.foo)', '[{"foo":1, "bar":14}, {"foo":2, "bar":3}]', ['{"foo":2,"bar":3}']],
  ['[.[]|startswith("foo")]', '["fo", "foo", "barfoo", "foobar", "barfoob"]', ['[false,true,false,true,false]']],
  ['join(", ")', '["a","b,c,d","e"]', ['a, b,c,d, e']],
  ['ascii_downcase', '"useful but not for é"', ['useful but not for é']],
  ['"The input was \\(.), which is one less than \\(.+1)"', '42', ['The input was 42, which is one less than 43']],
  ['[.[]|tojson]', '[1, "foo", ["foo"]]', ['["1","\\"foo\\"","[\\"foo\\"]"]']],
  ['@csv', '[1, "a,b"]', ['1,"a,b"']],
  ['@tsv', '["a", "b c", 1]', ['a\tb c\t1']],
  ['@sh "echo \\(.)"', `"O'Hara's Ale"`, [`echo 'O'\\''Hara'\\''s Ale'`]],
  ['@base64', '"This is a message"', ['VGhpcyBpcyBhIG1lc3NhZ2U=']],
  ['test("foo")', '"foo"', ['true']],
  ['[.[] | .a?]', '[{}, true, {"a":1}]', ['[null,1]']],
  ['.foo // 42', '{}', ['42']],
  ['[limit(3; .[])]', '[0,1,2,3,4,5,6,7,8,9]', ['[0,1,2]']],
  ['first(range(.))', '10', ['0']],
  ['reduce .[] as $item (0; . + $item)', '[1,2,3,4,5]', ['15']],
  ['.[] as [$a, $b] | {a: $a, b: $b}', '[[0], [0, 1], [2, 1, 0]]', ['{"a":0,"b":null}', '{"a":0,"b":1}', '{"a":2,"b":1}']],
  ['if . == 0 then "zero" elif . == 1 then "one" else "many" end', '2', ['many']],
  ['fromdate', '"2015-03-05T23:51:47Z"', ['1425599507']],
  ['.[] | tostring', '[1, "1", [1]]', ['1', '1', '[1]']],
  ['empty', '{}', []],
];

const run = async (program: string, input: string, tty = false) => {
  const io = testIO({ tty });
  await writeJq(io, JSON.parse(input), program);
  return io.stdout();
};
const lines = (out: string) => (out === '' ? [] : out.replace(/\n$/, '').split('\n'));
const SYSTEM_JQ = '/usr/bin/jq';

const hasSystemJq = existsSync(SYSTEM_JQ);

// jq's own language, on no server: no store can change it, so only the JSON pass runs it.
describe.skipIf(onPostgres())('--jq against the jq 1.7 manual', () => {
  // The examples are about jq's language, not about how cr starts jq (the cases below and
  // test/e2e/jq-limits.test.ts are): they all go through cr's jq in one run (a worker thread
  // loads jq's WebAssembly once rather than 43 times), example i over input i of an array,
  // with a line no example prints between one example's output and the next. Each example's
  // lines are then checked against the manual's and, where installed, the system jq's.
  const SEPARATOR = '-- end of one example --';
  const program = MANUAL.map(([p], i) => `(.[${i}] | (${p}))`).join(`, ${JSON.stringify(SEPARATOR)}, `);
  const input = `[${MANUAL.map(([, inp]) => inp).join(',')}]`;
  const byExample = (out: string) => {
    const all = lines(out);
    const parts: string[][] = [[]];
    for (const line of all) {
      if (line === SEPARATOR) parts.push([]);
      else parts.at(-1)!.push(line);
    }
    expect(parts, 'one part per example').toHaveLength(MANUAL.length);
    return parts;
  };
  let ours: string[][] = [];
  let system: string[][] | undefined;
  beforeAll(async () => {
    ours = byExample(await run(program, input));
    if (hasSystemJq) system = byExample(runProcessSync(SYSTEM_JQ, ['-r', '-c', program], { input }).stdout);
  });

  it.each(MANUAL.map((c, i) => [...c, i] as const))('%s', (program, _input, output, i) => {
    expect(ours[i]).toEqual(output);
    if (system) expect(ours[i], `${program}: the system jq`).toEqual(system[i]);
  });

  it('a string with a newline prints raw, as `jq -r` does; an empty string is an empty line', async () => {
    expect(await run('.a, .b', '{"a": "x\\ny", "b": ""}')).toBe('x\ny\n\n');
  });

  it('on a terminal, control characters in strings are shown escaped, never sent raw', async () => {
    const input = JSON.stringify({ t: 'red\u001b[31m!\u0007' });
    expect(await run('.t', input, true)).toBe('red\\x1b[31m!\\x07\n');
    expect(await run('.t', input, false)).toBe('red\u001b[31m!\u0007\n');
  });

  it('jq keeps the --timeout deadline a request started: one already spent stops even `.` (exit 8, TIMEOUT)', async () => {
    const spent = { at: 0, seconds: 3 };
    const err = await writeJq(testIO(), { a: 1 }, '.', { timeout: 3, deadline: spent }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'TIMEOUT', exitCode: 8, message: '--jq: the program was still running when --timeout 3 s ran out; nothing was printed' });
    const io = testIO();
    await writeJq(io, { a: 1 }, '.a', { timeout: 3 });
    expect(io.stdout()).toBe('1\n');
    // The first client starts the deadline and leaves it in the globals render receives.
    const ctx = createContext({}, testIO());
    ctx.setGlobals({ timeout: 3 });
    expect(ctx.globals.deadline).toBeUndefined();
    await ctx.connect({ baseUrl: 'http://127.0.0.1:9/api/v1', key: makeKey() });
    expect(ctx.globals.deadline).toMatchObject({ seconds: 3 });
    await ctx.dispose();
  });

  it("jq's $ENV is not the process environment: the key cannot be read back", async () => {
    const io = testIO();
    await writeJq(io, {}, '$ENV, env | tostring');
    expect(io.stdout()).not.toContain('CR_API_KEY');
    expect(io.stdout()).not.toMatch(/cr_[0-9a-f]{40}/);
  });
});

const h = useHarness();

// jq over what a command printed: the commands' data runs over both stores in their own files,
// so only the JSON pass runs jq on it.
describe.skipIf(onPostgres())('--jq on commands', () => {
  it('filters what --json prints (strings raw, other values compact, one a line)', async () => {
    const json = JSON.parse((await h.cr(['nurture', 'list', '--limit', '3', '--json'])).stdout) as { sequences: { contentId: string }[]; total: number };
    const r = await h.cr(['nurture', 'list', '--limit', '3', '--jq', '.sequences[].contentId, .total, {n: (.sequences | length)}']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe([...json.sequences.map((s) => s.contentId), String(json.total), '{"n":3}'].join('\n') + '\n');
    expect(r.stderr).toBe('');
  });

  it("an expression that does not compile is exit 2 with jq's message, before anything is sent", async () => {
    h.seen.length = 0;
    const r = await h.cr(['finance', 'summary', '--jq', '.summaries[']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('error: --jq: syntax error, unexpected end of file (Unix shell quoting issues?) at <top-level>, line 1; see the jq manual, https://jqlang.org/manual/ (USAGE)\n');
    expect(r.stdout).toBe('');
    expect(h.seen).toEqual([]);
  });

  it("a program that fails on the data is exit 1 with jq's message", async () => {
    const r = await h.cr(['finance', 'summary', '--jq', '.summaries | error("stop here")']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('error: --jq: stop here (JQ)\n');
  });

  it('what the program printed before a runtime error is printed, then the error (as jq does)', async () => {
    const r = await h.cr(['nurture', 'list', '--limit', '2', '--jq', '.sequences[].status, error("boom"), "never"']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(2);
    expect(r.stdout).not.toContain('never');
    expect(r.stderr).toBe('error: --jq: boom (JQ)\n');
    const obj = await h.cr(['nurture', 'list', '--limit', '1', '--jq', '.total, error({why: 1}) # a comment']);
    expect(obj.exitCode).toBe(1);
    expect(obj.stdout).toMatch(/^\d+\n$/);
    expect(obj.stderr).toMatch(/^error: --jq: .*\{"why":1\}.*\(JQ\)\n$/);
  });

  it('--json --jq is --jq; auth status takes it too, with the key masked', async () => {
    const a = await h.cr(['auth', 'status', '--json', '--jq', '.key']);
    expect(a.exitCode, a.stderr).toBe(0);
    expect(a.stdout).toMatch(/^cr_e+…e+\n$/);
    expect(a.stdout).not.toContain(KEYS.editor);
  });

  it('a command that prints no data refuses --jq with exit 2', async () => {
    const r = await h.cr(['completion', 'bash', '--jq', '.']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--jq does not apply to `cr completion`');
  });

  /** Every `--jq` example of cr's own --help runs, and prints what `jq -r -c` prints for the same --json. */
  it("cr's --help examples with --jq run and agree with jq over --json", async () => {
    const commands = [
      ['finance', 'summary'],
      ['learnings', 'list'],
      ['nurture', 'list'],
      ['brand', 'subjects'],
      ['crm', 'agents'],
      ['auth', 'status'],
    ];
    let checked = 0;
    for (const words of commands) {
      const help = (await h.cr([...words, '--help'])).stdout;
      for (const m of help.matchAll(/^\s+\$ cr (.+) --jq '([^']+)'$/gm)) {
        const args = m[1]!.split(' ');
        const r = await h.cr([...args, '--jq', m[2]!]);
        expect(r.exitCode, `${m[0]}: ${r.stderr}`).toBe(0);
        if (existsSync(SYSTEM_JQ)) {
          const json = (await h.cr([...args, '--json'])).stdout;
          expect(r.stdout, m[0]).toBe(runProcessSync(SYSTEM_JQ, ['-r', '-c', m[2]!], { input: json }).stdout);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });
});
