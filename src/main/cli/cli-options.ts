/** Options as the command table declares them: node:util parseArgs form, with what --help says. */

/** An option in node:util parseArgs form, with what `--help` says about it. */
export type CliOption =
  | { type: 'boolean'; description: string }
  | {
      type: 'string';
      description: string;
      /** The value's name in `--help`: `--out PATH`. */
      valueName: string;
      /** Whether it may be given more than once (`--glossary A --glossary B`): its values in order. */
      multiple?: true;
    };

export type CliOptions = Readonly<Record<string, CliOption>>;

/** The parsed values: a flag is true or false (never missing), a value is a string when given. */
export type OptionValues<Options extends CliOptions> = {
  [Name in keyof Options]: Options[Name]['type'] extends 'boolean'
    ? boolean
    : Options[Name] extends { multiple: true }
      ? string[]
      : string | undefined;
};
