/** The formats `import --from` reads, by name: cheap to load, so a surface can list them without the readers. */
import { MemoryError } from '../model/errors.ts';

export const FOREIGN_FORMATS = ['mcp-memory', 'mem0', 'markdown'] as const;
export type ForeignFormat = (typeof FOREIGN_FORMATS)[number];

/** The format a `--from` name names, or `invalid_input` listing the formats there are. */
export function foreignFormat(name: string): ForeignFormat {
  const found = FOREIGN_FORMATS.find((f) => f === name);
  if (found !== undefined) return found;
  throw new MemoryError(
    'invalid_input',
    `unknown import format; --from takes one of: ${FOREIGN_FORMATS.join(', ')}`,
    { details: { formats: [...FOREIGN_FORMATS] } },
  );
}
