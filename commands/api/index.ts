import { Command, Option } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { collect, withExamples } from '../../src/cli/options.js';
import { scriptable } from '../../src/output/flags.js';
import { api } from './request.js';

interface Flags {
  method?: string;
  field?: string[];
  header?: string[];
  input?: string;
  include?: boolean;
  paginate?: boolean;
}

/** `cr api PATH`, on par with `gh api` (docs/cli-contract.md "cr api"): -X, -F, -H, --input, --paginate, -i, --jq. */
export function register(program: Command, ctx: Context): void {
  program.addCommand(
    scriptable(
      withExamples(
        new Command('api')
          .description('call any path under the base URL and print the envelope data as JSON')
          .argument('<path>', 'path under the base URL, e.g. /finance/summary')
          .addOption(
            new Option(
              '-X, --method <method>',
              'HTTP method (default GET; with -F fields POST, or GET on a path the endpoint table knows as GET only; POST with --input)',
            ),
          )
          .option('-F, --field <key=value>', 'typed field: numbers, true/false/null parsed, @file reads a file; query for GET, body otherwise', collect)
          .option('-H, --header <name: value>', "add a request header (repeat); Authorization is refused, the profile's key is sent", collect)
          .option('--input <file>', 'raw JSON request body from a file, or - for stdin')
          .option('--paginate', 'GET every page of a limit/offset list and print one merged list (items stream with --jsonl)')
          .option('-i, --include', 'print the status line and response headers on stderr, and the whole response body')
          .action((path: string, f: Flags) =>
            api(ctx, {
              path,
              method: f.method,
              fields: f.field ?? [],
              headers: f.header ?? [],
              input: f.input,
              include: Boolean(f.include),
              paginate: Boolean(f.paginate),
            }),
          ),
        [
          'cr api /finance/summary',
          "cr api /intelligence/learnings -F limit=2 --jq '.learnings[].summary'",
          'cr api /content/nurture-sequences -F limit=200 --paginate --jsonl',
          'cr api /content/listeners -F name=Feed -F source_type=rss -F query_config[feed_url]=https://example.com/feed.xml',
        ],
      ),
      { jq: true, jsonl: true },
    ),
  );
}
