/**
 * Requests that arrive together share one round trip to the database (docs/shared-sandbox.md,
 * "What the server does on PostgreSQL"): items submitted in one turn of the event loop, or
 * while every slot is busy, go out as one batch when a slot is free. Nothing is kept: every
 * item's statement is sent after the item was submitted, so it sees every commit made before
 * (on any server) as a statement of its own would, and no answer outlives its batch.
 *
 * Why: with one statement per request, each request of 50 writers cost three socket writes in
 * the server and three wake-ups, parses and commits in PostgreSQL; on two cores that, not the
 * disk, was the ceiling (docs/benchmarks.md, "PostgreSQL store").
 */
export class Coalescer<I, O> {
  private queue: { item: I; resolve: (o: O) => void; reject: (err: unknown) => void }[] = [];
  private scheduled = false;
  private inFlight = 0;

  /**
   * @param run answers a batch, one output per item in the same order; a rejection fails every item of the batch
   * @param slots batches in flight at once (each holds one connection while it runs)
   * @param most items in one batch
   */
  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly slots: number,
    private readonly most = 500,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** The batch goes out after this turn's other requests have been read (setImmediate), when a slot is free. */
  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.slots || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.slots && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.most);
      this.inFlight++;
      let answered: Promise<O[]>;
      try {
        answered = this.run(batch.map((b) => b.item));
      } catch (err) {
        answered = Promise.reject(err);
      }
      answered
        .then(
          (outs) => {
            for (let i = 0; i < batch.length; i++) batch[i]!.resolve(outs[i]!);
          },
          (err: unknown) => {
            for (const b of batch) b.reject(err);
          },
        )
        .finally(() => {
          this.inFlight--;
          this.schedule();
        });
    }
  }
}
