/** Where a command's output goes: the terminal or a pipe, and its environment. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  isTty: boolean;
  env: NodeJS.ProcessEnv;
  /** Text as it streams (ask --stream), without a newline. */
  write?: (text: string) => void;
}

/** A command's result: as indented JSON with --json, else as the lines a person reads. */
export function printResult(io: CliIo, json: boolean, value: unknown, human: () => string): void {
  io.out(json ? JSON.stringify(value, null, 2) : human());
}
