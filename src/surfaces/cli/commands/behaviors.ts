/**
 * `memledger behaviors add | list | show | disable | next | complete | fail | run | runs` and `memledger
 * scheduler`: behaviors as an operator drives them. The library decides what is outstanding and records what
 * came back; these parse, call it and render.
 */
import { readFile } from 'node:fs/promises';
import { parseDefinitionText } from '../../../behaviors/definition.ts';
import { execBehavior, type ExecRun } from '../../../behaviors/exec.ts';
import type { Behavior } from '../../../behaviors/manage.ts';
import type { RunReport } from '../../../behaviors/runs.ts';
import { MemoryError } from '../../../model/errors.ts';
import { optFlag, optInt, optString } from '../args.ts';
import { defineCommand } from '../command.ts';
import { fileError } from '../files.ts';
import { shortTime, table } from '../render.ts';

async function readText(path: string, stdin: NodeJS.ReadableStream): Promise<string> {
  if (path !== '-') {
    try {
      return await readFile(path, 'utf8');
    } catch (error) {
      throw fileError(error, `read ${path}`);
    }
  }
  const chunks: Buffer[] = [];
  for await (const c of stdin) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

export const behaviorsAdd = defineCommand<Behavior & { changed: boolean }>({
  name: 'behaviors add',
  summary: 'define a behavior from a TOML or JSON file (a changed definition is a new version; admins only)',
  usage: `memledger behaviors add FILE
  FILE is TOML (or JSON when it ends in .json): name, prompt, triggers, reads, writes (see README).`,
  positionals: { min: 1, max: 1 },
  judgement: true,
  async run(ctx, [file]) {
    const definition = parseDefinitionText(await readText(file!, ctx.io.stdin), file);
    return ctx.session().behaviors.add(definition);
  },
  render: (b) =>
    b.changed
      ? `behavior ${b.name} is at version ${b.version}\n`
      : `behavior ${b.name} unchanged (version ${b.version})\n`,
});

export const behaviorsList = defineCommand<{ behaviors: Behavior[] }>({
  name: 'behaviors list',
  summary: 'list behaviors: version, triggers, and whether they are disabled',
  usage: 'memledger behaviors list',
  async run(ctx) {
    return { behaviors: await ctx.session().behaviors.list() };
  },
  render: ({ behaviors }) => {
    if (behaviors.length === 0) return 'no behaviors yet; add one: memledger behaviors add FILE\n';
    const rows = behaviors.map((b) => [
      b.name,
      String(b.version),
      b.definition.triggers.map((t) => t.type).join(', '),
      b.disabledAt === null ? 'enabled' : `disabled ${shortTime(b.disabledAt)}`,
    ]);
    return `${table([{ header: 'name' }, { header: 'version' }, { header: 'triggers' }, { header: 'state', flex: true }], rows)}\n`;
  },
});

export const behaviorsShow = defineCommand<Behavior>({
  name: 'behaviors show',
  summary: "show a behavior's current definition",
  usage: 'memledger behaviors show NAME',
  positionals: { min: 1, max: 1 },
  async run(ctx, [name]) {
    return ctx.session().behaviors.show(name!);
  },
});

export const behaviorsDisable = defineCommand<{ name: string; disabled: true }>({
  name: 'behaviors disable',
  summary: 'disable a behavior: no windows, no scheduled fires (admins only; add it again to enable)',
  usage: 'memledger behaviors disable NAME',
  positionals: { min: 1, max: 1 },
  judgement: true,
  async run(ctx, [name]) {
    return ctx.session().behaviors.disable(name!);
  },
  render: (r) => `behavior ${r.name} disabled\n`,
});

export const behaviorsNext = defineCommand<unknown>({
  name: 'behaviors next',
  summary: "claim a behavior's outstanding window under a lease and print it as JSON",
  usage: `memledger behaviors next NAME
  Prints the prompt, the outstanding events, fired windows, folded corrections and a token; finish it with
  memledger behaviors complete RUN --outputs FILE --token TOKEN (or fail it: behaviors fail RUN --token TOKEN).
  Prints null when nothing is outstanding.`,
  positionals: { min: 1, max: 1 },
  async run(ctx, [name]) {
    return ctx.session().behaviors.next(name!);
  },
  render: (w) => `${JSON.stringify(w, null, 2)}\n`,
});

export const behaviorsComplete = defineCommand<unknown>({
  name: 'behaviors complete',
  summary: 'write a run’s outputs through the gate, link what its window showed and close it, in one step',
  usage: `memledger behaviors complete RUN --outputs FILE [--token TOKEN]
  FILE (- for stdin) is JSON: an array of writes as remember takes them, or {"token": ..., "outputs": [...]}.`,
  positionals: { min: 1, max: 1 },
  options: { outputs: { type: 'string' }, token: { type: 'string' } },
  async run(ctx, [run], values) {
    const file = optString(values, 'outputs');
    if (file === undefined) throw new MemoryError('invalid_input', 'behaviors complete needs --outputs FILE');
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readText(file, ctx.io.stdin));
    } catch (error) {
      if (error instanceof MemoryError) throw error;
      throw new MemoryError('invalid_input', '--outputs is not valid JSON');
    }
    const doc = Array.isArray(parsed)
      ? { outputs: parsed }
      : (parsed as { outputs?: unknown; token?: unknown });
    const token = optString(values, 'token') ?? (typeof doc.token === 'string' ? doc.token : undefined);
    if (token === undefined)
      throw new MemoryError('invalid_input', 'behaviors complete needs the window token');
    if (!Array.isArray(doc.outputs))
      throw new MemoryError('invalid_input', '--outputs holds no outputs array');
    return ctx.session().behaviors.complete({ run: run!, token, outputs: doc.outputs });
  },
});

