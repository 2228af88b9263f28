/**
 * A deep copy of what a commit writes (api-store.ts: a store keeps its own copy). Records are
 * JSON data (objects, arrays, strings, numbers, booleans, null), so a walk over own keys copies
 * them exactly. Why not structuredClone: its serialiser costs ~7 µs for a one-record insert
 * where this walk takes ~0.5-1 µs (Node 20, this machine), and the JSON store copies every
 * write it commits: structuredClone was ~6 % of `cr serve`'s CPU per durable POST
 * (docs/benchmarks.md, "Build against build").
 */
export function copyRecords<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyRecords) as T;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = copyRecords((value as Record<string, unknown>)[key]);
  return out as T;
}
