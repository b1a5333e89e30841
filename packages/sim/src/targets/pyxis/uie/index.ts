export * from './sequencerCore.js';
