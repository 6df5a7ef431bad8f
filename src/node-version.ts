/**
 * The Node.js memledger needs, checked before anything reaches `node:sqlite`. Imported first by the library's
 * entry (index.ts), so importing memledger on an older Node says what to install instead of failing with
 * ERR_UNKNOWN_BUILTIN_MODULE. bin/memledger.js, which must run before any TypeScript loads, words it the same.
 */

export const NODE_MAJOR_REQUIRED = 24;

/** The plain message for an older Node, or null when this one will do. */
export function nodeVersionProblem(version: string = process.versions.node): string | null {
  const major = Number(version.split('.')[0]);
  if (major >= NODE_MAJOR_REQUIRED) return null;
  return (
    `memledger needs Node.js ${NODE_MAJOR_REQUIRED} or newer; this is Node.js v${version}. ` +
    `Install Node.js ${NODE_MAJOR_REQUIRED} from https://nodejs.org/en/download ` +
    `(or with a version manager: nvm install ${NODE_MAJOR_REQUIRED}, fnm install ${NODE_MAJOR_REQUIRED}, ` +
    `volta install node@${NODE_MAJOR_REQUIRED}), make it the node on your PATH, then run memledger again.`
  );
}

const problem = nodeVersionProblem();
if (problem !== null) throw new Error(problem);
