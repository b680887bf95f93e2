// Filled in by the records module.
export {};
