/** Where a command's output goes: the terminal or a pipe, and its environment. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  isTty: boolean;
  env: NodeJS.ProcessEnv;
  /** Text as it streams (ask --stream), without a newline. */
  write?: (text: string) => void;
}
