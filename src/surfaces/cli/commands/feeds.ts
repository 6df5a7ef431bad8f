/**
 * `memledger feeds add | list | sync | remove`: transcript and notes feeds. `feeds sync --all` suits a cron line
 * or the end-of-session hook; progress is drawn on stderr only when it is a terminal.
 */
import { isAbsolute, resolve } from 'node:path';
import { parseFeedConfig } from '../../../feeds/config.ts';
import { CONNECTOR_NAMES, connectorFor } from '../../../feeds/connectors/index.ts';
import { checkFeedFolder } from '../../../feeds/folder-check.ts';
import { type SyncReport, syncFeed } from '../../../feeds/sync.ts';
import type { Feed } from '../../../ledger/feeds.ts';
import { type ErrorClass, MemoryError } from '../../../model/errors.ts';
import { defined, optFlag, optString } from '../args.ts';
import { principalForRef } from '../caller.ts';
import { defineCommand } from '../command.ts';
import { fields, plural, shortTime, table } from '../render.ts';

export const feedsAdd = defineCommand<Feed>({
  name: 'feeds add',
  summary: 'add a feed: Claude Code transcripts, Codex rollouts or a folder of Markdown notes',
  usage: `memledger feeds add claude-code|codex|folder [--name N] [--path P] [--scope S] [--principal P]
  Mined candidates are written as an agent (agent:claude-code, agent:codex, agent:notes) and, by the
  default policy, wait for review in project scopes.
  --name N          the feed's name (default: the connector's)
  --path P          what to read (default: ~/.claude/projects, ~/.codex/sessions, the current directory);
                    a folder that does not exist, is a file or cannot be read is refused
  --scope S         put every candidate in this scope (default: project:<repository> of each session)
  --principal P     write as this agent instead (roles and grants from policy.json)
  Then: memledger feeds sync --all   (cron: */15 * * * * memledger feeds sync --all --json)`,
  positionals: { min: 1, max: 1 },
  options: {
    name: { type: 'string' },
    path: { type: 'string' },
    scope: { type: 'string' },
    principal: { type: 'string' },
  },
  async run(ctx, [kind], values) {
    if (!CONNECTOR_NAMES.includes(kind!)) {
      throw new MemoryError(
        'invalid_input',
        `feeds add takes one of ${CONNECTOR_NAMES.join(', ')}, got ${kind}`,
      );
    }
    const connector = connectorFor(kind!);
    const given = optString(values, 'path');
    const path = given === undefined ? connector.defaultPath(ctx.io.env) : absolute(given);
    const principal = optString(values, 'principal');
    const session = ctx.session();
    // As `--as`: a feed writes as another person only with that person's token, never by naming them.
    principalForRef(ctx.ledger(), principal ?? connector.principal, '--principal');
    // A malformed scope or principal is refused now, not on the first sync; so is a folder that is not there.
    const config = parseFeedConfig(defined({ path, scope: optString(values, 'scope'), principal }));
    checkFeedFolder(config.path, kind!);
    return session.feedAdd({
      name: optString(values, 'name') ?? kind!,
      connector: kind!,
      config: defined(config),
    });
  },
  render: (f) =>
    `added feed ${f.name} (${f.connector}) reading ${String(f.config.path)}\nnext: memledger feeds sync ${f.name}\n`,
});

export const feedsList = defineCommand<{ feeds: Feed[] }>({
  name: 'feeds list',
  summary: 'list feeds: what each reads, when it last synced, what it wrote',
  usage: 'memledger feeds list',
  async run(ctx) {
    return { feeds: await ctx.session().feedList() };
  },
  render: ({ feeds }) => {
    if (feeds.length === 0) return 'no feeds yet; add one: memledger feeds add claude-code\n';
    const rows = feeds.map((f) => [
      f.name,
      f.connector,
      String(f.config.scope ?? 'project of each session'),
      shortTime(f.lastSyncAt) || 'never',
      `${f.stats.written ?? 0} new, ${f.stats.held ?? 0} held, ${f.stats.corroborated ?? 0} corroborated`,
      f.lastError ?? '',
      String(f.config.path),
    ]);
    const head = [
      { header: 'name' },
      { header: 'connector' },
      { header: 'scope' },
      { header: 'last sync' },
      { header: 'written' },
      { header: 'last error' },
      { header: 'path', flex: true },
    ];
    return `${table(head, rows)}\n`;
  },
});

