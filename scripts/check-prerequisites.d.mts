/** What the check asks of the machine (see check-prerequisites.mjs). */
export interface Machine {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  nodeVersion: string;
  hasCommand(name: string): boolean;
  chromium(): string | undefined;
  hasCjkFont(): Promise<boolean>;
}

export interface Prerequisite {
  what: string;
  why: string;
  debian: string | undefined;
  elsewhere: string;
}

export function checkPrerequisites(
  machine: Machine,
): Promise<{ missing: Prerequisite[]; skipped: Prerequisite[] }>;

export function prerequisitesMessage(
  found: { missing: Prerequisite[]; skipped: Prerequisite[] },
  platform: NodeJS.Platform,
): string | undefined;

export const thisMachine: Machine;
