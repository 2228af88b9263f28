/**
 * Request parameters every command may add. Takes what it reads, not the whole Context,
 * so the request helpers stay below the context in the import graph.
 */

/** website_id from the global --website, as a spreadable object (absent when not given). */
export function websiteParam(ctx: { globals: { website?: string } }): { website_id?: string } {
  return ctx.globals.website ? { website_id: ctx.globals.website } : {};
}
