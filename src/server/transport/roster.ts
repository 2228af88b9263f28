/**
 * The objects a server has in progress (open sockets, responses being answered), each in a
 * slot of an array: `add` gives the slot, `remove` empties it, and emptied slots are reused.
 *
 * Why not a Set: a Set that adds and deletes an entry per request leaves a replaced hash
 * table behind each time it grows or compacts, and the replaced table keeps pointing at the
 * entries it held and at the table that followed it. Once one of those tables is in V8's old
 * generation (the Set was made before the store was loaded, and `cr serve` listens before it
 * loads the store, serve.ts), each later table, and every request reachable from one, is kept
 * alive by the dead table before it until a full collection: the young generation's collector
 * copied and promoted whole requests instead of letting them die young: 1.5-2 MB promoted per
 * young collection under durable writes instead of ~0.3 MB, and ~14 % more server CPU a write
 * (docs/benchmarks-analysis.md, "Build against build"). An array's slots hold nothing once emptied.
 */
export class Roster<T extends object> implements Iterable<T> {
  private readonly slots: (T | undefined)[] = [];
  private readonly free: number[] = [];
  private count = 0;

  /** Takes `item` in; returns its slot, for `remove`. */
  add(item: T): number {
    const slot = this.free.length > 0 ? this.free.pop()! : this.slots.length;
    this.slots[slot] = item;
    this.count++;
    return slot;
  }

  /** Lets go of `item` (in `slot`, as `add` returned); a slot that holds something else is left alone. */
  remove(slot: number, item: T): void {
    if (this.slots[slot] !== item) return;
    this.slots[slot] = undefined;
    this.free.push(slot);
    this.count--;
  }

  get size(): number {
    return this.count;
  }

  /** The items in progress; removing any of them meanwhile is safe. */
  *[Symbol.iterator](): Iterator<T> {
    for (let i = 0; i < this.slots.length; i++) {
      const item = this.slots[i];
      if (item !== undefined) yield item;
    }
  }
}
