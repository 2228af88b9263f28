import { readFileSync } from 'node:fs';
import type { Context } from '../../src/cli/context.js';
import { ApiError, ResponseError, UsageError } from '../../src/errors.js';
import type { ApiClient, RawResponse } from '../../src/http/client.js';
import { readAll } from '../../src/io/streams.js';
import { writeJson } from '../../src/render/json.js';
import { writeJsonl } from '../../src/render/jsonl.js';
import { fieldsToObject } from './fields.js';
import { parseHeaders } from './headers.js';
import { chooseMethod } from './method.js';
import { responseData } from './envelope.js';
import { apiPages } from './paginate.js';
import { printData, printHead } from './print.js';

export interface ApiOptions {
  path: string;
  method?: string;
  fields: string[];
  headers: string[];
  input?: string;
  include: boolean;
  paginate: boolean;
}

/** One `cr api` call: flags → method, URL, headers, body → the response in the form asked for. */
export async function api(ctx: Context, o: ApiOptions): Promise<void> {
  const path = o.path.replace(/^\/?api\/v1(?=\/)/, '');
  const { method, defaulted } = chooseMethod(path, { method: o.method, fields: o.fields.length > 0, input: o.input !== undefined });
  if (o.input && o.fields.length && method !== 'GET') throw new UsageError('Use either --input or -F fields for the body, not both');
  if (o.paginate && method !== 'GET') throw new UsageError(`--paginate pages a GET list; this call is ${method}`);
  const headers = parseHeaders(o.headers);
  const fields = fieldsToObject(o.fields);
  let body: unknown;
  if (o.input) body = parseInput(o.input === '-' ? await readAll(ctx.io.stdin) : readInput(o.input));
  else if (method !== 'GET' && method !== 'HEAD') body = fields;
  const reads = method === 'GET' || method === 'HEAD';
  const query = reads ? fields : {};
  // --website on every call (docs/cli-contract.md §2), in the query as every command sends it
  // (src/http/request-params.ts), writes included. A website_id also given in the path or with
  // -F must be the same one: two values would leave the server to pick.
  const website = ctx.globals.website;
  if (website) {
    const inPath = new URLSearchParams(path.split('?')[1] ?? '').getAll('website_id');
    const given = [inPath, fields.website_id].flat().filter((v) => v !== undefined);
    const other = given.find((v) => String(v) !== website);
    if (other !== undefined)
      throw new UsageError(
        `--website ${website} and a website_id of ${JSON.stringify(String(other)).slice(0, 80)} in the call disagree`,
        'give the website once',
      );
    if (inPath.length === 0) query.website_id ??= website;
  }
  const client = await ctx.api();
  if (o.paginate) return paginate(ctx, client, path, query, headers, o.include);
  const url = client.resolve(path, query);
  const res = await client.send(method, url, body, headers);
  if (method === 'HEAD') return head(ctx, client, url, res, o.include);
  if (o.include) {
    printHead(ctx, res);
    if (res.body === undefined) ctx.io.out.write(res.text + '\n');
    else await printData(ctx, res.body);
    client.unwrap(method, url, res);
    return;
  }
  let data: unknown;
  try {
    data = responseData(ctx, client, method, url, res);
  } catch (e) {
    // gh's POST default for fields meets a GET-only path the table does not know (docs/cli-contract.md "cr api").
    if (e instanceof ApiError && e.status === 405 && defaulted && method === 'POST') {
      throw new ApiError(e.status, `${e.message}; -F fields make a POST: add -X GET to send them as the query`, e.method, e.url, {
        code: e.code,
        details: e.details,
        body: e.body,
        apiMessage: e.apiMessage,
      });
    }
    throw e;
  }
  await printData(ctx, data);
}

/**
 * A HEAD's answer has no body by definition (RFC 9110 §9.3.2), so there is no envelope to look
 * for: a 2xx prints nothing (with --include, the status line and headers, as any answer); an
 * error status fails as it does for a GET; any other (a 3xx cr does not follow) is no success.
 */
function head(ctx: Context, client: ApiClient, url: string, res: RawResponse, include: boolean): void {
  if (include) printHead(ctx, res);
  if (res.status >= 200 && res.status < 300) return;
  if (res.status >= 400) client.unwrap('HEAD', url, res);
  throw new ResponseError(`Unexpected response from HEAD ${url}: HTTP ${res.status}`, { status: res.status });
}

/** --paginate: items stream with --jsonl; otherwise one merged list (an object keeps its first page's other fields). */
async function paginate(
  ctx: Context,
  client: ApiClient,
  path: string,
  query: Record<string, unknown>,
  headers: Record<string, string>,
  include: boolean,
): Promise<void> {
  const pages = apiPages({ client, path, query, headers, onResponse: include ? (res) => printHead(ctx, res) : undefined });
  if (ctx.globals.jsonl) {
    for await (const page of pages) writeJsonl(ctx.io, page.items);
    return;
  }
  const all: unknown[] = [];
  let first: { data: unknown; key?: string } | undefined;
  for await (const page of pages) {
    first ??= page;
    all.push(...page.items);
  }
  const merged = first?.key ? { ...(first.data as object), [first.key]: all } : all;
  if (ctx.globals.jq !== undefined) return printData(ctx, merged);
  writeJson(ctx.io, merged);
}

function parseInput(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--input is not valid JSON: ${(e as Error).message}`);
  }
}

function readInput(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`Cannot read --input ${file}: ${(e as Error).message}`);
  }
}
