/**
 * Restoring behaviors: every version of a definition (checked as `behaviors add` checks it) and whether it is
 * disabled; its fired windows; its runs with what they consumed, so outstanding work here is the same
 * subtraction it was there (I17) and `behaviors runs` shows the same history. A run's token never fits here:
 * its secret stayed in the other home, and a restored run gets a new one nobody holds.
 */
import { randomBytes } from 'node:crypto';
import { type BehaviorDefinition, behaviorDefinitionSchema } from '../../behaviors/definition.ts';
import { assertNoSecrets } from '../../guard/limits.ts';
import { MemoryError } from '../../model/errors.ts';
import type { StoreTx } from '../../store/port.ts';
import { parseInput } from '../parse.ts';
import type { BehaviorLine, FireLine, RunLine } from './carry-lines.ts';

/**
 * A behavior whose versions this home lacks gets them, then the file's disabled state; one whose versions it
 * has already is left as it is (restoring twice lands nothing twice; this home's own enable or disable stands).
 * A version numbered alike but defined otherwise is a different behavior under the same name: `conflict`.
 */
export async function restoreBehavior(tx: StoreTx, b: BehaviorLine['behavior']): Promise<boolean> {
  const versions = [...b.versions].sort((x, y) => x.version - y.version);
  if (versions.some((v, i) => v.version !== i + 1) || versions.length !== b.version) {
    throw new MemoryError(
      'invalid_input',
      `behavior ${b.name} must list its versions 1 to ${b.version}, each once`,
      { details: { fields: ['behavior.versions'] } },
    );
  }
  const texts = versions.map((v) => {
    const def: BehaviorDefinition = parseInput(
      behaviorDefinitionSchema,
      v.definition,
      `behavior ${b.name} version ${v.version}`,
    );
    if (def.name !== b.name) {
      throw new MemoryError(
        'invalid_input',
        `behavior ${b.name} version ${v.version} names another behavior`,
      );
    }
    // A file's definition passes the credential guard like every other text a restore brings (I10).
    assertNoSecrets({ definition: def, createdBy: v.createdBy });
    return JSON.stringify(def);
  });
  await tx.settle?.();
  const here = await tx.behaviors.behavior(b.name);
  const known = Math.min(here?.version ?? 0, b.version);
  for (let v = 1; v <= known; v++) {
    if ((await tx.behaviors.version(b.name, v))?.definition !== texts[v - 1]) {
      throw new MemoryError(
        'conflict',
        `behavior ${b.name} version ${v} in this home is not the file's: another behavior of that name`,
        { details: { behavior: b.name, version: v } },
      );
    }
  }
  if (here !== null && here.version >= b.version) return false;
  for (const [i, v] of versions.entries()) {
    if (v.version <= known) continue;
    await tx.behaviors.saveVersion({
      name: b.name,
      version: v.version,
      definition: texts[i]!,
      createdBy: v.createdBy,
      createdAt: v.createdAt,
    });
  }
  // saveVersion leaves the newest version enabled; the file says whether it was.
  if (b.disabledAt !== null) await tx.behaviors.setDisabled(b.name, b.disabledAt);
  return true;
}

/** A fired window of a behavior restored earlier; the same window fired here already is left as it is. */
export async function restoreFire(tx: StoreTx, f: FireLine['fire']): Promise<boolean> {
  assertNoSecrets({ windowKey: f.windowKey });
  if (f.memoryId !== null) {
    const m = await tx.getMemory(f.memoryId);
    if (m === null || m.kind !== 'commitment') {
      throw new MemoryError(
        'invalid_input',
        `fire ${f.id} names memory ${f.memoryId}, which is not a commitment in this home`,
      );
    }
  }
  await tx.settle?.();
  await behaviorHere(tx, f.behavior, null, `fire ${f.id}`);
  const fired = await tx.behaviors.fires(f.behavior);
  if (fired.some((x) => x.id === f.id || (x.trigger === f.trigger && x.windowKey === f.windowKey)))
    return false;
  return tx.behaviors.insertFire(f);
}

/**
 * A run of a version restored earlier, in its state. A finished one links exactly what it was shown, as its
 * completion did there; a leased one keeps its lease time, and with a token nobody holds it expires unfinished.
 */
export async function restoreRun(tx: StoreTx, r: RunLine['run']): Promise<boolean> {
  if ((r.state === 'leased') !== (r.endedAt === null) || (r.state === 'failed') !== (r.failure !== null)) {
    throw new MemoryError('invalid_input', `run ${r.id}: its state, end time and failure do not agree`, {
      details: { fields: ['run.state', 'run.endedAt', 'run.failure'] },
    });
  }
  assertNoSecrets({ startedBy: r.startedBy, failure: r.failure });
  if (new Set(r.shown).size !== r.shown.length) {
    throw new MemoryError('invalid_input', `run ${r.id} lists an item it was shown twice`, {
      details: { fields: ['run.shown'] },
    });
  }
  for (const id of r.outputs) {
    if ((await tx.getMemory(id)) === null) {
      throw new MemoryError('invalid_input', `run ${r.id} wrote memory ${id}, which is not in this home`);
    }
  }
  await tx.settle?.();
  await behaviorHere(tx, r.behavior, r.version, `run ${r.id}`);
  if ((await tx.behaviors.getRun(r.id)) !== null) return false;
  const nonce = randomBytes(18).toString('base64url');
  if (r.state !== 'finished') {
    await tx.behaviors.insertRun({ ...r, nonce });
    return true;
  }
  const taken = await tx.behaviors.linked(r.behavior, r.shown);
  if (taken.length > 0) {
    throw new MemoryError(
      'conflict',
      `run ${r.id} consumed ${taken.length} items another finished run of ${r.behavior} consumed here`,
      { details: { items: taken.length } },
    );
  }
  await tx.behaviors.insertRun({ ...r, nonce, state: 'leased', endedAt: null });
  await tx.behaviors.finishRun(r.id, r.endedAt!, r.outputs);
  return true;
}

async function behaviorHere(tx: StoreTx, name: string, version: number | null, what: string): Promise<void> {
  const found =
    version === null
      ? (await tx.behaviors.behavior(name)) !== null
      : (await tx.behaviors.version(name, version)) !== null;
  if (!found) {
    throw new MemoryError(
      'invalid_input',
      `${what} names behavior ${name}${version === null ? '' : ` version ${version}`}, which is neither in this home nor earlier in the file`,
    );
  }
}
