/**
 * `memledger import` stopped by SIGINT (Ctrl-C) or SIGTERM: it finishes the batch in flight, prints what landed
 * and the command that resumes it, exits 130 (143), and leaves an audit record with its class and counts;
 * running the resume command lands the rest exactly once.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Ledger, openLedger } from '../../src/index.ts';
import { importedMemoryLine } from '../conformance/helpers.ts';
import { BIN, cli, ok, withTempHome } from './helpers.ts';

const AT = '2025-01-01T00:00:00.000Z';
const exportLines = (n: number, tag: string): string[] =>
  Array.from({ length: n }, (_, i) =>
    importedMemoryLine({ scope: 'shared', body: `${tag} line ${i}`, at: AT }),
  );

interface Running {
  kill(signal: NodeJS.Signals): void;
  stdin: NodeJS.WritableStream;
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/**
 * The CLI in a child process, as a person runs it, with stdin left open for the test to feed. A test that times
 * out (`cancel` aborts) kills it, so a run that ignored its signal cannot outlive the test.
 */
function start(home: string, args: string[], cancel: AbortSignal): Running {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('MEMLEDGER_')) env[k] = v;
  const child = spawn(process.execPath, [BIN, ...args, '--home', home], { env, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    stdout += c;
  });
  child.stderr.setEncoding('utf8').on('data', (c: string) => {
    stderr += c;
  });
  child.stdin.on('error', () => undefined); // the import may be gone when the test writes more
  cancel.addEventListener('abort', () => child.kill('SIGKILL'));
  return {
    kill: (signal) => child.kill(signal),
    stdin: child.stdin,
    exited: new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr }))),
  };
}

/** Waits (polling the home, no clock in any assertion) until at least `n` memories have landed. */
async function landed(ledger: Ledger, n: number, running: Running): Promise<number> {
  let done = false;
  void running.exited.then(() => {
    done = true;
  });
  for (;;) {
    const count = (await ledger.as(ledger.operator()).stats()).memories;
    if (count >= n || done) return count;
    await sleep(5);
  }
}

async function memories(home: string): Promise<number> {
  const ledger = openLedger({ home });
  try {
    return (await ledger.as(ledger.operator()).stats()).memories;
  } finally {
    ledger.close();
  }
}

async function importRecord(home: string) {
  const ledger = openLedger({ home });
  try {
    const me = ledger.as(ledger.operator());
    return { records: await me.audit({ operation: 'import' }), failures: await me.auditFailures() };
  } finally {
    ledger.close();
  }
}

// A safety net, not an assertion: an import that ignored its signal would otherwise hang the suite.
const NO_HANG = { timeout: 120_000 };

