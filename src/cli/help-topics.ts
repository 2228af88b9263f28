/**
 * `cr help environment`, `cr help exit-codes`, `cr help formatting`: what a command's help
 * does not say (docs/cli-contract.md "At a terminal", help). Loaded only when asked for.
 */
export const TOPICS: Record<string, string> = {
  environment: `Environment variables

  CR_API_KEY       the API key, when no --profile names one (cr_ and 40 hex characters)
  CR_BASE_URL      the API base URL, ending in /api/v1
  CR_PROFILE       the profile to use instead of the active one
  CR_CONFIG_DIR    the config folder (default: $XDG_CONFIG_HOME/cr, else ~/.config/cr)
  CR_STORE         the local store file of cr serve, cr local and --local
                   (default: the per-user data folder, $XDG_DATA_HOME/cr)
  CR_NOW           the clock of relative hints and --at +2h (ISO date-time; for demos and tests)
  CR_FORCE_TTY     1: draw tables as at a terminal even when piped
  CR_PAGER         the pager of --all at a terminal (else PAGER, else less -FRX);
                   empty or cat: none; --no-pager: none for one run
  NO_COLOR         no colour; FORCE_COLOR: colour even when piped
  TZ               the time zone of times shown in tables
  COLUMNS          the width tables are fitted to (wins over the terminal's own)
  CI               set: no spinner, no prompt

A postgres:// store (docs/shared-sandbox.md) reads libpq's variables, the URL first:
  PGPASSWORD       the password when the URL has none
  PGPASSFILE       the password file (default ~/.pgpass; used only when mode 0600)
  PGSSLMODE        disable, allow, prefer (default), require, verify-ca, verify-full
  PGSSLROOTCERT    the CA file that signed the server's certificate (or "system")
Network (docs/install.md, "In a company network"):
  HTTPS_PROXY      the proxy for https URLs (http://[user:password@]host:port); a tunnel
                   (CONNECT), the key travels inside it; lower case https_proxy too
  HTTP_PROXY       the proxy for http URLs (http_proxy too); the key then travels in
                   clear to the proxy: use an https base URL
  ALL_PROXY        the proxy when the URL's own variable is not set (all_proxy too)
  NO_PROXY         no proxy for these: host names (with their subdomains; a leading . or *.
                   is the same), IP addresses and ranges (10.0.0.0/8; compared by value, so
                   2001:db8:0:0:0:0:0:1 is [2001:db8::1]), each with an optional :port, or *
                   for none at all; localhost, 127.0.0.0/8 and ::1 never use one
  NODE_EXTRA_CA_CERTS  a PEM file of CAs to trust besides Node's own (a company CA)
  NODE_USE_SYSTEM_CA   1: trust the system's CA store too (Node 22.19+, 24.6+; on 22.15+
                   NODE_OPTIONS=--use-system-ca)
A proxy that cannot be reached or refuses is its own error (PROXY_ERROR, exit 8), and so
is an https:// proxy whose certificate is not trusted (named as the proxy's, not retried);
its password is never shown (--verbose masks it).
Redirects: GET and HEAD follow 301, 302, 303, 307 and 308; a write follows only 307 and
308 (method and body kept). At most 5 hops, never from https to http; the key and the
cr api -H headers go only to the origin first asked, and never again once a hop left it
(--verbose shows each hop).
Answers: cr asks for gzip and br (Accept-Encoding) and decodes them; the decoded body is
held to CR_MAX_RESPONSE_BYTES (64 MiB); a body its Content-Encoding does not describe, or
one cut short, is an error naming the encoding (BAD_RESPONSE). cr speaks HTTP/1.1: an
HTTP/2-only server is named as such (HTTP2_ONLY).

Settings are taken from flags first, then the environment, then the active profile.
A profile named with --profile is a flag: its own key beats CR_API_KEY.
`,
  'exit-codes': `Exit codes

  0    success; an empty list is a success
  1    any other failure
  2    usage: unknown command, bad flag or value; nothing was sent
  3    not authenticated: a 401, or no key configured
  4    permission: a 403
  5    not found: a 404
  6    invalid request: a 400, 409, 413, 415 or 422
  7    rate limited: a 429; the message says when to retry
  8    network or server: unreachable, time-out (TIMEOUT), a proxy (PROXY_ERROR), TLS
       (TLS_CERTIFICATE), an HTTP/2-only server (HTTP2_ONLY), or a 5xx after retries
  78   the local store file is damaged (STORE_INVALID); cr local restore brings a backup back;
       or a database's schema is newer than this cr (STORE_SCHEMA_NEWER; cr serve stays up,
       not ready, unless --wait-for-store 0), or older under cr serve --no-migrate
       (STORE_SCHEMA_OLDER: run cr local migrate first)
  130  interrupted

An error is one line on standard error, "error: <message> (<CODE>)"; with --json it is
one JSON line, {"error": ..., "code": ..., "status": ...}. More: docs/exit-codes.md.
`,
  formatting: `Output formats

  At a terminal   At 80 columns and wider every table keeps its name column
                  (entity, title, client, name) at least 16 columns wide or
                  whole, and the id column gives way first: it shows whole,
                  only from 100 columns and only beside whole names, else it
                  is left out and the table says so; --wide, --json, --jsonl,
                  --csv, TSV when piped and -q carry every id whole. A create
                  or schedule prints its new or changed id whole at any width.
                  Widths are terminal columns, not characters: a CJK character
                  or an emoji takes 2.
                  What gives way, in order: ids, long text (…), date hints;
                  below 60 columns, or when nothing else fits, one block per row
    --wide        every cell whole, rows may be wider than the terminal
    --all         (nurture list) through the pager: CR_PAGER, else PAGER, else
                  less -FRX; --no-pager prints directly; never when piped
    --no-headers  no header row (tables and CSV)
  Piped           the same rows as tab-separated values, no header, plain values: the
                  whole id, amounts as decimals (1750.50) beside a currency column,
                  ratios as numbers (0.93), dates and times in ISO 8601, empty for none
  --json          the API's data exactly, indented
  --jq EXPR       jq over what --json prints; strings print raw, one result a line
  --jsonl         a list as JSON Lines, one item a line (streams with --all)
  --csv           RFC 4180 with a header row of the JSON field names; values exact
                  (amounts in cents, as the API sends them); empty for null
    --csv-safe    for spreadsheets: a cell that starts with = + - @ tab CR NUL (also
                  after spaces or full-width; not a number) gets a leading ', so it
                  is shown, never run as a formula
  -q, --quiet     only the ids, one a line

Which command takes which: \`cr <command> --help\` lists the options it honours.
`,
};
