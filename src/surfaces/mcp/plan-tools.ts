/**
 * The agent tools for commitments (add, list, update) and summary chains (next, add). Each calls one session
 * verb; what an agent writes passes the gate like save_memory (I18): in a shared scope it waits for review.
 */
import { z } from 'zod';
import type { LedgerSession } from '../../index.ts';
import type { Commitment } from '../../ledger/plans/commitments.ts';
import { chainNameSchema, COMMITMENT_STATUSES } from '../../model/commitment.ts';
import { LIMITS, memoryIdSchema, subjectSchema } from '../../model/memory.ts';
import { scopeSchema } from '../../model/scope.ts';
import {
  addCommitmentOutput,
  listCommitmentsOutput,
  summaryAddOutput,
  summaryNextOutput,
  updateCommitmentOutput,
} from './plan-output-schemas.ts';
import { oneLine } from './render.ts';
import { type Tool, type ToolEnv, tool } from './tools.ts';

const time = (what: string) =>
  z.string().max(64).describe(`${what} (ISO-8601, e.g. 2025-03-01 or 2025-03-01T09:00:00Z)`);

export function planTools(env: ToolEnv): Tool[] {
  return [
    tool({
      name: 'add_commitment',
      title: 'Add a commitment',
      operation: 'commitments.add',
      description: [
        'Record something to do later (a promise, a follow-up): text, optional due time, and optional triggers:',
        '`when` words that bring it up when they appear in a new memory or a task, a one-off `at` time, or a cron',
        `schedule. It is a memory like any other: in your own scope (${env.defaultScope}, the default) it lands;`,
        'elsewhere it waits for a person to approve it, and a commitment a person rejected stays rejected.',
      ].join(' '),
      input: z
        .object({
          text: z.string().min(1).max(LIMITS.body).describe('What is to be done, in one sentence.'),
          scope: scopeSchema.optional().describe(`Where it lives. Default: ${env.defaultScope}.`),
          due: time('When it is due').optional(),
          when: z
            .array(z.string().min(1).max(100))
            .max(20)
            .optional()
            .describe('Trigger phrases, e.g. ["acme renewal"].'),
          at: time('A reminder time').optional(),
          schedule: z
            .object({ cron: z.string().max(100), tz: z.string().max(64).optional() })
            .strict()
            .optional()
            .describe('A five-field cron schedule and its IANA time zone (default UTC).'),
          subjects: z.array(subjectSchema).max(LIMITS.subjects).optional(),
        })
        .strict(),
      output: addCommitmentOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
      async run(session, a) {
        const triggers = {
          ...(a.when === undefined ? {} : { words: a.when }),
          ...(a.at === undefined ? {} : { at: a.at }),
          ...(a.schedule === undefined
            ? {}
            : { schedule: { cron: a.schedule.cron, tz: a.schedule.tz ?? 'UTC' } }),
        };
        const r = await session.commitments.add({
          body: a.text,
          scope: a.scope ?? env.defaultScope,
          ...(a.due === undefined ? {} : { due: a.due }),
          ...(a.subjects === undefined ? {} : { subjects: a.subjects }),
          ...(Object.keys(triggers).length > 0 ? { triggers } : {}),
        });
        return {
          id: r.id,
          state: r.state,
          ...(r.reason === undefined ? {} : { reason: oneLine(r.reason) }),
          ...(r.commitment === null ? {} : { commitment: commitmentView(r.commitment) }),
          ...(r.state === 'held'
            ? { next: 'Waiting for a person to approve it; do not add it again.' }
            : r.state === 'rejected'
              ? { next: 'A person rejected this commitment before; do not add it again.' }
              : {}),
        };
      },
    }),
    tool({
      name: 'list_commitments',
      title: 'List commitments',
      operation: 'commitments.list',
      description:
        'Commitments you may read, soonest due first: open and doing ones unless you ask for other statuses.',
      input: z
        .object({
          status: z.array(z.enum(COMMITMENT_STATUSES)).max(4).optional(),
          due_before: time('Only those due by then').optional(),
          scopes: z.array(scopeSchema).max(50).optional(),
          limit: z.number().int().min(1).max(LIMITS.limit).optional(),
        })
        .strict(),
      output: listCommitmentsOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
      async run(session, a) {
        const list = await session.commitments.list({
          statuses: a.status ?? ['open', 'doing'],
          ...(a.due_before === undefined ? {} : { dueBefore: a.due_before }),
          ...(a.scopes === undefined ? {} : { scopes: a.scopes }),
          ...(a.limit === undefined ? {} : { limit: a.limit }),
        });
        return { commitments: list.map(commitmentView) };
      },
    }),
    tool({
      name: 'update_commitment',
      title: 'Move a commitment',
      operation: 'commitments.update',
      description:
        'Move one of your commitments: open, doing, done or cancelled (done and cancelled are final). You may move only commitments you own; a person moves anyone\u2019s.',
      input: z.object({ id: memoryIdSchema, status: z.enum(COMMITMENT_STATUSES) }).strict(),
      output: updateCommitmentOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      async run(session, a) {
        const r = await session.commitments.update({ id: a.id, status: a.status });
        return {
          commitment: commitmentView(r.commitment),
          changed: r.change !== null,
          ...(r.change === null ? { next: `It was already ${a.status}; nothing changed.` } : {}),
        };
      },
    }),
    tool({
      name: 'summary_next',
      title: 'Next window of a summary chain',
      operation: 'summaries.next',
      description: [
        'What is new in a summary chain since its last summary (never from the beginning), oldest first and',
        'bounded. Summarise these memories, then store the summary with summary_add, passing `until` and `token`.',
      ].join(' '),
      input: z
        .object({ chain: chainNameSchema, limit: z.number().int().min(1).max(LIMITS.limit).optional() })
        .strict(),
      output: summaryNextOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
      async run(session, a) {
        const w = await session.summaries.next({
          chain: a.chain,
          ...(a.limit === undefined ? {} : { limit: a.limit }),
        });
        return {
          chain: w.chain,
          ...(w.previous === null ? {} : { previous: w.previous }),
          ...(w.after === null ? {} : { after: w.after }),
          ...(w.until === null ? {} : { until: w.until }),
          memories: w.memories.map((m) => ({
            id: m.id,
            kind: m.kind,
            body: m.body,
            recorded_at: m.recordedAt,
          })),
          more: w.more,
          token: w.token,
          ...(w.memories.length === 0 ? { next: 'Nothing new to summarise.' } : {}),
        };
      },
    }),
    tool({
      name: 'summary_add',
      title: 'Add a summary to a chain',
      operation: 'summaries.add',
      description:
        'Store the next summary of a chain, covering its window up to `until` (from summary_next). It is a memory: outside your own scope it waits for a person. The source memories stay.',
      input: z
        .object({
          chain: chainNameSchema,
          until: time('The window’s until, from summary_next'),
          body: z.string().min(1).max(LIMITS.body).describe('The summary.'),
          token: z.string().max(1_000).optional().describe('The window token from summary_next.'),
          subjects: z.array(subjectSchema).max(LIMITS.subjects).optional(),
        })
        .strict(),
      output: summaryAddOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
      async run(session: LedgerSession, a) {
        const r = await session.summaries.add({
          chain: a.chain,
          until: a.until,
          body: a.body,
          ...(a.token === undefined ? {} : { token: a.token }),
          ...(a.subjects === undefined ? {} : { subjects: a.subjects }),
        });
        return {
          id: r.id,
          state: r.state,
          ...(r.reason === undefined ? {} : { reason: oneLine(r.reason) }),
          chain: r.chain,
          ...(r.previous === null ? {} : { previous: r.previous }),
          cutoff: r.cutoff,
          covered: r.covered,
        };
      },
    }),
  ];
}

function commitmentView(c: Commitment) {
  return {
    id: c.id,
    scope: c.scope,
    body: c.body,
    owner: c.owner,
    status: c.status,
    ...(c.due === null ? {} : { due: c.due }),
    ...(Object.keys(c.triggers).length === 0 ? {} : { triggers: c.triggers }),
    ...(c.completedAt === null ? {} : { completed_at: c.completedAt }),
    status_at: c.statusAt,
    status_by: c.statusBy,
  };
}
