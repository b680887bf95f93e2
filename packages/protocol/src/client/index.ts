// Filled in by the client module.
export {};