export const behaviorsFail = defineCommand<unknown>({
  name: 'behaviors fail',
  summary: 'end a run as failed: it links nothing, so its events stay outstanding',
  usage: 'memledger behaviors fail RUN --token TOKEN',
  positionals: { min: 1, max: 1 },
  options: { token: { type: 'string' } },
  async run(ctx, [run], values) {
    const token = optString(values, 'token');
    if (token === undefined) throw new MemoryError('invalid_input', 'behaviors fail needs --token');
    return ctx.session().behaviors.fail({ run: run!, token });
  },
});

export const behaviorsRun = defineCommand<{ runs: ExecRun[] }>({
  name: 'behaviors run',
  summary: "run an operator's command on each outstanding window (window JSON in, outputs JSON out)",
  usage: `memledger behaviors run NAME --exec "CMD" [--timeout SECONDS] [--max-windows N]
  CMD gets the window as JSON on stdin and prints the outputs as JSON on stdout. A non-zero exit, a
  timeout (default 300 s) or unreadable output fails the run, which links nothing.`,
  positionals: { min: 1, max: 1 },
  options: { exec: { type: 'string' }, timeout: { type: 'string' }, 'max-windows': { type: 'string' } },
  async run(ctx, [name], values) {
    const command = optString(values, 'exec');
    if (command === undefined || command.trim() === '') {
      throw new MemoryError('invalid_input', 'behaviors run needs --exec "CMD"');
    }
    const runs = await execBehavior(ctx.session(), name!, command, {
      timeoutMs: (optInt(values, 'timeout') ?? 300) * 1000,
      maxWindows: optInt(values, 'max-windows') ?? 20,
      env: ctx.io.env,
    });
    const failed = runs.filter((r) => r.outcome === 'failed').length;
    if (failed > 0) {
      ctx.partialFailure(new MemoryError('upstream', `${failed} of ${runs.length} runs failed`), {
        audited: true,
      });
    }
    return { runs };
  },
  render: ({ runs }) =>
    runs.length === 0
      ? 'nothing outstanding\n'
      : runs
          .map(
            (r) =>
              `${r.run}: ${r.outcome}, ${r.events} events, ${r.fired} fired${r.failure ? ` (${r.failure})` : ''}\n`,
          )
          .join(''),
});

export const behaviorsRuns = defineCommand<{ runs: RunReport[] }>({
  name: 'behaviors runs',
  summary: "a behavior's runs: what each consumed and wrote, the verdicts on its outputs, corrections",
  usage: 'memledger behaviors runs NAME [--limit N]',
  positionals: { min: 1, max: 1 },
  options: { limit: { type: 'string' } },
  async run(ctx, [name], values) {
    return { runs: await ctx.session().behaviors.runs(name!, optInt(values, 'limit') ?? 20) };
  },
  render: ({ runs }) => {
    if (runs.length === 0) return 'no runs yet\n';
    const rows = runs.map((r) => [
      r.id,
      `v${r.version}`,
      r.expired ? 'expired' : r.state,
      shortTime(r.startedAt),
      String(r.consumed.length),
      r.outputs.map((o) => `${o.id} ${o.state}`).join(', ') || '-',
      String(r.corrections.length),
    ]);
    const head = ['run', 'version', 'state', 'started', 'consumed', 'outputs', 'corrections'].map(
      (header) => ({
        header,
      }),
    );
    return `${table(head, rows)}\n`;
  },
});

export const scheduler = defineCommand<undefined | { fired: number }>({
  name: 'scheduler',
  summary: 'fire schedule and commitment triggers into pending windows (exactly once per window)',
  usage: `memledger scheduler [--interval SECONDS] [--once]
  Ticks every 30 s (or --interval) until SIGINT or SIGTERM; several schedulers on one store fire each window once.`,
  options: { interval: { type: 'string' }, once: { type: 'boolean' } },
  async run(ctx, _args, values) {
    const session = ctx.session();
    if (optFlag(values, 'once')) return { fired: (await session.behaviors.tick()).fired.length };
    const { runScheduler } = await import('../../../behaviors/loop.ts');
    const stop = runScheduler(session, { intervalMs: (optInt(values, 'interval') ?? 30) * 1000 });
    await new Promise<void>((resolve) => {
      const done = () => {
        process.off('SIGINT', done);
        process.off('SIGTERM', done);
        resolve();
      };
      process.on('SIGINT', done);
      process.on('SIGTERM', done);
    });
    await stop();
    return undefined;
  },
  render: (r) => (r === undefined ? '' : `fired ${r.fired} windows\n`),
});
