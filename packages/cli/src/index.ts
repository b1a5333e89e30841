export * from './tool.js';
export * from './logger.js';
export { runAs } from './as.js';
export { runLd } from './ld.js';
export { runSim } from './sim.js';
export { registerInspect } from './inspect.js';
