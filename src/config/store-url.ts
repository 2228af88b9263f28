import { UsageError } from '../errors.js';

/**
 * Whether a `--store` / CR_STORE value names a PostgreSQL database instead of a JSON file
 * (docs/shared-sandbox.md). Kept apart from the store itself so that telling the two apart
 * loads no database client.
 */
export const isDatabaseUrl = (store: string): boolean => /^postgres(ql)?:\/\//i.test(store.trim());

/** Query parameters libpq and postgres.js read a secret from (`?password=…`). */
const SECRET_PARAMS = /^(ssl)?password$/i;

/**
 * The URL without its secrets, for every message, log line and file (docs/shared-sandbox.md
 * "Secrets"): the password becomes `***`, and so do secret query parameters. A value that is
 * not a URL the store would read (checkDatabaseUrl) shows nothing after its user name: with a
 * password that is not percent-encoded, a parser's idea of where the host starts may lie
 * inside the password.
 */
export function redactUrl(url: string): string {
  const trimmed = url.trim();
  if (readingProblem(trimmed) !== undefined) return headOf(trimmed);
  const u = new URL(trimmed);
  if (u.password) u.password = '***';
  for (const name of [...u.searchParams.keys()]) if (SECRET_PARAMS.test(name)) u.searchParams.set(name, '***');
  return u.toString();
}

/**
 * The database URL as given, once it is one the client reads the way the user meant: exit 2
 * otherwise, with the URL shown only up to its user name. postgres.js takes the host from
 * after the first `@` and the WHATWG parser from after the last one, and both end the host at
 * `/`, `?` or `#`: a password with one of those characters not percent-encoded would connect
 * somewhere else, or send part of the password as a host name.
 */
export function checkDatabaseUrl(url: string): string {
  const trimmed = url.trim();
  const problem = readingProblem(trimmed);
  if (problem === undefined) return trimmed;
  throw new UsageError(
    `the store URL ${headOf(trimmed)} cannot be read: ${problem}`,
    'percent-encode @ : / ? # % and spaces in the user name and password (@ is %40, # is %23, / is %2F, % is %25), or give the password in PGPASSWORD',
  );
}

/** What keeps the URL from being read as meant, or undefined when it reads cleanly. */
function readingProblem(url: string): string | undefined {
  const afterScheme = url.slice(url.indexOf('://') + 3);
  const authority = afterScheme.split(/[/?#]/, 1)[0] ?? '';
  const ats = url.split('@').length - 1;
  if (url.includes('#')) return 'it has a # (a password with # must have it as %23)';
  if (ats > 1) return 'it has more than one @ (a password with @ must have it as %40)';
  if (ats === 1 && !authority.includes('@')) return 'its @ comes after a / or ? (a password with / or ? must have them as %2F, %3F)';
  // libpq's several hosts (h1:5432,h2:5432): the client would check each one's certificate
  // against one name, and tried them again without end on a bad one; a server takes one host.
  if (authority.slice(authority.lastIndexOf('@') + 1).includes(','))
    return 'it names several hosts (h1,h2), which cr does not support: give each server one host, or the name of a load balancer in front of them';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'it is not a URL (a password with / ? # @ or % must have them percent-encoded)';
  }
  try {
    decodeURIComponent(parsed.username);
    decodeURIComponent(parsed.password);
  } catch {
    return 'a % in the user name or password starts no percent-encoded character (% itself is %25)';
  }
  return undefined;
}

/**
 * `postgres://user…`: the scheme and the user name, nothing after it. The authority ends at the
 * first `/`, `?` or `#`; when the URL holds an `@` anywhere (a password in the user info, or in a
 * query parameter), only what comes before the authority's first `:` or `@` is shown.
 */
function headOf(url: string): string {
  const scheme = url.slice(0, url.indexOf('://') + 3);
  const rest = url.slice(scheme.length);
  const authority = rest.split(/[/?#]/, 1)[0] ?? '';
  return `${scheme}${rest.includes('@') ? authority.split(/[:@]/, 1)[0] : authority}…`;
}

/** A store as messages name it: a file by its path, a database by its URL without secrets. */
export const shownStore = (location: string): string => (isDatabaseUrl(location) ? redactUrl(location) : location);
