import * as z from 'zod';
import { COLLECTIONS } from '../../store/schema.js';
import { COLLECTION_NAMES } from '../../store/collections.js';
import type { CollectionName } from '../../store/schema.js';
import type { Mutation } from '../../store/batch.js';
import { describeIssue } from '../../store/snapshot.js';
import { MAX_DEPTH } from '../../json.js';
import { tooDeepAt } from './fixture-depth.js';
import { clippedMessage, cutName } from './fixture-echo.js';
import { safeJson } from '../../../render/safe-json.js';
import { markUuidFields, uuidFieldsOf, uuidProblem } from './fixture-ids.js';
import { rawKeyProblems } from './fixture-secrets.js';

/**
 * The fixture format of `cr local seed` and `cr local export` (docs/fixtures.md): the store
 * file's own shape without its checksum line, `{ "version": 1, "<collection>": [records] }`,
 * every collection optional. Records are checked with the store's own schemas
 * (src/server/store/schema.ts), then against each other and the store: an id twice, a
 * reference to a record that is neither in the file nor in the store. Nothing here reads or
 * writes a store: it gets a view of one and returns the writes.
 */

/**
 * Fixtures are bigger than API bodies; still bounded, the same with or without a server
 * holding the store (`cr local seed` checks it before reading further, the server's route too).
 */
export const MAX_SEED_BYTES = 64 * 1024 * 1024;

/** One problem of a fixture document, at a JSONPath-like place: `$.social_posts[3].status`. */
export interface FixtureProblem {
  path: string;
  message: string;
}

