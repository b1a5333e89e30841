#!/usr/bin/env node
console.log('demo: not yet wired');
