// Filled in by the wire module.
export {};
