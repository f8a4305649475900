import { ZULIP_FLAGS } from '@confab/porting';
import { FLAG } from '@confab/zulip';

/** Per-user message flags between Zulip's bits (an export's zerver_usermessage) and this service's (flags.ts). */

/** Zulip's flag bits to this service's; flags Confab does not keep are dropped. */
export function flagsFromZulip(bits: number): number {
  let out = 0;
  for (const [name, bit] of Object.entries(ZULIP_FLAGS)) {
    if ((bits & bit) === 0) continue;
    const ours = (FLAG as Record<string, number>)[name];
    if (ours !== undefined) out |= ours;
  }
  return out;
}

/** This service's flag bits as Zulip's (an export). */
export function flagsToZulip(bits: number): number {
  let out = 0;
  for (const [name, bit] of Object.entries(FLAG))
    if (bits & bit) out |= (ZULIP_FLAGS as Record<string, number>)[name] ?? 0;
  return out;
}
