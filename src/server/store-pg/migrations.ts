/**
 * The PostgreSQL store's schema, as numbered migrations (docs/shared-sandbox.md). They ship
 * inside the bundle and run by `cr local migrate` or at a server's start (unless
 * `--no-migrate`), in one transaction under an advisory lock, so several `cr serve` starting
 * at once on one database apply each migration once. A database whose
 * schema is newer than the newest migration here is refused: an older server would write
 * rows a newer schema no longer means.
 */
export interface Migration {
  version: number;
  what: string;
  sql: string;
}

/** pg_advisory_xact_lock key of the migrations: 'cr' as two bytes, then 1. */
export const MIGRATION_LOCK_KEY = 0x637201;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    what: 'records, revenue with its running totals, rate windows',
    sql: `
-- Every record of every collection, as the exact JSON text it was written with (json, not
-- jsonb: export must give back the same bytes). seq keeps the store's order; lookup holds the
-- field a collection is found by besides its id (a key's sha256, an entity's owner);
-- website_id its scope field.
CREATE TABLE cr_records (
  seq bigserial PRIMARY KEY,
  collection text NOT NULL,
  id text,
  website_id text,
  lookup text,
  body json NOT NULL
);
CREATE UNIQUE INDEX cr_records_id ON cr_records (collection, id) WHERE id IS NOT NULL;
CREATE INDEX cr_records_scope ON cr_records (collection, website_id, seq);
CREATE INDEX cr_records_lookup ON cr_records (collection, lookup) WHERE lookup IS NOT NULL;

-- Revenue records keep the fields the finance summary aggregates as columns too, so the
-- summary is computed in SQL from running totals instead of a pass over every record.
CREATE TABLE cr_revenue (
  seq bigint PRIMARY KEY REFERENCES cr_records (seq) ON DELETE CASCADE,
  entity_id text NOT NULL,
  active boolean NOT NULL,
  monthly_cents bigint NOT NULL,
  client_name text NOT NULL,
  currency text NOT NULL,
  renewal_date text,
  next_invoice_date text
);
CREATE INDEX cr_revenue_renewal ON cr_revenue (entity_id, renewal_date) WHERE active;
CREATE INDEX cr_revenue_due ON cr_revenue (entity_id, next_invoice_date) WHERE active;

-- Running totals per entity, kept by the trigger below (or rebuilt after a bulk load).
CREATE TABLE cr_entity_totals (
  entity_id text PRIMARY KEY,
  active_mrr bigint NOT NULL DEFAULT 0,
  active_clients integer NOT NULL DEFAULT 0
);
CREATE TABLE cr_entity_clients (
  entity_id text NOT NULL,
  client_name text NOT NULL,
  n integer NOT NULL,
  PRIMARY KEY (entity_id, client_name)
);
CREATE TABLE cr_entity_currencies (
  entity_id text NOT NULL,
  currency text NOT NULL,
  n integer NOT NULL,
  PRIMARY KEY (entity_id, currency)
);

CREATE FUNCTION cr_revenue_count(r cr_revenue, d integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  before integer;
BEGIN
  INSERT INTO cr_entity_currencies AS c (entity_id, currency, n) VALUES (r.entity_id, r.currency, d)
    ON CONFLICT (entity_id, currency) DO UPDATE SET n = c.n + d;
  DELETE FROM cr_entity_currencies WHERE entity_id = r.entity_id AND currency = r.currency AND n <= 0;
  IF NOT r.active THEN RETURN; END IF;
  INSERT INTO cr_entity_totals AS t (entity_id, active_mrr) VALUES (r.entity_id, d * r.monthly_cents)
    ON CONFLICT (entity_id) DO UPDATE SET active_mrr = t.active_mrr + d * r.monthly_cents;
  INSERT INTO cr_entity_clients AS c (entity_id, client_name, n) VALUES (r.entity_id, r.client_name, d)
    ON CONFLICT (entity_id, client_name) DO UPDATE SET n = c.n + d
    RETURNING c.n - d INTO before;
  IF before = 0 AND d > 0 THEN
    UPDATE cr_entity_totals SET active_clients = active_clients + 1 WHERE entity_id = r.entity_id;
  ELSIF before + d = 0 AND d < 0 THEN
    UPDATE cr_entity_totals SET active_clients = active_clients - 1 WHERE entity_id = r.entity_id;
    DELETE FROM cr_entity_clients WHERE entity_id = r.entity_id AND client_name = r.client_name AND n = 0;
  END IF;
END $$;

CREATE FUNCTION cr_revenue_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM cr_revenue_count(OLD, -1); END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN PERFORM cr_revenue_count(NEW, 1); END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER cr_revenue_totals AFTER INSERT OR UPDATE OR DELETE ON cr_revenue
  FOR EACH ROW EXECUTE FUNCTION cr_revenue_totals();

-- One fixed window per key (docs/api-decisions.md §3), counted by one upsert so that any
-- number of servers count one key exactly.
CREATE TABLE cr_rate_windows (
  key_id text PRIMARY KEY,
  window_start bigint NOT NULL,
  count integer NOT NULL
);
`,
  },
  {
    version: 2,
    what: 'a finance version, bumped by every change to what the finance summary reads',
    sql: `
-- One counter, bumped in the same transaction as any change to business entities, cost items
-- or revenue records: a server keeps a summary's answer with the counter it was computed at,
-- and uses it again only while a read of the counter gives the same number (finance-cache.ts),
-- so no kept answer outlives a commit made by any server. Writes of other collections (the
-- creates of the API) never touch it.
CREATE TABLE cr_finance_version (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  n bigint NOT NULL DEFAULT 0
);
INSERT INTO cr_finance_version DEFAULT VALUES;
CREATE FUNCTION cr_finance_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE cr_finance_version SET n = n + 1;
  RETURN NULL;
END $$;
CREATE TRIGGER cr_finance_insert AFTER INSERT ON cr_records FOR EACH ROW
  WHEN (NEW.collection IN ('business_entities', 'cost_items', 'revenue_records')) EXECUTE FUNCTION cr_finance_changed();
CREATE TRIGGER cr_finance_update AFTER UPDATE ON cr_records FOR EACH ROW
  WHEN (OLD.collection IN ('business_entities', 'cost_items', 'revenue_records') OR NEW.collection IN ('business_entities', 'cost_items', 'revenue_records'))
  EXECUTE FUNCTION cr_finance_changed();
CREATE TRIGGER cr_finance_delete AFTER DELETE ON cr_records FOR EACH ROW
  WHEN (OLD.collection IN ('business_entities', 'cost_items', 'revenue_records')) EXECUTE FUNCTION cr_finance_changed();
`,
  },
  {
    version: 3,
    what: 'the finance version names the state it counts; TRUNCATE and direct changes of revenue rows bump it; revenue columns follow a record written by SQL; bumps at commit',
    sql: `
-- A number alone can come back with other data behind it: a database dropped and made again,
-- or emptied and loaded again, counts from where it started, and a server that kept an answer
-- at that number would give it for the new data. Every bump also draws a new token, so a kept
-- answer is used only for the very state it was computed at (finance-cache.ts).
ALTER TABLE cr_finance_version ADD COLUMN token text NOT NULL DEFAULT md5(random()::text || clock_timestamp()::text);
CREATE FUNCTION cr_finance_bump() RETURNS void LANGUAGE sql AS $f$
  UPDATE cr_finance_version SET n = n + 1, token = md5(random()::text || clock_timestamp()::text)
$f$;
CREATE OR REPLACE FUNCTION cr_finance_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cr_finance_bump();
  RETURN NULL;
END $$;
-- TRUNCATE fires no row trigger: without these, emptying the records kept the version (a
-- server gave the old summary) and kept the running totals (the next revenue rows counted on
-- top of rows gone).
CREATE TRIGGER cr_finance_truncate AFTER TRUNCATE ON cr_records FOR EACH STATEMENT EXECUTE FUNCTION cr_finance_changed();
CREATE FUNCTION cr_revenue_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM cr_entity_totals;
  DELETE FROM cr_entity_clients;
  DELETE FROM cr_entity_currencies;
  PERFORM cr_finance_bump();
  RETURN NULL;
END $$;
CREATE TRIGGER cr_revenue_truncate AFTER TRUNCATE ON cr_revenue FOR EACH STATEMENT EXECUTE FUNCTION cr_revenue_truncated();
-- The running totals follow any change of a revenue row (cr_revenue_totals); so does the version.
-- The bumps run at commit (deferred): bumped at each row, the one version row was locked from a
-- transaction's first finance row to its end, so two transactions writing rows A then B and B
-- then C deadlocked on it (B waits for the version, the version's holder waits for B).
CREATE CONSTRAINT TRIGGER cr_revenue_changed AFTER INSERT OR UPDATE OR DELETE ON cr_revenue DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION cr_finance_changed();
DROP TRIGGER cr_finance_insert ON cr_records;
DROP TRIGGER cr_finance_update ON cr_records;
DROP TRIGGER cr_finance_delete ON cr_records;
CREATE CONSTRAINT TRIGGER cr_finance_insert AFTER INSERT ON cr_records DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW.collection IN ('business_entities', 'cost_items', 'revenue_records')) EXECUTE FUNCTION cr_finance_changed();
CREATE CONSTRAINT TRIGGER cr_finance_update AFTER UPDATE ON cr_records DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.collection IN ('business_entities', 'cost_items', 'revenue_records') OR NEW.collection IN ('business_entities', 'cost_items', 'revenue_records'))
  EXECUTE FUNCTION cr_finance_changed();
CREATE CONSTRAINT TRIGGER cr_finance_delete AFTER DELETE ON cr_records DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.collection IN ('business_entities', 'cost_items', 'revenue_records')) EXECUTE FUNCTION cr_finance_changed();
-- A revenue record written by SQL of its own (not through cr) gets its columns as
-- revenueColumnsOf (derive.ts) makes them; cr's own writes then write the same row again from
-- its own derivation, which stays the one that counts for them. A body these expressions cannot
-- read is left to cr's own write.
CREATE FUNCTION cr_json_text(b json, k text) RETURNS text LANGUAGE sql IMMUTABLE AS $f$
  SELECT CASE WHEN json_typeof(b -> k) = 'string' THEN b ->> k END
$f$;
CREATE FUNCTION cr_revenue_of_record() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  b json := NEW.body;
BEGIN
  BEGIN
    INSERT INTO cr_revenue AS v (seq, entity_id, active, monthly_cents, client_name, currency, renewal_date, next_invoice_date)
    VALUES (
      NEW.seq,
      coalesce(cr_json_text(b, 'entity_id'), ''),
      coalesce(cr_json_text(b, 'status') = 'active', false),
      CASE WHEN cr_json_text(b, 'type') = 'recurring' THEN
        floor(CASE WHEN json_typeof(b -> 'amount_cents') = 'number' THEN (b ->> 'amount_cents')::numeric ELSE 0 END
          / CASE coalesce(b ->> 'billing_frequency', 'monthly') WHEN 'monthly' THEN 1 WHEN 'quarterly' THEN 3 WHEN 'semi_annual' THEN 6 WHEN 'annual' THEN 12 END
          + 0.5)::bigint
      ELSE 0 END,
      coalesce(cr_json_text(b, 'client_name'), ''),
      upper(coalesce(cr_json_text(b, 'currency'), '')),
      nullif(left(cr_json_text(b, 'renewal_date'), 10), ''),
      nullif(left(cr_json_text(b, 'next_invoice_date'), 10), ''))
    ON CONFLICT (seq) DO UPDATE SET entity_id = EXCLUDED.entity_id, active = EXCLUDED.active, monthly_cents = EXCLUDED.monthly_cents,
      client_name = EXCLUDED.client_name, currency = EXCLUDED.currency, renewal_date = EXCLUDED.renewal_date,
      next_invoice_date = EXCLUDED.next_invoice_date;
  EXCEPTION WHEN data_exception OR not_null_violation THEN
    NULL;
  END;
  RETURN NULL;
END $$;
CREATE TRIGGER cr_revenue_of_record AFTER INSERT OR UPDATE OF body, collection ON cr_records FOR EACH ROW
  WHEN (NEW.collection = 'revenue_records') EXECUTE FUNCTION cr_revenue_of_record();
`,
  },
  {
    version: 4,
    what: 'settings every server on the database shares (the hourly rate limit)',
    sql: `
-- A setting that must agree across the servers of one database lives here, not in each
-- server's flags (docs/shared-sandbox.md "Settings shared by every server"): the first
-- server, or cr local migrate --rate-limit, writes it; a server started with another value
-- refuses to start and says so (settings.ts).
CREATE TABLE cr_settings (
  name text PRIMARY KEY,
  value jsonb NOT NULL,
  set_at timestamptz NOT NULL DEFAULT now()
);
`,
  },
];

export const NEWEST_SCHEMA = MIGRATIONS[MIGRATIONS.length - 1]!.version;
