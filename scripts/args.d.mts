export function intArg(argv: readonly string[], name: string, dflt: number): number;
