import { Command } from 'commander';
import type { Context } from '../../src/context.js';
import { withExamples } from '../../src/cli-kit.js';
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
        { header: 'NAME', value: (b: BrandSubject) => b.subjectName },
        { header: 'TYPE', kind: 'code', value: (b) => b.subjectType },
        { header: 'STATUS', kind: 'code', value: (b) => b.status },
        { header: 'IMAGES', kind: 'number', value: (b) => b.referenceImages.length, align: 'right' },
        { header: 'PRIMARY IMAGE', value: primaryUrl, csv: (b) => (b.referenceImages.find((i) => i.isPrimary) ?? b.referenceImages[0])?.publicUrl },
        { header: 'ID', kind: 'id', value: (b) => b.id },
      ],
      empty: 'No brand subjects.',
    },
  );
}
