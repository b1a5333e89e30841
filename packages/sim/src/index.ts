export * from './kernel/index.js';
export * from './targets/pyxis/index.js';
export * as uie from './targets/pyxis/uie/index.js';
export * as amem from './targets/pyxis/amem/index.js';
