import type { z } from 'zod';

/** Keeps only the fields a response schema declares: store-only and unknown fields never leak. */
export function pickShape<T extends Record<string, unknown>>(schema: { shape: Record<string, z.ZodType> }, record: object): T {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(schema.shape)) {
    const v = (record as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = v;
  }
  return out as T;
}

/** Comparable time of an ISO string (NaN sorts last). */
export const timeOf = (s: string | null | undefined): number => {
  const t = s ? Date.parse(s) : NaN;
  return Number.isNaN(t) ? -Infinity : t;
};
