/**
 * Chevrotain, loaded from its self-contained bundle.
 *
 * The package entry (`lib/src/api.js`) imports lodash-es file by file: about
 * 640 module files, which dominated the start-up of `pyxis-as` and `pyxis-ld`
 * (issue 15). The same package ships `lib/chevrotain.mjs`, one file with the
 * same API; its `exports` map blocks the sub-path, so it is found beside the
 * resolved entry. If the layout ever changes, the normal entry is used.
 * Types still come from 'chevrotain'. The link-script parser (@pyxis/ld) imports this
 * module alone through the `@pyxis/asm/chevrotain` sub-path, without the assembler.
 */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

type Chevrotain = typeof import('chevrotain');

async function loadChevrotain(): Promise<Chevrotain> {
  try {
    const entry = createRequire(import.meta.url).resolve('chevrotain'); // .../chevrotain/lib/src/api.js
    const bundle = join(dirname(entry), '..', 'chevrotain.mjs');
    if (existsSync(bundle)) return (await import(pathToFileURL(bundle).href)) as Chevrotain;
  } catch {
    // fall through to the normal entry
  }
  return await import('chevrotain');
}

const chevrotain = await loadChevrotain();

export const { createToken, Lexer, EmbeddedActionsParser, defaultParserErrorProvider } = chevrotain;
export type Lexer = import('chevrotain').Lexer;
export type EmbeddedActionsParser = import('chevrotain').EmbeddedActionsParser;
