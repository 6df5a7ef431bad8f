/**
 * Who is calling the CLI, decided in one place: an API token's principal, a non-human principal named with
 * `--as` or MEMLEDGER_PRINCIPAL, or the local operator (the OS user). Judging verbs also refuse the local
 * operator where a person cannot be told from an agent: an agent environment, or a stdin that is no terminal (I7).
 */
import { openTokenStore } from '../../auth/sqlite-token-store.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import { MemoryError } from '../../model/errors.ts';
import { type Principal, parsePrincipalRef, principalLabel } from '../../model/principal.ts';
import { detectAgentEnvironment } from './agent-env.ts';

export interface Caller {
  principal: Principal;
  /** How the principal was established: an API token, the policy (a non-human by name), or the OS user. */
  source: 'token' | 'policy' | 'operator';
  /** The token's id when `source` is `token`, stamped into provenance and audit. */
  tokenId?: string;
}

export interface CallerOptions {
  /** `--token SECRET`. Never echoed, never audited. */
  token?: string;
  /** `--as P`. */
  as?: string;
  env: NodeJS.ProcessEnv;
}

/**
 * Resolves the caller. Flags win over the environment, as for `memledger mcp`: `--token`, else `--as`, else
 * MEMLEDGER_TOKEN, else MEMLEDGER_PRINCIPAL, else the local operator. `--as` and `--token` together are refused.
 * @example resolveCaller(ledger, { as: 'agent:bot', env: process.env }).principal // agent:bot from the policy
 */
export function resolveCaller(ledger: Ledger, options: CallerOptions): Caller {
  const chosen = chooseCaller(options);
  if (chosen.token !== undefined) return fromToken(ledger, chosen.token, chosen.origin);
  return chosen.ref === undefined ? operator(ledger) : fromRef(ledger, chosen.ref, chosen.origin);
}

/**
 * The same decision for a store whose tokens answer asynchronously (a database): the token is verified before
 * the command runs, so `ctx.session()` stays synchronous for every command.
 */
export async function resolveCallerAsync(ledger: Ledger, options: CallerOptions): Promise<Caller> {
  const chosen = chooseCaller(options);
  if (chosen.token === undefined) return resolveCaller(ledger, options);
  const tokens = await ledger.openTokens();
  try {
    const { principal, tokenId } = await tokens.verify(chosen.token);
    return { principal, source: 'token', tokenId };
  } catch (error) {
    throw fromTokenFailure(error, chosen.origin);
  } finally {
    await tokens.close();
  }
}

/** Whether these options name a token (which a database's store must verify before the command runs). */
export const namesToken = (options: CallerOptions): boolean => chooseCaller(options).token !== undefined;

type Chosen = { token?: string; ref?: string; origin: string };

function chooseCaller(options: CallerOptions): Chosen {
  const as = nonEmpty(options.as);
  const flagToken = nonEmpty(options.token);
  if (as !== undefined && flagToken !== undefined) {
    throw new MemoryError('invalid_input', 'give either --as or --token, not both');
  }
  if (flagToken !== undefined) return { token: flagToken, origin: '--token' };
  if (as !== undefined) return { ref: as, origin: '--as' };
  const envToken = nonEmpty(options.env.MEMLEDGER_TOKEN);
  if (envToken !== undefined) return { token: envToken, origin: 'MEMLEDGER_TOKEN' };
  const envRef = nonEmpty(options.env.MEMLEDGER_PRINCIPAL);
  if (envRef !== undefined) return { ref: envRef, origin: 'MEMLEDGER_PRINCIPAL' };
  return { origin: 'operator' };
}

const operator = (ledger: Ledger): Caller => ({ principal: ledger.operator(), source: 'operator' });

/**
 * A principal named by reference on the command line or in the environment. An agent or a service comes
 * from the policy. `human:NAME` is accepted only for the local user, who is then simply the operator: acting
 * as another person needs that person's token, or anyone at this shell could sign as anyone.
 */
export function principalForRef(ledger: Ledger, ref: string, origin = '--as'): Principal {
  const { kind, id } = parsePrincipalRef(ref);
  if (kind !== 'human') return ledger.principal(ref);
  const operator = ledger.operator();
  if (id === operator.id) return operator;
  throw new MemoryError(
    'permission',
    `${origin} human:${id} is refused: you are ${principalLabel(operator)} here, and acting as another person needs their token (--token or MEMLEDGER_TOKEN)`,
    { details: { refusal: 'other-human' } },
  );
}

/**
 * Refuses a judging verb (a verdict, a claim, an erasure, token management) from the local operator when an
 * agent environment is detected or stdin is not a terminal: a person runs it at a terminal, and a script
 * acting for a person presents that person's token. A token's principal and a named non-human pass through:
 * the library decides those by kind and role (I7).
 */
export function assertMayJudge(
  caller: Caller,
  command: string,
  io: { env: NodeJS.ProcessEnv; stdinIsTTY?: boolean },
): void {
  if (caller.source !== 'operator') return;
  const remedy =
    'a person runs this at a terminal, or a script passes a human token with --token (or MEMLEDGER_TOKEN)';
  const agent = detectAgentEnvironment(io.env);
  if (agent !== null) {
    throw new MemoryError(
      'permission',
      `${command} refuses verdicts from an agent environment (${agent.variable} is set: ${agent.agent}); ${remedy}`,
      { details: { refusal: 'agent-environment', variable: agent.variable } },
    );
  }
  if (io.stdinIsTTY !== true) {
    throw new MemoryError(
      'permission',
      `${command} refuses verdicts from a non-interactive stdin; ${remedy}`,
      {
        details: { refusal: 'non-interactive' },
      },
    );
  }
}

/**
 * Synchronous, because every command asks `ctx.session()` synchronously and resolves its caller lazily (a
 * command that never needs a session never checks a token): a data directory's auth.db answers at once. A
 * database's token is verified before the command runs instead (`resolveCallerAsync`).
 */
function fromToken(ledger: Ledger, secret: string, origin: string): Caller {
  const tokens = openTokenStore(ledger.home);
  try {
    const { principal, tokenId } = tokens.verifySync(secret);
    return { principal, source: 'token', tokenId };
  } catch (error) {
    throw fromTokenFailure(error, origin);
  } finally {
    tokens.closeSync();
  }
}

/** The store's message names the token's id or the failure, never the secret. */
function fromTokenFailure(error: unknown, origin: string): MemoryError {
  const e = error instanceof MemoryError ? error : new MemoryError('internal', String(error));
  return new MemoryError(e.class, `${origin}: ${e.message}`, { details: e.details, cause: error });
}

function fromRef(ledger: Ledger, ref: string, origin: string): Caller {
  const principal = principalForRef(ledger, ref, origin);
  return { principal, source: principal.kind === 'human' ? 'operator' : 'policy' };
}

const nonEmpty = (value: string | undefined): string | undefined =>
  value === undefined || value === '' ? undefined : value;
