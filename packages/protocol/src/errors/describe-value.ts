/** How an argument error shows the refused value; imports nothing, so every layer (errors.ts included) can use it. */
/**
 * A value as an error message shows it: numbers as JavaScript prints them (NaN, -1, 1e+300, Infinity), strings
 * quoted (the first 40 characters), bigints with their `n`, and the kind of anything else ('a function',
 * 'an array of 3', 'an object', 'null', 'undefined').
 */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'number':
    case 'boolean':
      return String(value);
    case 'bigint':
      return `${value}n`;
    case 'string':
      return value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}… (${value.length} characters)` : JSON.stringify(value);
    case 'symbol':
      return value.toString();
    case 'function':
      return 'a function';
    case 'undefined':
      return 'undefined';
    default:
      if (value === null) return 'null';
      if (Array.isArray(value)) return `an array of ${value.length}`;
      if (value instanceof Uint8Array) return `${value.byteLength} bytes`;
      return 'an object';
  }
}
