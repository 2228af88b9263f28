import { describe, expect, it } from 'vitest';
import { fitWidths, frameWidth, MIN_TEXT, READABLE_TEXT } from '../../src/render/fit.js';
import { drawTable, IDS_LEFT_OUT, WHOLE_IDS_FROM } from '../../src/render/table.js';
import { styles } from '../../src/render/styles.js';
import { cutToWidth, displayWidth } from '../../src/render/width.js';
import type { Column } from '../../src/render/view.js';

interface Row {
  id: string;
  name: string;
  note: string;
  amount: string;
  when: string;
}

const ID = '7d674759-6d21-426f-ab1d-40facc8ee7cf';
const rows: Row[] = [
  { id: ID, name: 'Reception bot 🦷 for the front desk', note: '日本語のメモ、とても長いテキストです。', amount: '$12,345.67', when: '2026-12-01' },
  { id: '47460d86-a579-4b84-85f8-2b4c81c5f254', name: 'Recall', note: 'short', amount: '€5.00', when: '2026-11-20' },
];
const columns: Column<Row>[] = [
  { header: 'ID', kind: 'id', value: (r) => r.id },
  { header: 'NAME', name: true, value: (r) => r.name },
  { header: 'NOTE', value: (r) => r.note },
  { header: 'AMOUNT', kind: 'money', value: (r) => r.amount, align: 'right' },
  { header: 'DATE', kind: 'date', value: (r) => `${r.when} (in 9 days)`, short: (r) => r.when },
];
const s = styles(false);
const lines = (text: string) => text.split('\n');

describe('display width', () => {
  it('counts wide characters and emoji as two columns, ASCII as one', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('日本')).toBe(4);
    expect(displayWidth('🦷')).toBe(2);
    expect(displayWidth('\u001b[31mred\u001b[39m')).toBe(3);
  });
  it('cuts to a width with an ellipsis, never inside a wide character', () => {
    expect(cutToWidth('abcdef', 4)).toBe('abc…');
    expect(cutToWidth('日本語', 4)).toBe('日…');
    expect(displayWidth(cutToWidth('日本語のメモ', 5))).toBeLessThanOrEqual(5);
    expect(cutToWidth('short', 10)).toBe('short');
  });
});

describe('fitWidths', () => {
  it('keeps natural widths when they fit', () => {
    expect(
      fitWidths(
        [
          { natural: 10, cuttable: true },
          { natural: 5, cuttable: false },
        ],
        40,
      ),
    ).toEqual([10, 5]);
  });
  it('cuts the widest text column first, never the others', () => {
    const w = fitWidths(
      [
        { natural: 30, cuttable: true },
        { natural: 20, cuttable: true },
        { natural: 36, cuttable: false },
      ],
      80,
    )!;
    expect(w[2]).toBe(36);
    expect(w.reduce((a, b) => a + b, 0) + frameWidth(3)).toBe(80);
    expect(w[0]).toBeGreaterThanOrEqual(w[1]!); // the widest lost most, down to the other's level
    expect(w[0]! - w[1]!).toBeLessThanOrEqual(1);
  });
  it('gives up (null) rather than cut an id', () => {
    expect(
      fitWidths(
        [
          { natural: 36, cuttable: false },
          { natural: 40, cuttable: true },
        ],
        40,
      ),
    ).toBeNull();
    expect(
      fitWidths(
        [
          { natural: 36, cuttable: false },
          { natural: 40, cuttable: true },
        ],
        36 + MIN_TEXT + frameWidth(2),
      ),
    ).toEqual([36, MIN_TEXT]);
  });
});

