import { docsFooter } from './cli/help-docs.js';
import type { Command, CommanderError } from 'commander';
import { createContext, type Context } from './cli/context.js';
import { CrError, ApiError, ResponseError, UsageError, exitCodeOf, InterruptedError } from './errors.js';
import { groups } from './cli/groups.js';
import { redactKeys } from './config/redact.js';
import { writeJsonError } from './render/json.js';
import { servesJsonLog } from '../commands/serve/log-format-prescan.js';
import { escapeControls } from './render/escape.js';
import { checkScriptFlags } from './output/flags.js';
import { answerVersion, version } from './startup/version.js';
import { MAX_TIMEOUT_SECONDS } from './http/deadline.js';
import { visibleGlobalOptions } from './cli/globals.js';
import { checkUuid } from './ids.js';
import { commandIndex, commandPath, expandHelpWord, fromCommander, namesUnknownCommand, withHint } from './cli/usage.js';

/**
 * The spellings of the program's options that take a value (`<value>` or `[value]`), read
 * from commander's own definitions so the list cannot drift from the options.
 */
export function valueFlagsOf(program: Command): Set<string> {
  return new Set(program.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short].filter((f): f is string => !!f)));
}

/** The first operand of argv (the command group), skipping global options and their values. */
export function commandWord(argv: string[], valueFlags: ReadonlySet<string>): string | undefined {
  const i = commandIndex(argv, valueFlags);
  return i < 0 ? undefined : argv[i];
}

