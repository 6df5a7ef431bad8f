/**
 * Which project a working directory belongs to: the git repository's name, as the `project:<name>` scope its
 * memories live in. The remote's repository name wins (it is the same in every clone and worktree); a repository
 * without a remote is named after its top-level directory; a directory outside git after itself. Read from the
 * files git keeps (`.git/config`), without starting git: the session-start hook has to be quick.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';

export interface ProjectInfo {
  /** `project:acme-api`. */
  scope: string;
  name: string;
  /** The repository's top-level directory, or the directory itself outside git. */
  root: string;
  /** How the name was found. */
  from: 'remote' | 'toplevel' | 'directory';
}

/** Maps a directory to its project. `remoteUrl` is a repository URL a transcript recorded (Codex session_meta). */
export function projectFor(cwd: string, remoteUrl?: string): ProjectInfo {
  const dir = resolve(cwd);
  const root = gitRoot(dir);
  const fromUrl = remoteUrl === undefined ? null : repoNameFromUrl(remoteUrl);
  if (fromUrl !== null) return info(fromUrl, root ?? dir, 'remote');
  if (root !== null) {
    const remote = originUrl(root);
    const name = remote === null ? null : repoNameFromUrl(remote);
    if (name !== null) return info(name, root, 'remote');
    return info(basename(root), root, 'toplevel');
  }
  return info(basename(dir) || 'root', dir, 'directory');
}

/** A scope id is letters, digits and `. _ @ + -`, starting with a letter or digit (model/scope.ts). */
export function scopeIdFor(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9._@+-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 128);
  return cleaned === '' ? 'unnamed' : cleaned;
}

function info(name: string, root: string, from: ProjectInfo['from']): ProjectInfo {
  const id = scopeIdFor(name);
  return { scope: `project:${id}`, name: id, root, from };
}

/** The nearest ancestor holding `.git` (a directory, or a file pointing elsewhere for worktrees and submodules). */
function gitRoot(dir: string): string | null {
  for (let at = dir, depth = 0; depth < 64; depth++) {
    try {
      statSync(join(at, '.git'));
      return at;
    } catch {
      // not here
    }
    const up = dirname(at);
    if (up === at) return null;
    at = up;
  }
  return null;
}

/** The `origin` remote's URL (else the first remote's) from the repository's config file. */
function originUrl(root: string): string | null {
  const gitDir = resolveGitDir(root);
  if (gitDir === null) return null;
  let config: string;
  try {
    config = readFileSync(join(commonDir(gitDir), 'config'), 'utf8');
  } catch {
    return null;
  }
  let section = '';
  const urls = new Map<string, string>();
  for (const raw of config.split('\n')) {
    const line = raw.trim();
    const header = /^\[remote\s+"([^"]+)"\]$/.exec(line);
    if (header !== null) {
      section = header[1]!;
      continue;
    }
    if (line.startsWith('[')) {
      section = '';
      continue;
    }
    const url = /^url\s*=\s*(.+)$/.exec(line);
    if (section !== '' && url !== null && !urls.has(section)) urls.set(section, url[1]!.trim());
  }
  return urls.get('origin') ?? urls.values().next().value ?? null;
}

function resolveGitDir(root: string): string | null {
  const dotGit = join(root, '.git');
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
    if (pointer === null) return null;
    const target = pointer[1]!.trim();
    return isAbsolute(target) ? target : resolve(root, target);
  } catch {
    return null;
  }
}

/** A worktree's git dir names the main repository's in `commondir`; the remotes live there. */
function commonDir(gitDir: string): string {
  try {
    const common = readFileSync(join(gitDir, 'commondir'), 'utf8').trim();
    return isAbsolute(common) ? common : resolve(gitDir, common);
  } catch {
    return gitDir;
  }
}

/** `git@github.com:acme/api.git`, `https://github.com/acme/api`, `/srv/git/api.git` → `api`. */
export function repoNameFromUrl(url: string): string | null {
  const trimmed = url
    .trim()
    .replace(/[/\\]+$/, '')
    .replace(/\.git$/i, '');
  const last = trimmed
    .split(/[/:\\]/)
    .filter((p) => p !== '')
    .at(-1);
  return last === undefined || last === '' ? null : last;
}