export const feedsSync = defineCommand<{ reports: SyncReport[] }>({
  name: 'feeds sync',
  summary: 'read new transcript lines and notes into the review queue (safe to run again)',
  usage: `memledger feeds sync [NAME | --all]
  Reads each feed from its checkpoint, mines candidates and writes them for review. Running it again
  changes nothing; a sync that stops halfway resumes where it committed. Every sync is audited. If a feed
  failed, the exit code names the class: 6 upstream (its folder is gone or unreadable), 2 invalid_input
  (lines that are not JSON: passed over, the rest read), 1 internal.`,
  positionals: { min: 0, max: 1 },
  options: { all: { type: 'boolean' } },
  async run(ctx, [name], values) {
    if (name !== undefined && optFlag(values, 'all')) {
      throw new MemoryError('invalid_input', 'give a feed name or --all, not both');
    }
    const session = ctx.session();
    const names = name === undefined ? (await session.feedList()).map((f) => f.name) : [name];
    const progress = ctx.io.interactive && !ctx.json;
    const reports: SyncReport[] = [];
    for (const feed of names) {
      const report = await syncFeed(ctx.ledger(), session, feed, {
        onProgress: progress
          ? (p) =>
              ctx.io.stderr.write(
                `\r\u001b[2K${p.feed}: ${plural(p.batches, 'batch', 'batches')}, ${plural(p.entries, 'entry', 'entries')}, ${p.written} new`,
              )
          : undefined,
      });
      if (progress) ctx.io.stderr.write('\r\u001b[2K');
      reports.push(report);
    }
    const failed = reports.filter((r) => r.error !== null);
    if (failed.length > 0) {
      ctx.partialFailure(
        new MemoryError(
          worstClass(failed),
          `${plural(failed.length, 'feed')} failed: ${failed.map((r) => `${r.feed} (${r.error})`).join('; ')}`,
        ),
        // Each feed's sync wrote its own record, with its class and counts.
        { audited: true },
      );
    }
    return { reports };
  },
  render: ({ reports }) => {
    if (reports.length === 0) return 'no feeds to sync; add one: memledger feeds add claude-code\n';
    return reports
      .map((r) => {
        const outcome = r.error === null ? '' : r.stopped ? `: stopped: ${r.error}` : `: failed: ${r.error}`;
        const head = `${r.feed} (${r.connector})${outcome}`;
        return `${head}\n${fields([
          ['read', `${plural(r.entries, 'entry', 'entries')} in ${plural(r.batches, 'batch', 'batches')}`],
          [
            'new',
            `${r.written} (${r.held} held for review, ${r.landed} landed, ${r.rejected} rejected before)`,
          ],
          ['corroborated', String(r.corroborated)],
          ['already read', String(r.duplicates)],
          [
            'dropped',
            `${r.droppedNoise} noise, ${r.droppedSecrets} credential-like, ${r.refused} refused, ${r.skipped} of unknown shape, ${r.malformed} not JSON`,
          ],
        ])}`;
      })
      .join('\n\n')
      .concat('\n');
  },
});

export const feedsRemove = defineCommand<{ name: string; removed: boolean }>({
  name: 'feeds remove',
  summary: 'remove a feed (its memories stay; re-adding it mines nothing twice)',
  usage: 'memledger feeds remove NAME',
  positionals: { min: 1, max: 1 },
  async run(ctx, [name]) {
    const { removed } = await ctx.session().feedRemove(name!);
    if (!removed) throw new MemoryError('not_found', `no feed named ${name}`);
    return { name: name!, removed };
  },
  render: (r) => `removed feed ${r.name}\n`,
});

const absolute = (path: string): string => (isAbsolute(path) ? path : resolve(path));

/** The class an exit code reports for several failed feeds: our bug first, then the source, then its data. */
function worstClass(failed: SyncReport[]): ErrorClass {
  const order: ErrorClass[] = ['internal', 'upstream', 'invalid_input'];
  const classes = failed.map((r) => r.errorClass ?? 'internal');
  return order.find((c) => classes.includes(c)) ?? classes[0]!;
}