function parseTimeout(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--timeout must be a positive number of seconds, got "${value}"`);
  if (n > MAX_TIMEOUT_SECONDS) throw new UsageError(`--timeout must be at most ${MAX_TIMEOUT_SECONDS} seconds (one day), got ${value}`);
  return n;
}

/** A profile name: not empty, no control characters (it is shown in messages and stored as a key). */
function parseProfileName(value: string): string {
  if (value.trim() === '') throw new UsageError('--profile needs a name, got an empty one', 'run `cr profiles list` to see the names');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) throw new UsageError('--profile must not hold control characters');
  return value;
}

/** `cr help TOPIC` pages (src/cli/help-topics.ts, loaded only when asked for). */
const HELP_TOPICS = ['environment', 'exit-codes', 'formatting'];

/** The root command with the global options (docs/cli-contract.md §2) and no groups yet. */
export async function rootProgram(): Promise<Command> {
  const { Command, Option } = await import('commander');
  return (
    new Command('cr')
      .description('Operator CLI for the content management service API')
      .version(version(), '-V, --version', 'print the version')
      // Listed once, in `cr --help`; each command's help shows the ones it honours (src/cli/globals.ts).
      .optionsGroup('Global Options:')
      .addOption(new Option('--profile <name>', 'use this stored profile').argParser(parseProfileName))
      .option('--base-url <url>', 'API base URL, ending in /api/v1')
      .option('--json', 'print the response data as JSON')
      .option('--website <id>', 'website_id to send')
      .option('--local', 'use the embedded local server and default local store')
      .option('--verbose', 'log each HTTP request and response to stderr (key redacted)')
      .addOption(
        new Option('--timeout <seconds>', "deadline in seconds for all of the command's requests, retries included (default: 30 per attempt)").argParser(
          parseTimeout,
        ),
      )
      // docs/cli-contract.md "For scripts"; which command takes which is checked before it runs (src/output/flags.ts).
      .option('--jq <expression>', 'filter the JSON output with jq (strings print raw, one result a line)')
      .option('--csv', 'print the rows as CSV (RFC 4180) with a header row and full values')
      .option('--jsonl', 'print a list as JSON Lines, one item a line (streams with --all)')
      .option('-q, --quiet', 'print only ids, one a line; nothing on stderr but errors')
      .option('--csv-safe', "with --csv: make cells a spreadsheet would run as formulas inert (a leading ')")
      .option('--wide', 'tables at a terminal with every cell whole (rows may be wider than the terminal)')
      .option('--no-headers', 'tables and CSV without their header row')
      .option('--no-color', 'disable colour')
      .showSuggestionAfterError(true)
      .addHelpText(
        'after',
        () =>
          "\nRun `cr <command> --help` for a command's flags and examples.\nHelp topics: `cr help environment`, `cr help exit-codes`, `cr help formatting`.\n" +
          docsFooter(),
      )
  );
}

/**
 * Builds the program; loads every group with `all` (completion), else only the one named.
 * `root` is a rootProgram() already made (run() reads its option spellings first).
 */
export async function buildProgram(ctx: Context, argv: string[], all = false, root?: Command): Promise<Command> {
  const program = root ?? (await rootProgram());
  const flags = valueFlagsOf(program);
  let word = commandWord(argv, flags);
  // `cr help GROUP` shows GROUP's help: that group is the one to load.
  if (word === 'help') word = commandWord(argv.slice(argv.indexOf('help') + 1), flags);
  const wanted = all || word === 'completion' ? groups : groups.filter((g) => g.name === word);
  for (const g of groups) {
    if (wanted.includes(g)) {
      const mod = await g.load();
      mod.register(program, ctx);
    } else {
      program.command(g.name).description(g.summary);
    }
  }
  // `cr serve --log-format json` (or its --config file's): its usage errors are JSON lines (log-format-prescan.ts).
  const jsonLog = servesJsonLog(argv);
  program.hook('preAction', async (_this, action) => {
    const o = action.optsWithGlobals() as Record<string, unknown>;
    ctx.setGlobals({
      profile: o.profile as string | undefined,
      baseUrl: o.baseUrl as string | undefined,
      json: Boolean(o.json) || jsonLog,
      website: o.website as string | undefined,
      local: Boolean(o.local),
      verbose: Boolean(o.verbose),
      timeout: o.timeout as number | undefined,
      color: o.color !== false,
      jq: o.jq as string | undefined,
      csv: Boolean(o.csv),
      jsonl: Boolean(o.jsonl),
      quiet: Boolean(o.quiet),
      csvSafe: Boolean(o.csvSafe),
      wide: Boolean(o.wide),
      headers: o.headers !== false,
    });
    checkScriptFlags(action, ctx.globals);
    // website_id is a uuid in every schema that takes it (src/api/schemas/common.ts): checked before anything is sent.
    // A local store's own ids are what its fixtures say (docs/fixtures.md): `cr local …` looks them up as given.
    if (ctx.globals.website !== undefined && !isLocalStoreCommand(action)) checkUuid('--website', ctx.globals.website);
    if (ctx.globals.jq !== undefined) await (await import('./render/jq.js')).checkJq(ctx.globals.jq);
  });
  configureTree(program, ctx);
  return program;
}

/** `cr local …`: commands on a local store, whose ids are the store's own, not the API's uuids. */
function isLocalStoreCommand(cmd: Command): boolean {
  let top = cmd;
  while (top.parent?.parent) top = top.parent;
  return top.name() === 'local';
}

/** exitOverride and quiet output on every command, so usage errors reach one handler. */
function configureTree(cmd: Command, ctx: Context): void {
  cmd.exitOverride();
  cmd.showHelpAfterError(false);
  cmd.configureOutput({
    writeOut: (s) => ctx.io.out.write(s),
    writeErr: () => {},
    outputError: () => {},
  });
  cmd.configureHelp({ showGlobalOptions: true, sortSubcommands: false, visibleGlobalOptions });
  for (const sub of cmd.commands) configureTree(sub, ctx);
}

function reportError(ctx: Context, error: unknown): number {
  const code = exitCodeOf(error);
  // One line, as the CLI contract says: a usage error's hint joins its message.
  const base = error instanceof Error ? error.message : String(error);
  let message = redactKeys(error instanceof UsageError ? withHint(base, error.hint) : base);
  // A refused key: where it came from and what to run (docs/cli-contract.md §5, exit 3).
  if (error instanceof ApiError && error.status === 401 && ctx.refusedKeyAdvice) message = withHint(message, ctx.refusedKeyAdvice);
  const errCode = error instanceof CrError ? error.code : 'INTERNAL';
  if (ctx.globals.json) {
    // Scripts get the API's own message (and its details); the text form also names the request.
    const status = error instanceof ApiError || error instanceof ResponseError ? (error.status ?? null) : null;
    const text = error instanceof ApiError ? redactKeys(error.apiMessage) : message;
    // A plan's or a fixture's problems, listed (src/render/problem-cap.ts), their keys already masked.
    // (Read by its method, not instanceof: the class stays out of the modules every command loads.)
    const listed = (error as { jsonFields?: () => { problems: readonly unknown[]; more: number } }).jsonFields?.();
    writeJsonError(ctx.io, { error: text, code: errCode ?? null, status, ...listed });
  } else {
    // Message and code may quote the API or a file: never raw controls on the terminal (docs/cli-contract.md).
    ctx.io.err.write(escapeControls(`error: ${message}${errCode ? ` (${errCode})` : ''}`) + '\n');
  }
  if (ctx.globals.verbose && error instanceof Error && !(error instanceof CrError) && error.stack) {
    ctx.io.err.write(escapeControls(redactKeys(error.stack), { multiline: true }) + '\n');
  }
  return code;
}

/** Runs the CLI; returns the exit code. Never calls process.exit itself. */
export async function run(given: string[], ctx: Context = createContext()): Promise<number> {
  if (answerVersion(given, ctx.io.out)) return 0;
  // The completion scripts' call-back for values known only at run time (profile names).
  if (given[0] === '__complete') return (await import('../commands/completion/dynamic.js')).complete(given.slice(1), ctx);
  // Pre-read the global output flags so errors before parsing still honour --json.
  // `cr serve --log-format json` (or its --config file's): its usage errors are JSON lines too.
  ctx.setGlobals({ json: given.includes('--json') || servesJsonLog(given), verbose: given.includes('--verbose') });
  let program: Command | undefined;
  let argv = given;
  try {
    const root = await rootProgram();
    const valueFlags = valueFlagsOf(root);
    const help = expandHelpWord(given, valueFlags);
    // `cr help environment`: a topic, not a command (docs/cli-contract.md "Help").
    const topic = help.bare?.filter((a) => !a.startsWith('-'));
    if (topic?.length === 1 && HELP_TOPICS.includes(topic[0]!)) {
      ctx.io.out.write((await import('./cli/help-topics.js')).TOPICS[topic[0]!]!);
      return 0;
    }
    argv = help.argv;
    program = await buildProgram(ctx, argv, false, root);
    // `cr help finance summry`: parsed without --help, commander reports the unknown
    // command with its nearest name (no action runs: the parent has only subcommands).
    if (help.bare && namesUnknownCommand(program, help.bare, valueFlags)) argv = help.bare;
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    const e = error as CommanderError;
    // `cr` alone, or a group without its verb (`cr nurture`): that command's help, exit 0, as gh does.
    if (program && e?.code === 'commander.help') {
      let cmd = program;
      for (const name of commandPath(program, argv, valueFlagsOf(program))) cmd = cmd.commands.find((c) => c.name() === name)!;
      cmd.outputHelp();
      return 0;
    }
    if (program && e && typeof e.code === 'string' && e.code.startsWith('commander.')) {
      const usage = fromCommander(e, argv, program, valueFlagsOf(program));
      if (!usage) return 0;
      return reportError(ctx, usage);
    }
    return reportError(ctx, error);
  } finally {
    await ctx.dispose().catch(() => {});
  }
}

/** Ctrl-C outside a command that handles it: report and exit 130. */
export function interrupted(ctx: Context): number {
  return reportError(ctx, new InterruptedError());
}
