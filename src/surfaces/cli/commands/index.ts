/** Every CLI command, in the order `memledger help` lists them. */
import type { Command } from '../command.ts';
import { reindex, stats } from './admin.ts';
import { audit } from './audit.ts';
import { claimCommand, correctionsCommand, releaseCommand } from './claims.ts';
import { contextCommand } from './context.ts';
import { demo } from './demo.ts';
import { erase } from './erase.ts';
import { feedsAdd, feedsList, feedsRemove, feedsSync } from './feeds.ts';
import { hookCommand } from './hook.ts';
import { init } from './init.ts';
import { installCommand, uninstallCommand } from './install.ts';
import { mcpCommand } from './mcp.ts';
import { policyCheck, policyShow } from './policy.ts';
import { get, history, list } from './read.ts';
import { remember } from './remember.ts';
import { search } from './search.ts';
import { serveCommand } from './serve.ts';
import { tokenCreate, tokenList, tokenRevoke } from './token.ts';
import { exportCommand, importCommand } from './transfer.ts';
import { confirm, retract, reviewApprove, reviewList, reviewReject } from './verdicts.ts';

export const COMMANDS: Command[] = [
  init,
  remember,
  search,
  get,
  history,
  list,
  retract,
  confirm,
  reviewList,
  reviewApprove,
  reviewReject,
  contextCommand,
  claimCommand,
  releaseCommand,
  correctionsCommand,
  policyShow,
  policyCheck,
  erase,
  audit,
  exportCommand,
  importCommand,
  reindex,
  stats,
  tokenCreate,
  tokenList,
  tokenRevoke,
  feedsAdd,
  feedsList,
  feedsSync,
  feedsRemove,
  installCommand,
  uninstallCommand,
  hookCommand,
  serveCommand,
  mcpCommand,
  demo,
];
