/** The connectors a feed can use, by name. */
import { MemoryError } from '../../model/errors.ts';
import type { Connector } from '../types.ts';
import { claudeCode } from './claude-code.ts';
import { codex } from './codex.ts';
import { folder } from './folder.ts';

export const CONNECTORS: readonly Connector[] = [claudeCode, codex, folder];
export const CONNECTOR_NAMES = CONNECTORS.map((c) => c.kind);

export function connectorFor(kind: string): Connector {
  const found = CONNECTORS.find((c) => c.kind === kind);
  if (found === undefined) {
    throw new MemoryError('invalid_input', `unknown connector ${kind}; one of ${CONNECTOR_NAMES.join(', ')}`);
  }
  return found;
}
