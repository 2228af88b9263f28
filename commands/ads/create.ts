import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { choice, collect, completeWith, uuidArg, withExamples } from '../../src/cli/options.js';
import { requestSchemas } from '../../src/api/generated/request-schemas.js';
import { scriptable } from '../../src/output/flags.js';
import { UsageError } from '../../src/errors.js';
import { routes } from '../../src/api/routes.js';
import type { BodyOf } from '../../src/api/io-types.js';
import type { AdCreative } from '../../src/api/schemas/ads.js';
import { printDryRun } from '../../src/cli/dry-run.js';
import { readAll } from '../../src/io/streams.js';
import { render } from '../../src/render/output.js';
import { dateColumn, shownTime } from '../../src/render/dates.js';

// The values the server accepts, from the endpoint table (src/api/schemas/ads.ts), without zod.
const { ad_format, platform } = requestSchemas.createAdCreative.body.properties;
const AD_FORMATS = ad_format.enum;
const AD_PLATFORMS = platform.enum;

interface Flags {
  format?: string;
  adFormat?: string;
  name?: string;
  campaign?: string;
  campaignId?: string;
  headline?: string;
  description?: string;
  url?: string;
  destinationUrl?: string;
  image?: string[];
  productLine?: string;
  productLineId?: string;
  platform?: string;
  body?: string;
  dryRun?: boolean;
}

export const createCommand = (ctx: Context) =>
  scriptable(
    withExamples(
      new Command('create')
        .description('create an ad creative (flags per body field, or --body FILE; flags win over the file)')
        .addOption(completeWith(new Option('--format <format>', `ad_format: ${AD_FORMATS.join(', ')}`).argParser(choice('--format', AD_FORMATS)), AD_FORMATS))
        .addOption(completeWith(new Option('--ad-format <format>', 'same as --format').argParser(choice('--ad-format', AD_FORMATS)), AD_FORMATS))
        .option('--name <name>', 'name of the creative')
        .option('--campaign <id>', 'campaign_id')
        .option('--campaign-id <id>', 'same as --campaign')
        .option('--headline <text>', 'headline')
        .option('--description <text>', 'description')
        .option('--url <url>', 'destination_url (http or https)')
        .option('--destination-url <url>', 'same as --url')
        .option('--image <url>', 'an image URL (repeat for several)', collect)
        .option('--product-line <id>', 'product_line_id (uuid)', uuidArg('--product-line'))
        .option('--product-line-id <id>', 'same as --product-line', uuidArg('--product-line-id'))
        .addOption(
          completeWith(new Option('--platform <platform>', `platform: ${AD_PLATFORMS.join(', ')}`).argParser(choice('--platform', AD_PLATFORMS)), AD_PLATFORMS),
        )
        .option('--body <file>', 'JSON request body from a file, or - for stdin')
        .option('--dry-run', 'print the request and send nothing')
        .action((f: Flags) => create(ctx, f)),
      [
        'cr ads create --website 5f0c2a8e-7d41-4b6a-9c3e-2f8b1d6a4e90 --format single_image --name "Spring sale" --url https://shop.example.com/spring --image https://cdn.example.com/a.png',
        'cr ads create --body creative.json --name "Spring sale v2" --dry-run',
      ],
    ),
    { jq: true, csv: true, quiet: true },
  );

/** A flag and its alias (the body field's own name): either one, or both agreeing. */
function flagOrAlias(flag: string, value: string | undefined, alias: string, aliasValue: string | undefined): string | undefined {
  if (value !== undefined && aliasValue !== undefined && value !== aliasValue) throw new UsageError(`${flag} and ${alias} disagree; pass one`);
  return value ?? aliasValue;
}

