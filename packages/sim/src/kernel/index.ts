export * from './engine.js';
export * from './fifo.js';
export * from './port.js';
export * from './sink.js';
export * from './trace.js';
export * from './vcd.js';
export * from './simulator.js';