describe('import interrupted', () => {
  test(
    'I8 audit: SIGINT stops a file import after the batch in flight, prints what landed and how to resume, exits 130, is audited; resuming lands the rest once',
    NO_HANG,
    (t) =>
      withTempHome(async (home) => {
        ok(await cli(home, ['init']));
        const file = join(home, 'big export.jsonl');
        const lines = exportLines(20_000, 'big');
        writeFileSync(file, `${lines.join('\n')}\n`);
        const probe = openLedger({ home });
        let through: number;
        let resume: string;
        try {
          const run = start(home, ['import', file], t.signal);
          assert.ok((await landed(probe, 1000, run)) >= 1000, 'a first batch landed');
          run.kill('SIGINT');
          const { code, stdout, stderr } = await run.exited;
          assert.equal(code, 130, `stopped by Ctrl-C, not finished: ${stdout}${stderr}`);
          const stop =
            /interrupted by SIGINT: lines up to (\d+) are done; nothing after line \1 was written/.exec(
              stdout,
            );
          assert.ok(stop, stdout);
          through = Number(stop[1]);
          assert.ok(
            through >= 1000 && through < 20_000 && through % 1000 === 0,
            `whole batches only: ${through}`,
          );
          assert.match(stdout, new RegExp(`^read ${through} lines: ${through} imported, 0 skipped`, 'm'));
          resume = /^resume with: (.+)$/m.exec(stdout)?.[1] ?? '';
          assert.equal(resume, `memledger import '${file}' --from-line ${through + 1}`);
          assert.match(stderr, /upstream: import interrupted \(SIGINT\)/);
        } finally {
          probe.close();
        }
        assert.equal(await memories(home), through, 'exactly the lines of committed batches landed');

        const { records, failures } = await importRecord(home);
        assert.equal(records.length, 1);
        const record = records[0]!;
        assert.deepEqual([record.outcome, record.failureClass], ['error', 'upstream']);
        assert.deepEqual(record.argsPreview, {
          mode: 'ingest',
          file: '[text:16]',
          lines: through,
          imported: through,
          skipped: 0,
          held: 0,
          rejected: 0,
          corroborated: 0,
          failed: 0,
        });
        assert.match(record.message ?? '', new RegExp(`interrupted \\(SIGINT\\) after line ${through}\\b`));
        assert.deepEqual(
          failures.filter((f) => f.operation === 'import').map((f) => [f.failureClass, f.count]),
          [['upstream', 1]],
          'audit --failures lists it',
        );

        // The resume line, as printed (the path quoted as a shell would take it).
        const resumed = ok(
          await cli(home, ['import', file, '--from-line', String(through + 1), '--json']),
        ).json();
        assert.deepEqual(
          [resumed.lines, resumed.imported, resumed.skipped, resumed.failed.length],
          [20_000 - through, 20_000 - through, 0, 0],
          'the resumed run reads from the line after the last batch that landed',
        );
        assert.equal(await memories(home), 20_000, 'every line landed exactly once');
        const again = ok(await cli(home, ['import', file, '--json'])).json();
        assert.deepEqual(
          [again.imported, again.skipped],
          [0, 20_000],
          'control: the whole file again adds nothing',
        );
      }),
  );

  test(
    'I8 audit: SIGTERM stops an import from stdin between batches even while it waits for input, exits 143; the rest lands once',
    NO_HANG,
    (t) =>
      withTempHome(async (home) => {
        ok(await cli(home, ['init']));
        const lines = exportLines(1500, 'piped');
        const probe = openLedger({ home });
        let output: { code: number | null; stdout: string; stderr: string };
        try {
          const run = start(home, ['import', '-', '--json'], t.signal);
          run.stdin.write(`${lines.join('\n')}\n`); // one whole batch, and half of the next one
          assert.equal(await landed(probe, 1000, run), 1000);
          run.kill('SIGTERM');
          output = await run.exited; // stdin is still open: the import must stop without its input ending
          run.stdin.end();
        } finally {
          probe.close();
        }
        assert.equal(output.code, 143, output.stderr);
        const result = JSON.parse(output.stdout);
        assert.deepEqual(
          [result.imported, result.interrupted],
          [
            1000,
            { by: 'SIGTERM', through: 1000, resumeFrom: 1001, resume: 'memledger import - --from-line 1001' },
          ],
        );
        assert.equal(JSON.parse(output.stderr.trim().split('\n').at(-1)!).error.class, 'upstream');
        assert.equal(
          await memories(home),
          1000,
          'the 500 lines read into the unwritten batch were not written',
        );

        const resumed = ok(
          await cli(home, ['import', '-', '--from-line', '1001', '--json'], {
            input: `${lines.join('\n')}\n`,
          }),
        ).json();
        assert.deepEqual([resumed.imported, resumed.skipped], [500, 0]);
        assert.equal(await memories(home), 1500);
      }),
  );

  test('--from-line that is not a whole number from 1 is refused and imports nothing', () =>
    withTempHome(async (home) => {
      ok(await cli(home, ['init']));
      const input = `${exportLines(3, 'x').join('\n')}\n`;
      for (const bad of ['0', '-1', 'two']) {
        const r = await cli(home, ['import', '-', '--from-line', bad, '--json'], { input });
        assert.equal(r.code, 2, `${bad}: ${r.stderr}`);
        assert.equal(r.error().class, 'invalid_input');
      }
      assert.equal(await memories(home), 0);
      const control = ok(await cli(home, ['import', '-', '--from-line', '2', '--json'], { input })).json();
      assert.deepEqual(
        [control.lines, control.imported],
        [2, 2],
        'control: a valid start line imports the rest',
      );
    }));
});
