/**
 * A module beside the caller, named without its extension: `.ts` when the caller runs from source, `.js` once
 * built. tsc rewrites the `.ts` of import specifiers, not of strings, so a worker's, a child process's or a
 * lazily probed module's path must be made here, or an installed package asks for a `.ts` file it does not ship.
 * @example new Worker(sibling(import.meta.url, 'local-worker'))
 */
export function sibling(callerUrl: string, name: string): URL {
  return new URL(`./${name}.${callerUrl.endsWith('.ts') ? 'ts' : 'js'}`, callerUrl);
}
