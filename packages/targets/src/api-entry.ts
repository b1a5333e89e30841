/** The package's JavaScript entry (`pyxis-toolchain`): the built-in targets registered, then the API (api.ts). */
import './register.js';
export * from './api.js';
