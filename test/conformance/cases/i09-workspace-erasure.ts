/**
 * I9 erasure is real, inside agent workspaces (issue 11): erasing a subject deletes the rows about it from every
 * workspace (by the `subject` column, and rows whose text names the subject's identifier), and none of the text
 * stays in a stored snapshot (decompressed), a quarantined copy, a local workspace file or, where the store lives
 * in files, any file of the home; a control row stays. The workspaces are written through the WorkspaceFiles seam
 * the SQL engine uses.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { zstdDecompressSync } from 'node:zlib';
import { type Ledger, openLedger } from '../../../src/index.ts';
import { writeWorkspace, zstd } from '../../workspace/snapshot-helpers.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { filesContaining, uniqueWord } from '../helpers.ts';

export function workspaceErasureCases(factory: ConformanceFactory): void {
  describe('I9 erasure reaches workspaces', () => {
    test('I9 workspace erasure: subject rows and rows naming the identifier leave every snapshot and file; controls stay', () =>
      withHome(factory, async ({ ledger, home, capabilities }) => {
        const me = ledger.as(ledger.operator());
        const subject = 'person:alice@example.com';
        const bySubject = uniqueWord('subj');
        const byText = uniqueWord('text');
        const quarantined = uniqueWord('quar');
        const control = uniqueWord('ctrl');
        await me.remember({ body: `Alice ${bySubject}`, scope: 'shared', subjects: [subject] });
        await writeWorkspace(
          ledger,
          'agent:scout',
          `CREATE TABLE people (id INTEGER PRIMARY KEY, subject TEXT, note TEXT);
           INSERT INTO people (subject, note) VALUES ('${subject}', 'likes ${bySubject}');
           INSERT INTO people (subject, note) VALUES (NULL, 'met Alice@Example.com about ${byText}');
           INSERT INTO people (subject, note) VALUES ('person:bob', 'bob ${control}');`,
        );
        await writeWorkspace(
          ledger,
          'agent:other',
          `CREATE TABLE t (id INTEGER PRIMARY KEY, subject TEXT, body TEXT);
           INSERT INTO t (subject, body) VALUES ('${subject}', '${bySubject} again');
           INSERT INTO t (subject, body) VALUES (NULL, 'other ${control}');`,
        );
        await ledger.store.workspaces.quarantine({
          agent: 'agent:scout',
          version: 1,
          reason: 'planted',
          bytes: zstd(Buffer.from(`damaged ${quarantined} ${bySubject}`)),
          at: new Date().toISOString(),
        });
        // Another process (or replica) holds a local copy of an older version.
        const second = openLedger({ store: home });
        try {
          await second.ready;
          assert.equal((await second.workspaceFiles.checkout('agent:scout')).outcome, 'restored');
          assert.ok(
            localBytes(second).some((b) => b.includes(byText)),
            'setup: the second copy holds the text',
          );

          const preview = await me.erasePreview({ subject });
          assert.deepEqual(
            (preview.workspaceRows ?? []).map((w) => [w.workspace, w.table, w.bySubject, w.byText]),
            [
              ['agent:other', 't', 1, 0],
              ['agent:scout', 'people', 1, 1],
            ],
          );
          const shown = JSON.stringify(preview.workspaceRows);
          for (const word of [bySubject, byText, control])
            assert.ok(!shown.includes(word), 'counts, never rows');

          const result = await me.erase({ subject });
          assert.deepEqual(result.workspaces, { rows: 3, workspaces: 2, quarantined: 1 });

          const snapshots = await decompressedSnapshots(ledger);
          assert.equal(snapshots.length, 2);
          for (const bytes of snapshots) {
            for (const word of [bySubject, byText])
              assert.ok(!bytes.includes(word), `${word} left a snapshot`);
            assert.ok(bytes.includes(control), 'control: the unrelated row is in each snapshot');
          }
          assert.equal(
            await ledger.store.workspaces.quarantined('agent:scout'),
            null,
            'the quarantined copy went',
          );
          for (const b of localBytes(ledger)) {
            for (const word of [bySubject, byText]) assert.ok(!b.includes(word), `${word} left a local file`);
          }
          if (capabilities.files) {
            for (const word of [bySubject, byText, quarantined]) {
              assert.deepEqual(filesContaining(home, word), [], `${word} is in no file of the home`);
            }
          }
          // The other holder restores the new snapshot at its next call; its copy then has no text either.
          const again = await second.workspaceFiles.checkout('agent:scout');
          assert.equal(again.outcome, 'restored');
          const theirs = localBytes(second);
          assert.ok(
            theirs.some((b) => b.includes(control)),
            'control: the second copy has the kept row',
          );
          for (const b of theirs) for (const word of [bySubject, byText]) assert.ok(!b.includes(word));
        } finally {
          second.close();
        }
      }));
  });
}

async function decompressedSnapshots(ledger: Ledger): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (const { agent } of await ledger.store.workspaces.list()) {
    const s = await ledger.store.workspaces.get(agent);
    if (s !== null) out.push(zstdDecompressSync(s.bytes));
  }
  return out;
}

function localBytes(ledger: Ledger): Buffer[] {
  return ledger.workspaceFiles.localFiles().map((f) => readFileSync(f));
}
