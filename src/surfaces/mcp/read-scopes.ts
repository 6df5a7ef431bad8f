/**
 * Where an agent's reads look when it names no scopes: the project it works in, `shared` and its own scope,
 * each only if it may read it. The project is derived exactly as the session hook derives it (`projectFor`),
 * from the server's working directory unless `--project` names it; other projects are read only when named.
 */
import { resolve } from 'node:path';
import { projectFor, scopeIdFor } from '../../feeds/project-scope.ts';
import { ownScope } from '../../ledger/scopes.ts';
import { MemoryError } from '../../model/errors.ts';
import type { Principal } from '../../model/principal.ts';
import { can } from '../../policy/access.ts';

/**
 * The `project:<name>` scope for `--project` (a name, `project:NAME`, or a path, which must look like one:
 * `.`, `..`, or containing a slash) or, without it, for the working directory.
 * @example projectScope('acme-api') === 'project:acme-api'; projectScope('./acme') names ./acme's repository
 */
export function projectScope(option?: string, cwd: string = process.cwd()): string {
  if (option === undefined) return projectFor(cwd).scope;
  const given = option.trim();
  if (given === '') throw new MemoryError('invalid_input', '--project needs a name or a path');
  if (given === '.' || given === '..' || /[/\\]/.test(given)) return projectFor(resolve(cwd, given)).scope;
  return `project:${scopeIdFor(given.replace(/^project:/, ''))}`;
}

/**
 * The scopes a read covers: those the caller named, else the defaults it may read. When it may read none of
 * the defaults, all three are passed on, so the ledger refuses the read naming the scope (and audits it).
 */
export function readScopes(principal: Principal, project: string, named: string[] | undefined): string[] {
  if (named !== undefined && named.length > 0) return named;
  const defaults = [...new Set([project, 'shared', ownScope(principal)])];
  const readable = defaults.filter((s) => can(principal, 'read', s));
  return readable.length > 0 ? readable : defaults;
}