export class FixtureError extends Error {
  readonly code = 'FIXTURE_INVALID';
  constructor(readonly problems: FixtureProblem[]) {
    super(`${problems.length} problem(s) in the fixtures: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
    this.name = 'FixtureError';
  }
}

/** What seeding needs to know of the store it writes to. */
export interface StoreView {
  has(collection: CollectionName, id: string): boolean;
  list(collection: CollectionName): readonly Record<string, unknown>[];
  /** The stored record with this id, which a fixture record of the same id is merged over. */
  get(collection: CollectionName, id: string): Record<string, unknown> | undefined;
}

/**
 * Records without an `id` field and what identifies them instead: a scan per website and
 * day, a nurture sequence by its content id. The store replaces records by `id` only, so
 * these are added, never replaced.
 */
const NO_ID: Partial<Record<CollectionName, { key: (r: Record<string, unknown>) => string; says: string }>> = {
  visibility_scans: { key: (r) => `${String(r.websiteId)}\u0000${String(r.scanDate)}`, says: 'websiteId and scanDate' },
  nurture_sequences: { key: (r) => String(r.contentId), says: 'contentId' },
};

/** Fields that name a record of another collection; null means "none" where the schema allows it. */
const REFERENCES: { field: string; to: CollectionName }[] = [
  { field: 'websiteId', to: 'websites' },
  { field: 'website_id', to: 'websites' },
  { field: 'agency_id', to: 'agencies' },
  { field: 'owner_id', to: 'users' },
  { field: 'user_id', to: 'users' },
  { field: 'entity_id', to: 'business_entities' },
];

export interface SeedPlan {
  mutations: Mutation[];
  /** Per collection: records added and records replaced (same id). */
  counts: Partial<Record<CollectionName, { added: number; replaced: number }>>;
}

/** A record of the file that failed its own checks, and the records that name it. */
interface Broken {
  path: string;
  /** Per collection and field: how many records name it (`30 social_posts refer to it`). */
  dependents: Map<string, number>;
}

/**
 * Checks a parsed fixture document against the store and returns its writes: an insert per
 * new id, a patch per id the store has (the fixture's fields replace the stored ones).
 * Every problem is collected before FixtureError is thrown, so one run lists them all. A
 * record that fails its own checks is reported first; the records that name it are summed
 * up in one line after its problems (`30 social_posts refer to it`) instead of one "no
 * websites record" each: their reference holds once it is fixed.
 */
export function planSeed(doc: unknown, store: StoreView): SeedPlan {
  const problems: (FixtureProblem & { record?: string })[] = [];
  const at = (path: string, message: string) => problems.push({ path, message });
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    throw new FixtureError([{ path: '$', message: 'expected a JSON object such as {"version": 1, "websites": [...]}' }]);
  const raw = doc as Record<string, unknown>;
  if (raw.version !== undefined && raw.version !== 1) at('$.version', `expected 1, got ${JSON.stringify(raw.version)}`);
  for (const key of Object.keys(raw)) {
    if (key !== 'version' && !(COLLECTION_NAMES as readonly string[]).includes(key))
      at(`$.${cutName(key)}`, `unknown collection (expected one of ${COLLECTION_NAMES.join(', ')})`);
  }
  // Ids the file brings, by collection, with where each first appears.
  const seen = new Map<CollectionName, Map<string, string>>();
  const broken = new Map<CollectionName, Map<string, Broken>>();
  const valid: { c: CollectionName; record: Record<string, unknown>; path: string }[] = [];
  for (const c of COLLECTION_NAMES) {
    const list = raw[c];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      at(`$.${c}`, `expected an array of records, got ${list === null ? 'null' : typeof list}`);
      continue;
    }
    const ids = new Map<string, string>();
    seen.set(c, ids);
    list.forEach((record: unknown, i) => {
      const path = `$.${c}[${i}]`;
      const own = (where: string, message: string) => problems.push({ path: where, message, record: path });
      // As deep as an API body may be (docs/api-decisions.md §1): a deeper record cannot be
      // written to the store file at all (JSON.stringify runs out of stack).
      const deep = tooDeepAt(record);
      if (deep !== undefined) {
        own(`${path}${deep}`, `Nested deeper than ${MAX_DEPTH} levels (a record may nest at most ${MAX_DEPTH} levels)`);
        // Still a record of this id: the records that name it are summed up after it, not each reported missing.
        const id = (record as { id?: unknown }).id;
        if (!NO_ID[c] && typeof id === 'string' && !ids.has(id)) {
          ids.set(id, path);
          broken.set(c, (broken.get(c) ?? new Map()).set(id, { path, dependents: new Map() }));
        }
        return;
      }
      let ok = rawKeyProblems(c, record, path, own);
      ok = schemaProblems(c, record, path, own) && ok;
      const r = (record && typeof record === 'object' ? record : {}) as Record<string, unknown>;
      // The fields that are no reference to another record are checked here; references below.
      for (const field of uuidFieldsOf(c).filter((f) => !REFERENCES.some((ref) => ref.field === f))) {
        const problem = uuidProblem(c, field, r[field]);
        if (problem) {
          own(`${path}.${field}`, problem);
          ok = false;
        }
      }
      const noId = NO_ID[c];
      const id = noId ? noId.key(r) : typeof r.id === 'string' ? r.id : undefined;
      if (id === undefined) {
        if (ok) own(`${path}.id`, 'expected string, got nothing (missing)');
        return;
      }
      const first = ids.get(id);
      if (first !== undefined) own(noId ? path : `${path}.id`, `duplicate ${noId ? noId.says : `id ${JSON.stringify(id)}`} (also at ${first})`);
      else ids.set(id, path);
      if (ok) valid.push({ c, record: r, path });
      else if (!noId) broken.set(c, (broken.get(c) ?? new Map()).set(id, { path, dependents: new Map() }));
    });
  }
  const stored = new Map<CollectionName, Set<string>>();
  for (const [c, noId] of Object.entries(NO_ID) as [CollectionName, NonNullable<(typeof NO_ID)[CollectionName]>][]) {
    if (seen.has(c)) stored.set(c, new Set(store.list(c).map(noId.key)));
  }
  const exists = (c: CollectionName, id: string) => seen.get(c)?.has(id) === true || store.has(c, id);
  const references = (c: CollectionName, record: Record<string, unknown>, path: string) => {
    for (const ref of REFERENCES) {
      const value = record[ref.field];
      if (typeof value !== 'string') continue;
      const target = broken.get(ref.to)?.get(value);
      if (target) {
        const what = `${c}.${ref.field}`;
        target.dependents.set(what, (target.dependents.get(what) ?? 0) + 1);
        continue;
      }
      const notUuid = uuidFieldsOf(c).includes(ref.field) ? uuidProblem(c, ref.field, value) : undefined;
      if (notUuid) at(`${path}.${ref.field}`, notUuid);
      else if (!exists(ref.to, value)) at(`${path}.${ref.field}`, `no ${ref.to} record with id ${JSON.stringify(value)} in the file or the store`);
    }
  };
  for (const { c, record, path } of valid) {
    // An upsert keeps the stored fields the fixture leaves out: the record the store ends up
    // with must hold on its own too, or the store would refuse to open after this write
    // (an api key given website_id over a stored one scoped to an agency).
    const prior = !NO_ID[c] && typeof record.id === 'string' ? store.get(c, record.id) : undefined;
    if (prior) schemaProblems(c, { ...prior, ...record }, path, (where, message) => at(where, `${message} (once merged with the stored record)`));
    references(c, record, path);
    const noId = NO_ID[c];
    if (noId && stored.get(c)?.has(noId.key(record))) {
      at(path, `the store already has a record with this ${noId.says} (${c} have no id: they are added, never replaced)`);
    }
  }
  sharedKeyHashes(raw, valid, store, at);
  if (problems.length) throw new FixtureError(withDependents(problems, broken));
  const mutations: Mutation[] = [];
  const counts: SeedPlan['counts'] = {};
  for (const { c, record } of valid) {
    const count = counts[c] ?? { added: 0, replaced: 0 };
    counts[c] = count;
    const id = record.id;
    if (!NO_ID[c] && typeof id === 'string' && store.has(c, id)) {
      mutations.push({ op: 'patch', collection: c, id, patch: record });
      count.replaced++;
    } else {
      mutations.push({ op: 'insert', collection: c, record });
      count.added++;
    }
  }
  return { mutations, counts };
}

/**
 * The problems in order, each broken record's own first, followed by one line for the records
 * that name it: `$.websites[0]: 30 social_posts refer to it (websiteId); fix it first`.
 */
function withDependents(problems: (FixtureProblem & { record?: string })[], broken: Map<CollectionName, Map<string, Broken>>): FixtureProblem[] {
  const summary = new Map<string, string>();
  for (const byId of broken.values()) {
    for (const b of byId.values()) {
      if (b.dependents.size === 0) continue;
      const parts = [...b.dependents].map(([what, n]) => {
        const [c, field] = what.split('.');
        return n === 1 ? `1 ${c} record refers to it (${field})` : `${n} ${c} refer to it (${field})`;
      });
      summary.set(b.path, `${parts.join(', ')}; they were not checked against it, fix it first`);
    }
  }
  const out: FixtureProblem[] = [];
  problems.forEach((p, i) => {
    out.push({ path: p.path, message: p.message });
    const next = problems[i + 1];
    if (p.record && summary.has(p.record) && next?.record !== p.record) out.push({ path: p.record, message: summary.get(p.record)! });
  });
  return out;
}

/** Reports what the store's schema finds wrong with `record`, at `path`; true when nothing. */
function schemaProblems(c: CollectionName, record: unknown, path: string, at: (path: string, message: string) => void): boolean {
  const parsed = (COLLECTIONS[c] as z.ZodType).safeParse(record);
  if (parsed.success) return true;
  for (const issue of parsed.error.issues) {
    const text = describeIssue(issue, record);
    // describeIssue says `field: message`, or `(top level): message` for the record itself.
    const cut = text.indexOf(': ');
    const where = text.slice(0, cut);
    // The message quotes the value found (an enum's): a 20 MB one is cut like a plan's values (src/bulk/echo.ts).
    at(where === '(top level)' ? path : `${path}${where.startsWith('[') ? '' : '.'}${cutName(where)}`, clippedMessage(text.slice(cut + 2)));
  }
  return false;
}

/**
 * A key is found by its sha256 (src/server/domain/auth.ts): two key records with one hash would
 * make one key answer for the other (the later one wins, its role and scope, or its
 * revocation). Checked on the keys as the store will hold them: stored, then the file's.
 */
function sharedKeyHashes(
  raw: Record<string, unknown>,
  valid: readonly { c: CollectionName; record: Record<string, unknown>; path: string }[],
  store: StoreView,
  at: (path: string, message: string) => void,
): void {
  if (raw.api_keys === undefined) return;
  const hashOf = new Map<string, string>();
  for (const k of store.list('api_keys')) hashOf.set(String(k.id), String(k.key_sha256));
  const fileKeys = valid.filter((v) => v.c === 'api_keys');
  for (const { record } of fileKeys) hashOf.set(String(record.id), String(record.key_sha256));
  const holders = new Map<string, string[]>();
  for (const [id, sha] of hashOf) holders.set(sha, [...(holders.get(sha) ?? []), id]);
  for (const { record, path } of fileKeys) {
    const others = holders.get(String(record.key_sha256))!.filter((id) => id !== record.id);
    if (others.length)
      at(`${path}.key_sha256`, `another key already has this key_sha256 (id ${others.map((id) => JSON.stringify(id)).join(', ')}); each key needs its own`);
  }
}

/** Names given to --only: known collections, else a problem per unknown name. */
export function checkOnly(names: readonly string[]): CollectionName[] {
  const unknown = names.filter((n) => !(COLLECTION_NAMES as readonly string[]).includes(n));
  if (unknown.length) {
    throw new FixtureError(unknown.map((n) => ({ path: cutName(n), message: `unknown collection (expected one of ${COLLECTION_NAMES.join(', ')})` })));
  }
  return names as CollectionName[];
}

/**
 * The export document of a store: `version` then every collection (or those of `only`), in
 * the store's order, records as stored. Its text is stable (two-space JSON, the collections
 * in schema order), so export → seed into an empty store → export gives the same bytes.
 */
export function exportDocument(lists: (c: CollectionName) => readonly unknown[], only?: readonly CollectionName[]): string {
  const doc: Record<string, unknown> = { version: 1 };
  for (const c of COLLECTION_NAMES) if (!only || only.includes(c)) doc[c] = lists(c);
  // Safe on a terminal and the same JSON (src/render/safe-json.ts).
  return safeJson(doc, 2) + '\n';
}

/**
 * The JSON Schema of the fixture format, generated from the store's schemas (`cr local seed
 * --schema`): what an editor or a CI step can check a fixture file with before seeding.
 */
export function fixtureJsonSchema(): Record<string, unknown> {
  // One document, so records shared by several collections are one $defs entry.
  const doc = z.strictObject({
    version: z.literal(1).optional().describe('The format version; optional'),
    ...(Object.fromEntries(COLLECTION_NAMES.map((c) => [c, z.array(COLLECTIONS[c] as z.ZodType).optional()])) as Record<string, z.ZodType>),
  });
  const schema = markUuidFields(z.toJSONSchema(doc, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>);
  return {
    ...schema,
    title: 'cr local seed fixtures',
    description: 'Records to upsert by id into a local store (docs/fixtures.md). Fields the store does not list are kept.',
  };
}
