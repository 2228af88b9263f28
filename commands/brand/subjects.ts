import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
import { scriptable } from '../../src/output/flags.js';
import { routes } from '../../src/api/routes.js';
import type { BrandSubject } from '../../src/api/schemas/brand.js';
import { websiteParam } from '../../src/http/request-params.js';
import { render } from '../../src/render/output.js';

export const subjectsCommand = (ctx: Context) =>
  scriptable(
    withExamples(
      new Command('subjects').description('list brand subjects with their reference images').action(() => subjects(ctx)),
      ['cr brand subjects', "cr brand subjects --jq '.[].referenceImages[].publicUrl'"],
    ),
    { jq: true, csv: true, jsonl: true, quiet: true },
  );

/** The primary reference image, else the first one. */
export const primaryUrl = (b: BrandSubject): string => (b.referenceImages.find((i) => i.isPrimary) ?? b.referenceImages[0])?.publicUrl ?? '-';

export async function subjects(ctx: Context): Promise<void> {
  const res = await (await ctx.api()).call(routes.listBrandSubjects, { query: websiteParam(ctx) });
  await render(
    ctx.io,
    { ...ctx.globals, data: res.raw, items: res.raw as unknown[] },
    {
      rows: res.data,
      id: (b) => b.id,
      columns: [
        { header: 'ID', kind: 'id', field: 'id', value: (b: BrandSubject) => b.id },
        { header: 'NAME', name: true, field: 'subjectName', value: (b) => b.subjectName },
        { header: 'TYPE', kind: 'code', field: 'subjectType', value: (b) => b.subjectType },
        { header: 'STATUS', kind: 'code', field: 'status', value: (b) => b.status },
        { header: 'IMAGES', kind: 'number', value: (b) => b.referenceImages.length, align: 'right' },
        // Derived from referenceImages: not a field of its own, so in --json and --jq, not --csv.
        { header: 'PRIMARY IMAGE', value: primaryUrl, plain: (b) => (b.referenceImages.find((i) => i.isPrimary) ?? b.referenceImages[0])?.publicUrl },
      ],
      empty: 'No brand subjects.',
    },
  );
}
