/** `memledger audit`: recent audit records as a table, or failure counts by class and operation (I8). */
import type { AuditFilter, AuditRecord, FailureCount } from '../../../audit/record.ts';
import { ERROR_CLASSES, MemoryError } from '../../../model/errors.ts';
import { defined, optChoice, optFlag, optInt, optString } from '../args.ts';
import { defineCommand } from '../command.ts';
import { plural, shortTime, table } from '../render.ts';

/** Tagged, so a script reading `--json` knows which it got even when the list is empty. */
export type AuditOutput = { records: AuditRecord[] } | { failures: FailureCount[] };

export const audit = defineCommand<AuditOutput>({
  name: 'audit',
  summary: 'show recent calls, allowed and refused, or failure counts (--failures)',
  usage: `memledger audit [--failures] [--principal P] [--operation O] [--outcome ok|error] [--class C] [--since T] [--limit N]
  Every call on every surface is recorded, allowed or refused, without memory content.
  --failures        counts of failures by class and operation instead of records
  --principal P     only calls by P, e.g. agent:claude-code
  --operation O     only this operation, e.g. remember, review.approve
  --outcome O       ok or error
  --class C         only failures of this class: ${ERROR_CLASSES.join(', ')}
  --since T         only records at or after time T
  --limit N         at most N records (default 50)`,
  options: {
    failures: { type: 'boolean' },
    principal: { type: 'string' },
    operation: { type: 'string' },
    outcome: { type: 'string' },
    class: { type: 'string' },
    since: { type: 'string' },
    limit: { type: 'string' },
  },
  async run(ctx, _args, values) {
    const filter: AuditFilter = defined({
      principal: optString(values, 'principal'),
      operation: optString(values, 'operation'),
      outcome: optChoice(values, 'outcome', ['ok', 'error'] as const),
      failureClass: optChoice(values, 'class', ERROR_CLASSES),
      since: optString(values, 'since'),
      limit: optInt(values, 'limit') ?? 50,
    });
    if (filter.limit !== undefined && (filter.limit < 1 || filter.limit > 10_000)) {
      throw new MemoryError('invalid_input', `--limit must be between 1 and 10000, got ${filter.limit}`);
    }
    if (optFlag(values, 'failures')) return { failures: await ctx.session().auditFailures(filter.since) };
    return { records: await ctx.session().audit(filter) };
  },
  render: (output) => ('failures' in output ? failuresText(output.failures) : recordsText(output.records)),
});

function recordsText(records: AuditRecord[]): string {
  if (records.length === 0) return 'no audit records match\n';
  const head = [
    { header: 'time' },
    { header: 'principal' },
    { header: 'surface' },
    { header: 'operation' },
    { header: 'outcome' },
    { header: 'class' },
    { header: 'ms', right: true },
    { header: 'targets', flex: true },
  ];
  const rows = records.map((r) => [
    shortTime(r.at),
    r.principal,
    r.surface,
    operationLabel(r.operation, r.tool),
    r.outcome,
    r.failureClass ?? '',
    r.durationMs.toFixed(1),
    r.targets.join(' '),
  ]);
  return `${table(head, rows, 140)}\n\n${plural(records.length, 'record')}, newest first\n`;
}

function failuresText(failures: FailureCount[]): string {
  if (failures.length === 0) return 'no failures recorded\n';
  const head = [{ header: 'class' }, { header: 'operation' }, { header: 'count', right: true }];
  const rows = failures.map((f) => [f.failureClass, operationLabel(f.operation, f.tool), String(f.count)]);
  const total = failures.reduce((sum, f) => sum + f.count, 0);
  return `${table(head, rows)}\n\n${plural(total, 'failure')}\n`;
}

/** `review.approve`, with the surface's tool name only when it says something the operation does not. */
function operationLabel(operation: string, tool: string | null): string {
  if (tool === null || tool.replace(/ /g, '.') === operation) return operation;
  return `${operation} (${tool})`;
}