describe('drawTable keeps its shape', () => {
  const headerOf = (out: string) => lines(out)[0]!.split(/\s{2,}/);

  for (const width of [200, 120, 100, 80, 70, 60]) {
    it(`${width} columns: every line fits, the other columns in their order, ids whole or left out, money whole`, () => {
      const out = drawTable({ rows, columns }, s, width);
      for (const line of lines(out)) expect(displayWidth(line)).toBeLessThanOrEqual(width);
      const shown = headerOf(out);
      expect([
        ['ID', 'NAME', 'NOTE', 'AMOUNT', 'DATE'],
        ['NAME', 'NOTE', 'AMOUNT', 'DATE'],
      ]).toContainEqual(shown);
      // An id is whole, or the column is left out and a line says how to see it; never cut.
      if (shown[0] === 'ID') for (const r of rows) expect(out).toContain(r.id);
      else expect(lines(out).at(-1)).toBe(IDS_LEFT_OUT);
      expect(out).not.toContain(`${ID.slice(0, 8)}…`);
      if (width < WHOLE_IDS_FROM) expect(shown[0]).toBe('NAME');
      for (const r of rows) {
        expect(out).toContain(r.amount);
        expect(out).toContain(r.when);
      }
      expect(out).not.toContain('│');
    });
  }

  it('what gives way, in order: ids (below 100 columns always, and wherever the name would be cut beside them), long text to 16 columns, date hints, then text but the name', () => {
    const name = rows[0]!.name;
    expect(drawTable({ rows, columns }, s, 200)).toContain('日本語のメモ、とても長いテキストです。');
    const cut = drawTable({ rows, columns }, s, 130);
    expect(cut).toContain('…');
    expect(cut).toContain('(in 9 days)');
    expect(cut).toContain(ID);
    expect(cut).toContain(name);
    const noHints = drawTable({ rows, columns }, s, 120);
    expect(noHints).not.toContain('(in 9 days)');
    expect(noHints).toContain(ID);
    expect(noHints).toContain(name);
    // At 110 the id fits only if the name is cut: the id gives way, the name stays whole.
    for (const width of [110, 99]) {
      const noIds = drawTable({ rows, columns }, s, width);
      expect(noIds).not.toContain(ID.slice(0, 8));
      if (width === 110) expect(noIds).toContain(name);
      expect(noIds).toContain('(in 9 days)');
      expect(lines(noIds).at(-1)).toBe(IDS_LEFT_OUT);
    }
  });

  it('an id column shows only beside whole names, at every width from 100 columns', () => {
    for (let width = WHOLE_IDS_FROM; width <= 200; width++) {
      const out = drawTable({ rows, columns }, s, width);
      if (headerOf(out)[0] !== 'ID') continue;
      for (const r of rows) expect(out, `at ${width}`).toContain(r.name);
    }
    expect(headerOf(drawTable({ rows, columns }, s, 200))[0]).toBe('ID');
  });

  it('from 80 columns the name keeps 16 columns (or its whole value) while other text is cut further', () => {
    type R = { name: string; note: string; a: string };
    const many: R[] = [{ name: 'Northwind Digital LLC', note: 'Northwind Digital LLC', a: '$234,567.89' }];
    const cols: Column<R>[] = [
      { header: 'ENTITY', name: true, value: (r) => r.name },
      { header: 'NOTE', value: (r) => r.note },
      ...[1, 2, 3, 4].map((n): Column<R> => ({ header: `M${n}`, kind: 'money', value: (r) => r.a, align: 'right' })),
    ];
    const nameAt = (width: number) => lines(drawTable({ rows: many, columns: cols }, s, width))[1]!.split(/ {2,}/)[0]!;
    expect(displayWidth(nameAt(80))).toBe(READABLE_TEXT);
    expect(nameAt(80)).toBe('Northwind Digit…');
    expect(displayWidth(nameAt(79))).toBeLessThan(READABLE_TEXT);
  });

  it('a title that tells rows apart keeps 16 columns before a date gives up its hint', () => {
    const seqs = [
      { id: ID, title: 'Whitening follow-up #118', status: 'archived', when: '2026-11-25 23:00 UTC' },
      { id: ID, title: 'Review request #119', status: 'paused', when: '2026-11-24 22:00 UTC' },
    ];
    const cols: Column<(typeof seqs)[number]>[] = [
      { header: 'ID', kind: 'id', value: (r) => r.id },
      { header: 'TITLE', name: true, value: (r) => r.title },
      { header: 'STATUS', kind: 'code', value: (r) => r.status },
      { header: 'UPDATED', kind: 'date', value: (r) => `${r.when} (10 hours ago)`, short: (r) => r.when },
    ];
    const out = drawTable({ rows: seqs, columns: cols }, s, 100);
    expect(out).toContain('Review request #119');
    expect(out).not.toContain('(10 hours ago)');
    expect(out).toContain(ID);
  });

  it('--wide: nothing cut, whatever the width; --no-headers: rows only', () => {
    const wide = drawTable({ rows, columns }, s, 60, undefined, { wide: true });
    expect(wide).toContain('日本語のメモ、とても長いテキストです。');
    expect(wide).toContain(ID);
    expect(wide).toContain('(in 9 days)');
    const bare = drawTable({ rows, columns }, s, 120, undefined, { headers: false });
    expect(bare).not.toContain('AMOUNT');
    expect(lines(bare)).toHaveLength(rows.length);
  });

  it('shortIds: false (a create, a bulk report) keeps ids whole in the table, else gives way to blocks', () => {
    const out = drawTable({ rows, columns }, s, 70, undefined, { shortIds: false });
    expect(out).toContain(`ID      ${ID}`);
    const table = drawTable({ rows: [rows[1]!], columns: columns.slice(0, 2) }, s, 60, undefined, { shortIds: false });
    expect(lines(table)[1]).toBe(`${rows[1]!.id}  Recall`);
  });

  it('below 60 columns: one block of HEADER value lines per row', () => {
    const out = drawTable({ rows, columns }, s, 59);
    expect(out).toContain(`ID      ${ID}`);
    expect(out).toContain('DATE    2026-12-01 (in 9 days)');
  });

  it('escapes control characters in cells', () => {
    const out = drawTable({ rows: [{ ...rows[1]!, name: 'x\u001b[2Jy\u009b' }], columns }, s, 200);
    expect(out).toContain('x\\x1b[2Jy\\x9b');
    expect(out).not.toMatch(/[\u001b\u009b]/);
  });

  it('measures each cell a fixed number of times: linear in the rows', () => {
    const count = (n: number) => {
      let calls = 0;
      const many = Array.from({ length: n }, (_, i) => ({ ...rows[i % 2]!, name: `name ${i % 10}` }));
      drawTable({ rows: many, columns }, s, 100, (t) => {
        calls++;
        return displayWidth(t);
      });
      return calls;
    };
    const [small, large] = [count(1000), count(4000)];
    // Cells measured once (twice for a column with a short form), plus the few cells cut.
    expect(large).toBeLessThanOrEqual(4000 * (columns.length + 1) * 2);
    expect(large / small).toBeLessThanOrEqual(4.01);
  });

  it('a block narrower than its padded label and a whole id pads each label only to itself, so the id does not wrap', () => {
    const id = '0b8f6c1e-6a52-4d5e-9d0c-2f1f1b7b9a11';
    const cols: Column<{ id: string; v: string }>[] = [
      { header: 'ID', kind: 'id', value: (r) => r.id },
      { header: 'NEW VERSION', value: (r) => r.v },
    ];
    const out = drawTable({ rows: [{ id, v: '2' }], columns: cols }, styles(false), 40);
    expect(out.split('\n')[0]).toBe(`ID  ${id}`);
    expect(out.split('\n').filter((l) => displayWidth(l) > 40)).toEqual([]);
    // Wide enough: the labels still line up.
    expect(drawTable({ rows: [{ id, v: '2' }], columns: cols }, styles(false), 55).split('\n')[0]).toBe(`ID           ${id}`);
  });
});
