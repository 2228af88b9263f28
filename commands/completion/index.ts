import { Argument, Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
import { readTree } from './tree.js';
import { bashScript } from './bash.js';
import { zshScript } from './zsh.js';
import { fishScript } from './fish.js';

const SHELLS = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;

/**
 * `cr completion <shell>`. buildProgram loads every group when the command word is
 * `completion`, so the tree read here is the whole CLI.
 */
export function register(program: Command, ctx: Context): void {
  program.addCommand(
    withExamples(
      new Command('completion')
        .description('print a shell completion script (bash, zsh, fish)')
        .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(Object.keys(SHELLS)))
        .action((shell: keyof typeof SHELLS) => {
          ctx.io.out.write(SHELLS[shell](readTree(program)));
        }),
      ['cr completion bash > ~/.local/share/bash-completion/completions/cr', 'cr completion fish > ~/.config/fish/completions/cr.fish'],
    ),
  );
}
