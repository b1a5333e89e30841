/**
 * @pyxis/asm: the target-neutral assembler front end — tokens and lexer
 * conventions, the parser of the shared statement language (constants,
 * includes, program blocks, loops, instructions with named operands,
 * expressions), the AST and JSON position helpers, operand binding against
 * field tables (operands.ts) and flat instruction streams (flat.ts). A target's assembler
 * back end (see @pyxis/target) gives the statements their meaning.
 */
export * from './ast.js';
export { pasmLexer, lex, lexerConfig } from './lexer.js';
export { PasmParser, parseTokens, pasmErrorProvider, tooDeep, MAX_NESTING, MAX_PENDING_LOOPS } from './parser.js';
export { jsonPositions, jsonSyntaxErrorOffset, JsonPositions, parentPath, JSON_POSITION_DEPTH, type JsonPos } from './jsonpos.js';
export * from './expr.js';
export * from './sources.js';
export * from './operands.js';
export * from './flat.js';
export * from './fastparse.js';
export * from './chunks.js';
export * from './tokenBudget.js';
