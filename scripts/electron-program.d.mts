/** Where the Electron program is, or undefined when none is installed (see electron-program.mjs). */
export function electronProgram(
  electronDir: string,
  env?: Record<string, string | undefined>,
): string | undefined;
