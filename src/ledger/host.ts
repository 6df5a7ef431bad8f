/**
 * This machine's identity for the audit outbox: the hostname and, on Linux, the boot id. A pid names a process
 * only on one machine and within one boot, so an outbox row's pid is checked only when its host is this one.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

let cached: string | undefined;

/** `hostname/boot-id` (or the hostname alone where there is no boot id), read once per process. */
export function thisHost(): string {
  cached ??= `${hostname()}/${bootId()}`;
  return cached;
}

function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return '-';
  }
}
