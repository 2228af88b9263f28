import { InterruptedError, UsageError } from '../errors.js';
import type { IO } from './streams.js';

/**
 * Questions to the operator. Off a terminal or in CI nothing is asked: the command fails
 * with exit 2 naming the flag that answers the question instead.
 */
export interface Prompter {
  input(message: string, opts: { default?: string; flag: string }): Promise<string>;
  secret(message: string, opts: { flag: string }): Promise<string>;
}

export function createPrompter(io: IO): Prompter {
  const canAsk = () => io.tty.in && io.tty.err && !io.ci;
  const refuse = (flag: string, message: string): never => {
    throw new UsageError(`Cannot ask "${message}" here (not a terminal, or CI is set); pass ${flag}`);
  };
  return {
    async input(message, opts) {
      if (!canAsk()) return refuse(opts.flag, message);
      const { input } = await import('@inquirer/prompts');
      return interruptible(input({ message, default: opts.default }, { output: process.stderr }));
    },
    async secret(message, opts) {
      if (!canAsk()) return refuse(opts.flag, message);
      const { password } = await import('@inquirer/prompts');
      return interruptible(password({ message, mask: '*' }, { output: process.stderr }));
    },
  };
}

/**
 * Ctrl-C at a prompt: @inquirer/prompts reads the terminal in raw mode, so the key is no
 * SIGINT but an ExitPromptError. It is an interruption like any other (exit 130).
 */
async function interruptible<T>(answer: Promise<T>): Promise<T> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof Error && error.name === 'ExitPromptError') throw new InterruptedError();
    throw error;
  }
}
