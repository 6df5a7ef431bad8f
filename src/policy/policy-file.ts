/** The policy file (`policy.json` in the data directory): who non-human principals are, and the write gate's rules. */
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { MemoryError } from '../model/errors.ts';
import { KINDS } from '../model/memory.ts';
import { type Grant, grantSchema, ROLES } from '../model/principal.ts';
import { SCOPE_GLOB_PATTERN } from '../model/scope.ts';

export const ACTIONS = ['allow', 'hold', 'deny'] as const;
export type Action = (typeof ACTIONS)[number];

const principalPattern = z
  .string()
  .regex(
    /^(human|agent|service|\*):(\*|[A-Za-z0-9][A-Za-z0-9._@+-]{0,127})$/,
    'principal pattern must be KIND:ID or KIND:* (KIND: human, agent, service or *)',
  );

const ruleSchema = z
  .object({
    name: z.string().min(1).max(80),
    when: z
      .object({
        principal: principalPattern.optional(),
        scope: z
          .string()
          .regex(SCOPE_GLOB_PATTERN, 'scope pattern must be *, shared, KIND:* , KIND:{self} or KIND:ID')
          .optional(),
        kind: z.union([z.enum(KINDS), z.array(z.enum(KINDS)).min(1).max(KINDS.length)]).optional(),
        key: z.string().max(200).optional(),
      })
      .strict()
      .default({}),
    action: z.enum(ACTIONS),
    reason: z.string().max(300).optional(),
  })
  .strict();
export type Rule = z.infer<typeof ruleSchema>;

const identitySchema = z
  .object({
    roles: z.array(z.enum(ROLES)).max(ROLES.length).default(['reader', 'writer']),
    // Bounded so that the scopes a principal reads always fit in one SQL statement's variables.
    grants: z.array(grantSchema).max(1_000).default([]),
  })
  .strict();
export type Identity = { roles: (typeof ROLES)[number][]; grants: Grant[] };

export const policySchema = z
  .object({
    version: z.literal(1),
    /** Non-human principals by `kind:id` or `kind:*`; the exact entry wins over the wildcard. */
    principals: z.record(principalPattern, identitySchema).default({}),
    /** First matching rule decides. */
    rules: z.array(ruleSchema).max(1_000).default([]),
    /** What happens to a non-human write to a key a human owns (wrote, edited or confirmed). */
    ownership: z.enum(['hold', 'deny']).default('hold'),
    /** When no rule matches. */
    default: z.enum(ACTIONS).default('hold'),
  })
  .strict();
export type Policy = z.infer<typeof policySchema>;

/** The policy `init` writes: humans land; agents land in their own scope and are held everywhere else. */
export const DEFAULT_POLICY_DOCUMENT = {
  version: 1,
  principals: {
    'agent:*': { roles: ['reader', 'writer'], grants: ['agent:{self}:rw', 'shared:rw', 'project:*:rw'] },
    'service:*': { roles: ['reader'], grants: ['shared:r'] },
  },
  rules: [
    { name: 'humans-land', when: { principal: 'human:*' }, action: 'allow' },
    { name: 'agent-own-scope', when: { principal: 'agent:*', scope: 'agent:{self}' }, action: 'allow' },
    {
      name: 'agent-elsewhere-held',
      when: { principal: 'agent:*' },
      action: 'hold',
      reason: 'agent writes outside its own scope wait for a person',
    },
  ],
  ownership: 'hold',
  default: 'hold',
} as const;

export const POLICY_FILE = 'policy.json';

/** Parses a policy document, refusing an invalid one with the path and problem of each issue. */
export function parsePolicy(document: unknown, origin = 'policy'): Policy {
  const parsed = policySchema.safeParse(document);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    throw new MemoryError('invalid_input', `${origin} is invalid: ${problems}`);
  }
  return parsed.data;
}

/** Loads `policy.json` from a path; a missing file means the default policy. */
export function loadPolicy(path: string): Policy {
  if (!existsSync(path)) return parsePolicy(DEFAULT_POLICY_DOCUMENT, 'default policy');
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new MemoryError('invalid_input', `${path} is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return parsePolicy(document, path);
}
