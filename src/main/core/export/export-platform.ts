/**
 * The operating system's file dialogs, which only the desktop app has. Electron implements it in
 * src/main/platform/file-dialogs.ts; the web host has none, so the page asks for a path instead.
 */
export interface FileDialogs {
  /** The chosen file, or null when the user cancelled. */
  saveFile(options: {
    title: string;
    defaultPath: string;
    filters: { name: string; extensions: string[] }[];
  }): Promise<string | null>;
  chooseFolder(options: { title: string; defaultPath: string }): Promise<string | null>;
  /** A file to read (a glossary's CSV), or null when the user cancelled. */
  openFile(options: {
    title: string;
    defaultPath: string;
    filters: { name: string; extensions: string[] }[];
  }): Promise<string | null>;
}

export interface ExportPlatform {
  dialogs?: FileDialogs | undefined;
  /** Where exports go unless the user picks another place (Documents by default). */
  defaultFolder?: string | undefined;
}
