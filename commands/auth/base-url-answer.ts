import { checkBaseUrl } from '../../src/config/credentials.js';

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
