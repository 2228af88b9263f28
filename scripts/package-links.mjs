// The links of a markdown file as the package ships it (scripts/pack.mjs): a relative link to a
// file the package does not carry (CONTRIBUTING.md, test/README.md, a source file) becomes an
// absolute URL to that file on the project's home (package.json "homepage"), so that no link in
// an installed README or docs page is dead. Links to shipped files and anchors stay as they are.
import { posix } from 'node:path';

/** `https://github.com/owner/repo` from a homepage such as `https://github.com/owner/repo#readme`. */
export const projectBase = (homepage) => homepage.replace(/#.*$/, '').replace(/\/+$/, '');

/** Inline links `[text](target)` and reference definitions `[name]: target`, outside code. */
const LINK = /(\]\()([^)\s]+)(\))|^(\[[^\]]+\]:\s+)(\S+)/gm;

const isRelative = (target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#') && !target.startsWith('/');

/** The package path a relative link of `file` points to (from docs/, `../CONTRIBUTING.md` is `CONTRIBUTING.md`). */
export const linkedPath = (file, target) => posix.normalize(posix.join(posix.dirname(file), target.replace(/[#?].*$/, '')));

/** The text with each relative link to a file not in `shipped` (a Set of package paths) made absolute on `base`. */
export function rewriteLinks(file, text, shipped, base) {
  const fix = (target) => {
    if (!isRelative(target)) return target;
    const path = linkedPath(file, target);
    if (shipped.has(path)) return target;
    const rest = target.slice(target.replace(/[#?].*$/, '').length);
    return `${base}/blob/HEAD/${path}${rest}`;
  };
  return text.replace(LINK, (_all, open, target, close, def, defTarget) => (open ? `${open}${fix(target)}${close}` : `${def}${fix(defTarget)}`));
}