/** The body: --body file fields first, then every given flag on top; --website → website_id. */
export async function buildAdBody(ctx: Context, f: Flags): Promise<Record<string, unknown>> {
  const base = f.body ? await readBody(ctx, f.body) : {};
  const fields: Record<string, unknown> = {
    website_id: ctx.globals.website,
    ad_format: flagOrAlias('--format', f.format, '--ad-format', f.adFormat),
    name: f.name,
    campaign_id: flagOrAlias('--campaign', f.campaign, '--campaign-id', f.campaignId),
    headline: f.headline,
    description: f.description,
    destination_url: flagOrAlias('--url', f.url, '--destination-url', f.destinationUrl),
    image_urls: f.image?.length ? f.image : undefined,
    product_line_id: flagOrAlias('--product-line', f.productLine, '--product-line-id', f.productLineId),
    platform: f.platform,
  };
  const body = { ...base };
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) body[k] = v;
  if (Object.keys(body).length === 0) throw new UsageError('nothing to create', 'pass --format, --name and --url (or --body FILE); see `cr ads create --help`');
  return body;
}

/** The flag of each body field, for messages about the body a command line made. */
const FLAG_OF: Record<string, string> = {
  website_id: '--website',
  ad_format: '--format',
  name: '--name',
  campaign_id: '--campaign',
  headline: '--headline',
  description: '--description',
  destination_url: '--url',
  image_urls: '--image',
  product_line_id: '--product-line',
  platform: '--platform',
};

/**
 * The body checked against the schema the server judges it by (src/api/schemas/ads.ts, loaded
 * only here): a missing or bad field is exit 2 naming its flag, before anything is sent
 * (docs/cli-contract.md §5), not a 400 naming an API field.
 */
async function checkAdBody(body: Record<string, unknown>): Promise<void> {
  const { CreateAdCreativeBody } = await import('../../src/api/schemas/ads.js');
  const result = CreateAdCreativeBody.safeParse(body);
  if (result.success) return;
  const problems = result.error.issues.map((issue) => {
    const field = String(issue.path[0] ?? '');
    const flag = FLAG_OF[field] ? `${FLAG_OF[field]} (${field})` : field;
    return body[field] === undefined ? `missing ${flag}` : `${flag}: ${issue.message}`;
  });
  throw new UsageError(problems.join('; '), 'see `cr ads create --help`');
}

async function readBody(ctx: Context, file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = file === '-' ? await readAll(ctx.io.stdin) : readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`Cannot read --body ${file}: ${(e as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--body ${file} is not valid JSON: ${(e as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError(`--body ${file} must hold a JSON object`);
  return parsed as Record<string, unknown>;
}

export async function create(ctx: Context, f: Flags): Promise<void> {
  const body = await buildAdBody(ctx, f);
  await checkAdBody(body);
  const ep = routes.createAdCreative;
  if (f.dryRun) return printDryRun(ctx, ep, { body });
  const res = await (await ctx.api()).call(ep, { body: body as BodyOf<'createAdCreative'> });
  await render(
    ctx.io,
    { ...ctx.globals, data: res.raw },
    {
      rows: [res.data],
      // The record just made or changed: its id is what the next command takes, whole at any width.
      keepIds: true,
      id: (a) => a.id,
      columns: [
        { header: 'ID', kind: 'id', field: 'id', value: (a: AdCreative) => a.id },
        { header: 'NAME', name: true, field: 'name', value: (a) => a.name },
        { header: 'PLATFORM', kind: 'code', field: 'platform', value: (a) => a.platform },
        { header: 'FORMAT', kind: 'code', field: 'adFormat', value: (a) => a.adFormat },
        { header: 'STATUS', kind: 'code', field: 'status', value: (a) => a.status },
        { header: 'CAMPAIGN', field: 'campaignName', value: (a) => a.campaignName || a.campaignId || '-', plain: (a) => a.campaignName ?? null },
        { header: 'DESTINATION', field: 'destinationUrl', value: (a) => a.destinationUrl },
        { header: 'IMAGES', kind: 'number', value: (a) => a.imageUrls.length, align: 'right' },
        {
          ...dateColumn('CREATED', (a: AdCreative) => a.createdAt, shownTime(ctx.env, ctx.now, res.response.headers), { time: true, past: true }),
          field: 'createdAt',
        },
      ],
    },
  );
}
