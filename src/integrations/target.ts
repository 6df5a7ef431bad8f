/** Where an install goes: one repository (`--project`, the default) or every session of this user (`--user`). */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { projectFor } from '../feeds/project-scope.ts';
import type { FileEdit } from './edits.ts';
import type { LaunchOptions } from './launch.ts';

export interface InstallTarget {
  mode: 'project' | 'user';
  /** The repository's top-level directory (project mode). */
  root: string;
  /** The user's home directory: HOME, else the OS's idea of it. */
  home: string;
  env: NodeJS.ProcessEnv;
}

export function installTarget(mode: 'project' | 'user', cwd: string, env: NodeJS.ProcessEnv): InstallTarget {
  return { mode, root: projectFor(resolve(cwd)).root, home: env.HOME || homedir(), env };
}

/** An agent's installer: the edits that add memledger, and the edits that take out exactly that again. */
export interface Installer {
  install(target: InstallTarget, launch: LaunchOptions): FileEdit[];
  uninstall(target: InstallTarget): FileEdit[];
}

export const joinHome = (target: InstallTarget, ...parts: string[]): string => join(target.home, ...parts);
