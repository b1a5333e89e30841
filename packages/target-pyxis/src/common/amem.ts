/**
 * AMEM geometry and addressing (pyxis-chip-fspec.md §7), in one place for the
 * linker and the simulator: 512K words x 128 B = 64 MiB per cluster, 8
 * partitions of 16 B per word, 128 banks per partition, 4K words per bank.
 * Addresses are byte addresses [25:0] plus the "view" bit [26] (§7.1: 0 = bank
 * hashing enabled, 1 = disabled).
 */

/** Bytes of one AMEM instance (chip §7). */
export const AMEM_BYTES = 64 * 1024 * 1024;
/** The view bit of an AMEM address (chip §7.1): set = bank hashing disabled. */
export const AMEM_VIEW_BIT = 1 << 26;
export const AMEM_PARTITION_BYTES = 16;
export const AMEM_WORD_BYTES = 128;
export const AMEM_PARTITIONS = 8;
export const AMEM_BANKS = 128;
/** Hashing granule and lazy-allocation block (chip §7.5). */
export const AMEM_BLOCK_BYTES = 16 * 1024;
const ADDR_MASK = AMEM_BYTES - 1;

/**
 * Physical byte location of an AMEM address (chip §7.5):
 * `addr_hashed[13:7] = addr_unhashed[13:7] ^ addr_unhashed[20:14]` when the
 * view bit [26] is 0; identity when it is 1.
 */
export function amemPhysical(addr: number): number {
  const a = addr & ADDR_MASK;
  if (addr & AMEM_VIEW_BIT) return a;
  return a ^ (((a >>> 14) & 0x7f) << 7);
}

/** Bank index [13:7] of a physical address (chip §7). */
export function amemBank(phys: number): number {
  return (phys >>> 7) & 0x7f;
}

