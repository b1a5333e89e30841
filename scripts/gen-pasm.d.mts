// Types of scripts/gen-pasm.mjs (the generated benchmark source), for the tests that use it.
export function generatePasm(lines: number): { text: string; lines: number };
