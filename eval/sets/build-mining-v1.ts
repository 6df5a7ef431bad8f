/**
 * Writes eval/sets/mining-v1.json: `node eval/sets/build-mining-v1.ts`. Public fragments come from
 * ./mining/public.ts (excerpts cut by ./mining/extract.ts), written ones from ./mining/written.ts.
 */
import { writeFileSync } from 'node:fs';
import { parseMiningSet } from '../mining/format.ts';
import { halfOf } from '../split.ts';
import { publicFragments } from './mining/public.ts';
import { writtenFragments } from './mining/written.ts';

const OUT = new URL('./mining-v1.json', import.meta.url);
const set = {
  type: 'mining',
  name: 'mining-v1',
  description:
    'Transcript and notes fragments, each line labelled with the memories it should become. Kinds: preference for a rule or convention of how to work, decision for a choice with its reason, fact or note for a plain claim (the two count as one kind when matching). Public fragments name their repository, path and commit.',
  fragments: [...publicFragments(), ...writtenFragments()],
};
parseMiningSet(set, 'mining-v1.json');
const lines = set.fragments.map((f) => `    ${JSON.stringify(f)}`).join(',\n');
writeFileSync(
  OUT,
  `{\n  "type": "mining",\n  "name": ${JSON.stringify(set.name)},\n  "description": ${JSON.stringify(set.description)},\n  "fragments": [\n${lines}\n  ]\n}\n`,
);
const count = (pick: (f: (typeof set.fragments)[number]) => boolean) => set.fragments.filter(pick).length;
const keeps = set.fragments.reduce((n, f) => n + f.lines.reduce((m, l) => m + (l.keep?.length ?? 0), 0), 0);
process.stdout.write(
  `${set.fragments.length} fragments (${count((f) => f.origin === 'public')} public, ${count((f) => halfOf(f.id) === 'held-out')} held out), ${keeps} labelled keeps\n`,
);
