/** Every CLI command, in the order `memledger help` lists them. */
import type { Command } from '../command.ts';

export const COMMANDS: Command[] = [];
