import { renameSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeFs } from '../../src/server/store/fs-layer.js';
import type { SyncFs } from '../../src/server/store/fs-layer.js';
import { lockHeld } from '../../src/server/store/lock-check.js';
import { tempDir } from '../helpers/tmp.js';

/** A lock file holding `token`, and a check over it that counts its reads of the text. */
function setUp(token = 'token-aaaa', fs: SyncFs = nodeFs.sync) {
  const lock = join(tempDir('cr-lock-check-'), 'store.json.lock');
  writeFileSync(lock, token);
  let reads = 0;
  let unreadable = false;
  const read = () => {
    reads++;
    if (unreadable) return null;
    try {
      return nodeFs.sync.readFile(lock).toString('utf8');
    } catch {
      return undefined;
    }
  };
  const held = lockHeld(fs, lock, token, read);
  const makeUnreadable = () => {
    unreadable = true;
  };
  return { lock, held, reads: () => reads, makeUnreadable };
}

describe('the lock check of the group commit (lock-check.ts)', () => {
  it('reads the text once, then takes an unchanged file for still held without reading it', () => {
    const t = setUp();
    expect(t.held()).toBe(true);
    expect(t.held()).toBe(true);
    expect(t.held()).toBe(true);
    expect(t.reads()).toBe(1);
  });

  it('reads again after a heartbeat (new times), and still finds the token', () => {
    const t = setUp();
    expect(t.held()).toBe(true);
    const later = new Date(Date.now() + 5_000);
    utimesSync(t.lock, later, later);
    expect(t.held()).toBe(true);
    expect(t.reads()).toBe(2);
  });

  it('sees a rewrite in place, even of the same size', () => {
    const t = setUp('token-aaaa');
    expect(t.held()).toBe(true);
    writeFileSync(t.lock, 'token-bbbb');
    expect(t.held()).toBe(false);
  });

  it('sees another file put in its place, and a lock removed', () => {
    const t = setUp('token-aaaa');
    expect(t.held()).toBe(true);
    const other = `${t.lock}.tmp`;
    writeFileSync(other, 'token-bbbb');
    renameSync(other, t.lock);
    expect(t.held()).toBe(false);
    const u = setUp();
    expect(u.held()).toBe(true);
    nodeFs.sync.unlink(u.lock);
    expect(u.held()).toBe(false);
  });

  it('takes a lock it cannot read for now as still held, and reads it on every check then', () => {
    const t = setUp();
    t.makeUnreadable();
    expect(t.held()).toBe(true);
    expect(t.held()).toBe(true);
    expect(t.reads()).toBe(2);
  });

  // A file system that keeps whole seconds (ext4 made with 128-byte inodes, ext3, HFS+; FAT
  // keeps two): a takeover within the second of the holder's last heartbeat (a staleness under
  // a second) gives the new lock the same times, and on ext4 the inode just freed and the same
  // size (pids of equal length, as two containers' pid 1): stat() cannot tell them apart. Seen
  // with two `unshare -pf` holders on such an ext4: the old holder kept answering "held".
  it('reads the text every time where the times are whole seconds: a takeover within one second looks the same to stat()', () => {
    const second = 1_795_000_000_000;
    const wholeSeconds: SyncFs = { ...nodeFs.sync, stat: (path) => ({ ...nodeFs.sync.stat(path), mtimeMs: second, ctimeMs: second }) };
    const t = setUp('token-aaaa', wholeSeconds);
    expect(t.held()).toBe(true);
    writeFileSync(t.lock, 'token-bbbb'); // the same inode and size, the same second
    expect(t.held()).toBe(false);
  });
});
