import type { Dispatcher } from 'undici';
import type { ApiClient } from '../http/client.js';
import type { ClientTarget } from '../http/build-client.js';
import type { ProfileStore } from '../config/profiles.js';
import type { Credentials } from '../config/credentials.js';
import { processIO, type IO } from '../io/streams.js';
import { createPrompter, type Prompter } from '../io/prompt.js';
import { startSpinner, type Spinner } from '../io/spinner.js';
import { nowFrom } from '../now.js';
import type { ScriptFlags } from '../output/flags.js';

/** Options every command accepts (docs/cli-contract.md §2 and "For scripts"). */
export interface GlobalOptions extends ScriptFlags {
  profile?: string;
  baseUrl?: string;
  json: boolean;
  website?: string;
  local: boolean;
  verbose: boolean;
  timeout?: number;
  /** Not a flag: the --timeout deadline once the first request started it; --jq runs within what is left. */
  deadline?: import('../http/deadline.js').Deadline;
  color: boolean;
}

export interface Context {
  io: IO;
  env: NodeJS.ProcessEnv;
  /** Business "now": CR_NOW when set (tests, demos), else the real clock. */
  now(): Date;
  globals: GlobalOptions;
  setGlobals(g: Partial<GlobalOptions>): void;
  /** The HTTP core for the resolved profile (or the embedded server with --local). */
  api(): Promise<ApiClient>;
  /** An HTTP core for given credentials (`auth login` checks a key before storing it); closed on dispose. */
  connect(target: ClientTarget): Promise<ApiClient>;
  credentials(): Promise<Credentials>;
  profiles(): Promise<ProfileStore>;
  prompt: Prompter;
  spinner(text: string): Promise<Spinner>;
  /** A notice on stderr (never stdout). */
  notice(line: string): void;
  /** Runs cleanups registered by the context (closes connections, stops --local). */
  dispose(): Promise<void>;
  /** Every HTTP client of this run sends through it when set (in-process tests: a MockAgent). */
  dispatcher?: Dispatcher;
  /** Where the key `api()` sends came from and what to run, said when the server refuses it (401). */
  refusedKeyAdvice?: string;
}

/** The one place where real dependencies are built. */
export function createContext(env: NodeJS.ProcessEnv = process.env, io: IO = processIO(env)): Context {
  const cleanups: (() => Promise<void> | void)[] = [];
  let profileStore: Promise<ProfileStore> | undefined;
  let client: Promise<ApiClient> | undefined;
  // --timeout is one deadline for all of the command's requests, set when the first client is made.
  let deadline: import('../http/deadline.js').Deadline | undefined;
  const ctx: Context = {
    io,
    env,
    now: nowFrom(env),
    globals: { json: false, local: false, verbose: false, color: true, csv: false, jsonl: false, quiet: false },
    setGlobals(g) {
      Object.assign(ctx.globals, g);
      if (g.color === false) {
        ctx.io.color = false;
        ctx.io.colorErr = false;
      }
    },
    profiles() {
      profileStore ??= import('../config/profiles.js').then(async ({ ProfileStore }) => {
        const store = await ProfileStore.open(env);
        for (const w of store.warnings) ctx.notice(w);
        return store;
      });
      return profileStore;
    },
    async credentials() {
      const { resolveCredentials, needsProfileStore } = await import('../config/credentials.js');
      const flags = { profile: ctx.globals.profile, baseUrl: ctx.globals.baseUrl };
      const store = needsProfileStore(flags, env) ? await ctx.profiles() : undefined;
      return resolveCredentials(flags, env, store);
    },
    api() {
      client ??= (async () => {
        if (!ctx.globals.local) {
          const { requireUsable, refusedKeyAdvice } = await import('../config/credentials.js');
          const creds = requireUsable(await ctx.credentials());
          ctx.refusedKeyAdvice = refusedKeyAdvice(creds);
          return ctx.connect(creds);
        }
        const { startEmbedded } = await import('../local/embedded.js');
        const local = await startEmbedded(ctx);
        cleanups.push(local.close);
        ctx.refusedKeyAdvice = 'the key came from the local store (--local); run `cr local keys create` for a new one';
        return ctx.connect(local);
      })();
      return client;
    },
    async connect(target) {
      const [{ buildClient }, { deadlineIn }] = await Promise.all([import('../http/build-client.js'), import('../http/deadline.js')]);
      const timeout = ctx.globals.timeout;
      if (timeout) ctx.globals.deadline = deadline ??= deadlineIn(timeout);
      const built = buildClient({ io, env, verbose: ctx.globals.verbose, quiet: ctx.globals.quiet, timeout, deadline, dispatcher: ctx.dispatcher }, target);
      cleanups.push(() => built.close());
      return built;
    },
    prompt: createPrompter(io),
    // -q: ids on stdout and nothing on stderr but errors (docs/cli-contract.md "For scripts").
    spinner: (text) => startSpinner(ctx.globals.quiet ? { ...io, tty: { ...io.tty, err: false } } : io, text),
    notice: (line) => {
      if (!ctx.globals.quiet) io.err.write(line + '\n');
    },
    async dispose() {
      for (const fn of cleanups.splice(0).reverse()) await fn();
    },
  };
  return ctx;
}
