/**
 * Editing the JSON settings both agents share the shape of: `hooks` (event → matcher groups → command
 * handlers) and `mcpServers` (name → launch). Only entries this tool recognises as its own are ever replaced or
 * removed; everything else in the document is kept as it was, in its order.
 *
 * Hook settings shape relied on (Claude Code hooks reference; Codex hooks.json uses the same):
 * `{"hooks":{"<Event>":[{"matcher":"…","hooks":[{"type":"command","command":"…","timeout":<seconds>}]}]}}`.
 */

export interface HookSpec {
  event: string;
  /** SessionStart's matcher filters by source (startup|resume|clear|compact); most events take none. */
  matcher?: string;
  command: string;
  /** Seconds before the agent gives up on the command. */
  timeout: number;
}

type Json = Record<string, unknown>;
type Group = { matcher?: unknown; hooks?: unknown };
type Handler = { type?: unknown; command?: unknown; timeout?: unknown };

/** The document with exactly `wanted` as this tool's hook handlers; the same object when nothing changes. */
export function withOurHooks(
  doc: Json,
  wanted: readonly HookSpec[],
  ours: (command: unknown) => boolean,
): { doc: Json; what: string[] } {
  const current = ourHooks(doc, ours);
  const key = (h: HookSpec) => JSON.stringify([h.event, h.matcher ?? null, h.command, h.timeout]);
  const same =
    current.length === wanted.length &&
    current.map(key).sort().join('\n') === wanted.map(key).sort().join('\n');
  if (same) return { doc, what: [] };
  const { doc: next } = withoutOurHooks(doc, ours);
  const hooks = (isObject(next.hooks) ? next.hooks : {}) as Json;
  for (const h of wanted) {
    const list = Array.isArray(hooks[h.event]) ? (hooks[h.event] as unknown[]) : [];
    const group: Group = h.matcher === undefined ? {} : { matcher: h.matcher };
    group.hooks = [{ type: 'command', command: h.command, timeout: h.timeout }];
    hooks[h.event] = [...list, group];
  }
  next.hooks = hooks;
  return {
    doc: next,
    what: wanted.map((h) => `hooks.${h.event}${h.matcher === undefined ? '' : ` (${h.matcher})`}`),
  };
}

/** The document without this tool's hook handlers, pruning only the groups, events and object they emptied. */
export function withoutOurHooks(
  doc: Json,
  ours: (command: unknown) => boolean,
): { doc: Json; what: string[] } {
  if (!isObject(doc.hooks)) return { doc, what: [] };
  const next = structuredClone(doc);
  const hooks = next.hooks as Json;
  const what: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const kept: unknown[] = [];
    for (const g of groups as Group[]) {
      if (!isObject(g) || !Array.isArray(g.hooks)) {
        kept.push(g);
        continue;
      }
      const handlers = (g.hooks as Handler[]).filter((h) => !(isObject(h) && ours(h.command)));
      if (handlers.length === g.hooks.length) kept.push(g);
      else {
        what.push(`hooks.${event}`);
        if (handlers.length > 0) kept.push({ ...g, hooks: handlers });
      }
    }
    if (kept.length === groups.length && kept.every((g, i) => g === groups[i])) continue;
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  if (what.length === 0) return { doc, what };
  if (Object.keys(hooks).length === 0) delete next.hooks;
  return { doc: next, what };
}

/** This tool's hook handlers in a document. */
export function ourHooks(doc: Json, ours: (command: unknown) => boolean): HookSpec[] {
  const out: HookSpec[] = [];
  if (!isObject(doc.hooks)) return out;
  for (const [event, groups] of Object.entries(doc.hooks as Json)) {
    if (!Array.isArray(groups)) continue;
    for (const g of groups as Group[]) {
      if (!isObject(g) || !Array.isArray(g.hooks)) continue;
      for (const h of g.hooks as Handler[]) {
        if (!isObject(h) || !ours(h.command)) continue;
        out.push({
          event,
          ...(typeof g.matcher === 'string' ? { matcher: g.matcher } : {}),
          command: h.command as string,
          timeout: typeof h.timeout === 'number' ? h.timeout : Number.NaN,
        });
      }
    }
  }
  return out;
}

/** The document with `mcpServers[name]` set to `spec`; the same object when it already is. */
export function withMcpServer(doc: Json, name: string, spec: Json): { doc: Json; what: string[] } {
  const servers = isObject(doc.mcpServers) ? (doc.mcpServers as Json) : undefined;
  if (servers !== undefined && JSON.stringify(servers[name]) === JSON.stringify(spec))
    return { doc, what: [] };
  const next = structuredClone(doc);
  next.mcpServers = { ...((next.mcpServers as Json | undefined) ?? {}), [name]: spec };
  return { doc: next, what: [`mcpServers.${name}`] };
}

export function withoutMcpServer(doc: Json, name: string): { doc: Json; what: string[] } {
  if (!isObject(doc.mcpServers) || !(name in (doc.mcpServers as Json))) return { doc, what: [] };
  const next = structuredClone(doc);
  const servers = next.mcpServers as Json;
  delete servers[name];
  if (Object.keys(servers).length === 0) delete next.mcpServers;
  return { doc: next, what: [`mcpServers.${name}`] };
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
