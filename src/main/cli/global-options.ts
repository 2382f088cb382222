import type { CliOptions, OptionValues } from './cli-options';

/**
 * Options for the whole command line, given before the command's name and parsed once, before
 * the command is chosen (`npm run cli -- --help`). Every command's context carries their values,
 * so an option that concerns every command (how much to log, say) is added here and nowhere else.
 */
export const globalOptions = {
  help: { type: 'boolean', description: "shows this help, or with a command's name that command's" },
  verbose: {
    type: 'boolean',
    description: 'also writes the log, down to each step of each job, to standard error',
  },
} as const satisfies CliOptions;

export type GlobalValues = OptionValues<typeof globalOptions>;
