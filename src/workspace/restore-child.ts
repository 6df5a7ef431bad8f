/**
 * The child process a restore runs in (spawned by restore.ts): a hostile or broken snapshot can only cost this
 * process, which the parent kills at its timeout. Input: one JSON argument (RestoreRequest); output: one JSON
 * line on stdout (RestoreReport: table names and counts, never row content).
 */
import { type RestoreRequest, restore } from './restore-file.ts';

const request = JSON.parse(process.argv[2] ?? '{}') as RestoreRequest;
restore(request).then(
  (report) => process.stdout.write(`${JSON.stringify(report)}\n`),
  () => process.stdout.write(`${JSON.stringify({ outcome: 'reset', reason: 'the restore failed' })}\n`),
);
