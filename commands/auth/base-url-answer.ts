import { checkBaseUrl } from '../../src/config/credentials.js';
import { UsageError } from '../../src/errors.js';

/** The longest host name DNS carries (RFC 1035 §2.3.4). */
export const MAX_HOST = 253;

/**
 * The answer's host said wrong in words rather than "not an http(s) URL": a space or a
 * character no host name has, or a name longer than DNS allows. Only the host is quoted
 * (what comes before an @ may be a password).
 */
function checkHost(url: string): void {
  const authority = url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split(/[/?#]/)[0]!;
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  const host = hostPort.startsWith('[') ? hostPort.slice(0, hostPort.indexOf(']') + 1) : hostPort.replace(/:\d*$/, '');
  if (host.length > MAX_HOST) throw new UsageError(`the host name in the answer is ${host.length} characters long; a host name has at most ${MAX_HOST}`);
  const bad = /[^A-Za-z0-9.\-[\]:_]/.exec(host);
  if (bad) {
    const what = /\s/.test(bad[0]) ? 'a space' : `the character ${JSON.stringify(bad[0])}`;
    throw new UsageError(`the host "${host}" in the answer has ${what}, which no host name has`);
  }
}

/** Hosts of a server on this machine: `cr serve` speaks plain http there. */
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(:\d+)?$/i;

/**
 * The base URL an answer at the login prompt stands for (docs/commands.md "Keys and
 * profiles"): a bare host (`cms.example.com`, `cms.example.com:8443`) gets `https://` (`http://`
 * for a loopback host) and, without a path, `/api/v1`; a URL is taken as typed. Then the
 * same checks as --base-url.
 */
export function baseUrlFromAnswer(answer: string): string {
  let text = answer.trim();
  if (text !== '' && !/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    const host = text.split('/')[0]!;
    text = `${LOOPBACK.test(host) ? 'http' : 'https'}://${text}`;
  }
  if (/^https?:\/\//i.test(text)) checkHost(text);
  try {
    const url = new URL(text);
    if ((url.protocol === 'https:' || url.protocol === 'http:') && (url.pathname === '' || url.pathname === '/')) {
      url.pathname = '/api/v1';
      text = url.toString();
    }
  } catch {
    /* not a URL: checkBaseUrl says so */
  }
  return checkBaseUrl(text, 'the answer');
}
