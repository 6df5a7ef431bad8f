/**
 * A database of one's own on the run's shared cluster, and login roles in it, for the audit and token tests:
 * created here, dropped at the end, so the cluster stays usable by every other test file. The roles
 * memledger_app and memledger_auditor are the cluster's (created by migrations if missing) and never dropped.
 */
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';

export interface Scratch {
  /** The scratch database as the superuser, optionally with `?tenant=`. */
  url(user?: string, tenant?: string): string;
  /** A raw connection as `user` (one connection, so a session setting stays put). */
  raw(user?: string): postgres.Sql;
  /** A login role granted `role` (memledger_app or memledger_auditor), dropped at cleanup. */
  loginAs(role: string): Promise<string>;
  cleanup(): Promise<void>;
}

export async function scratchDatabase(clusterUrl: string, label: string): Promise<Scratch> {
  const suffix = randomUUID().replace(/-/g, '').slice(0, 10);
  const name = `x_${label}_${suffix}`;
  const admin = postgres(clusterUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const logins: string[] = [];
  const opened: postgres.Sql[] = [];
  const url = (user?: string, tenant?: string) => {
    const u = new URL(clusterUrl);
    u.pathname = `/${name}`;
    if (user !== undefined) u.username = user;
    if (tenant !== undefined) u.searchParams.set('tenant', tenant);
    return u.toString();
  };
  return {
    url,
    raw(user) {
      const sql = postgres(url(user), { max: 1, onnotice: () => {} });
      opened.push(sql);
      return sql;
    },
    async loginAs(role) {
      const login = `${role}_${suffix}_${logins.length}`;
      await admin.unsafe(`CREATE ROLE ${login} LOGIN IN ROLE ${role}`);
      logins.push(login);
      return login;
    },
    async cleanup() {
      await Promise.all(opened.map((s) => s.end()));
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      for (const login of logins) await admin.unsafe(`DROP ROLE IF EXISTS ${login}`);
      await admin.end();
    },
  };
}
