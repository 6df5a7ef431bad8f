/** A Postgres write transaction's rejection writes: lifting the standing ones, recording one (tx.ts). */
import type { Rejection, RejectionLift } from '../port.ts';
import { one, type Q, REJECTION_COLUMNS, type RejectionRow, run, toRejection } from './statements.ts';

function standing(q: Q, scope: string, fingerprint: string): Promise<RejectionRow | undefined> {
  return one<RejectionRow>(
    q,
    `select ${REJECTION_COLUMNS} from memledger.rejections
     where scope = $1 and fingerprint = $2 and lifted_at is null`,
    [scope, fingerprint],
  );
}

/** Lifts every standing rejection in the scope keyed on these identities; returns what it lifted. */
export async function liftStanding(
  q: Q,
  scope: string,
  fingerprints: readonly string[],
  lift: RejectionLift,
): Promise<Rejection[]> {
  const lifted: Rejection[] = [];
  for (const fp of fingerprints) {
    const row = await standing(q, scope, fp);
    if (row === undefined) continue;
    await run(
      q,
      'update memledger.rejections set lifted_at = $1, lifted_by = $2, lift_reason = $3 where seq = $4',
      [lift.at, lift.by, lift.reason, row.seq],
    );
    lifted.push({ ...toRejection(row), lifted: lift });
  }
  return lifted;
}

/** Records a rejection; one already standing for the same identity and scope is left as it is. */
export async function writeRejection(q: Q, r: Rejection): Promise<void> {
  if (r.lifted === null && (await standing(q, r.scope, r.fingerprint)) !== undefined) return;
  await run(
    q,
    `insert into memledger.rejections (scope, fingerprint, memory_id, reason, by, at, lifted_at, lifted_by, lift_reason)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      r.scope,
      r.fingerprint,
      r.memoryId,
      r.reason,
      r.by,
      r.at,
      r.lifted?.at ?? null,
      r.lifted?.by ?? null,
      r.lifted?.reason ?? null,
    ],
  );
}
