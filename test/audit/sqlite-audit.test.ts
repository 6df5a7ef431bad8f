// The AuditSink contract on SQLite's audit.db: the reference the Postgres sink is held to.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { openSqliteAudit } from '../../src/audit/sqlite-audit.ts';
import { sinkContract } from './sink-contract.ts';

const dir = mkdtempSync(join(tmpdir(), 'memledger-sink-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

sinkContract({ name: 'sqlite', open: async () => openSqliteAudit(join(dir, `audit-${++n}.db`)) });
