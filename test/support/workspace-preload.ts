/**
 * Preloaded (`node --import`) into a spawned CLI by tests only: every ledger the process opens gets the test's
 * local WorkspaceFiles in MEMLEDGER_TEST_WORKSPACES, until workspace persistence supplies the Store's own.
 */
import { Ledger } from '../../src/ledger/ledger.ts';
import { LocalWorkspaceFiles } from './workspace-files.ts';

const dir = process.env.MEMLEDGER_TEST_WORKSPACES;
if (dir !== undefined) {
  const as = Ledger.prototype.as;
  const given = new WeakSet<Ledger>();
  Ledger.prototype.as = function (this: Ledger, ...args: Parameters<Ledger['as']>) {
    if (!given.has(this)) {
      given.add(this);
      this.useWorkspaces(new LocalWorkspaceFiles(dir));
    }
    return as.apply(this, args);
  };
}
