/**
 * Writes the tokenizer's prebuilt table (src/ledger/context/cl100k.ts, PREBUILT_TABLE) beside dist/'s copy of
 * cl100k.js, from the ranks file of the installed `gpt-tokenizer`. Run by `npm run build:lib`: the installed
 * package then loads its token table with one read instead of building it in every hook process.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { PREBUILT_TABLE, ranksFile, serializeTable } from '../src/ledger/context/cl100k.ts';

const out = new URL(`../dist/ledger/context/${PREBUILT_TABLE}`, import.meta.url);
writeFileSync(out, serializeTable(readFileSync(ranksFile())));
