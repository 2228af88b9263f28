import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import type { Context } from '../../src/context.js';
import { collect, withExamples } from '../../src/cli-kit.js';
import { UsageError } from '../../src/errors.js';
import { readAll } from '../../src/io/streams.js';
import { writeJson } from '../../src/render/json.js';
import { escapeControls } from '../../src/render/escape.js';

interface ApiOptions {
  path: string;
  method?: string;
  fields: string[];
  input?: string;
  include: boolean;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

export function register(program: Command, ctx: Context): void {
  program.addCommand(
    withExamples(
      new Command('api')
        .description('call any path under the base URL and print the envelope data as JSON')
        .argument('<path>', 'path under the base URL, e.g. /finance/summary')
        .addOption(new Option('-X, --method <method>', 'HTTP method (default GET, or POST with -F/--input)'))
        .option('-F, --field <key=value>', 'typed field: numbers, true/false/null parsed, @file reads a file; query for GET, body otherwise (repeatable)', collect)
        .option('--input <file>', 'raw JSON request body from a file, or - for stdin')
        .option('-i, --include', 'print the whole response body, and the HTTP status on stderr')
        .action((path: string, f: { method?: string; field?: string[]; input?: string; include?: boolean }) =>
          api(ctx, { path, method: f.method, fields: f.field ?? [], input: f.input, include: Boolean(f.include) }),
        ),
      ['cr api /finance/summary', 'cr api /content/listeners -F name=Feed -F source_type=rss -F query_config[feed_url]=https://example.com/feed.xml'],
    ),
  );
}

/** `-F count=3` → 3, `-F on=true` → true, `-F x=null` → null, `-F body=@file.txt` → file text. */
export function parseFieldValue(raw: string): unknown {
  if (raw.startsWith('@')) {
    try {
      return readFileSync(raw.slice(1), 'utf8');
    } catch (e) {
      throw new UsageError(`Cannot read ${raw.slice(1)}: ${(e as Error).message}`);
    }
  }
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(raw) && Number.isFinite(Number(raw))) return Number(raw);
  return raw;
}

/** Builds an object from key=value fields; `a[b]=1` nests and `a[]=x` appends. */
export function fieldsToObject(fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const field of fields) {
    const eq = field.indexOf('=');
    if (eq <= 0) throw new UsageError(`-F expects key=value, got "${field}"`);
    const key = field.slice(0, eq);
    const value = parseFieldValue(field.slice(eq + 1));
    const parts = key.match(/^([^[\]]+)((?:\[[^[\]]*\])*)$/);
    if (!parts) throw new UsageError(`-F key is not valid: "${key}"`);
    const path = [parts[1]!, ...[...parts[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)];
    assign(out, path, value);
  }
  return { ...out };
}

function assign(target: Record<string, unknown>, path: string[], value: unknown): void {
  const [head, ...rest] = path;
  if (head === '__proto__' || head === 'constructor' || head === 'prototype') throw new UsageError(`-F key part "${head}" is not allowed`);
  if (rest.length === 0) {
    target[head!] = value;
    return;
  }
  if (rest[0] === '' && rest.length === 1) {
    const arr = Array.isArray(target[head!]) ? (target[head!] as unknown[]) : [];
    arr.push(value);
    target[head!] = arr;
    return;
  }
  const child = target[head!] && typeof target[head!] === 'object' ? (target[head!] as Record<string, unknown>) : {};
  target[head!] = child;
  assign(child, rest, value);
}

export async function api(ctx: Context, o: ApiOptions): Promise<void> {
  const method = (o.method ?? (o.fields.length || o.input ? 'POST' : 'GET')).toUpperCase();
  if (!METHODS.includes(method)) throw new UsageError(`-X must be one of ${METHODS.join(', ')}; got "${o.method}"`);
  if (o.input && o.fields.length && method !== 'GET') throw new UsageError('Use either --input or -F fields for the body, not both');
  const fields = fieldsToObject(o.fields);
  let body: unknown;
  if (o.input) {
    const text = o.input === '-' ? await readAll(ctx.io.stdin) : readInput(o.input);
    try {
      body = JSON.parse(text);
    } catch (e) {
      throw new UsageError(`--input is not valid JSON: ${(e as Error).message}`);
    }
  } else if (method !== 'GET' && method !== 'HEAD') {
    body = fields;
  }
  const query = method === 'GET' || method === 'HEAD' ? fields : {};
  if (ctx.globals.website && method === 'GET') query.website_id ??= ctx.globals.website;
  const client = await ctx.api();
  const url = client.resolve(o.path.replace(/^\/?api\/v1(?=\/)/, ''), query);
  const res = await client.send(method, url, body);
  if (o.include) {
    ctx.io.err.write(`HTTP ${res.status}\n`);
    // A body that is no JSON is shown as text: on a terminal with its controls escaped.
    if (res.body === undefined) ctx.io.out.write((ctx.io.tty.out ? escapeControls(res.text, { multiline: true }) : res.text) + '\n');
    else writeJson(ctx.io, res.body);
    client.unwrap(method, url, res);
    return;
  }
  const { data } = client.unwrap(method, url, res);
  writeJson(ctx.io, data);
}

function readInput(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`Cannot read --input ${file}: ${(e as Error).message}`);
  }
}
