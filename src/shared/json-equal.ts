/**
 * Whether two JSON values are the same data, whatever the order of their objects' keys (a key
 * holding `undefined` counts as absent, as JSON.stringify drops it). Comparing JSON.stringify
 * outputs is not this: a value that went through main (parsed by a schema, read from SQLite)
 * comes back with its keys in another order, and an undo painted ahead of main's answer was
 * judged different from that answer every time, so it was taken back and painted again.
 */
export function jsonEqual(first: unknown, second: unknown): boolean {
  if (first === second) return true;
  if (typeof first !== 'object' || typeof second !== 'object' || first === null || second === null)
    return false;
  if (Array.isArray(first) || Array.isArray(second)) {
    if (!Array.isArray(first) || !Array.isArray(second) || first.length !== second.length) return false;
    return first.every((item, index) => jsonEqual(item, second[index]));
  }
  const one = first as Record<string, unknown>;
  const other = second as Record<string, unknown>;
  const keys = Object.keys(one).filter((key) => one[key] !== undefined);
  const otherKeys = Object.keys(other).filter((key) => other[key] !== undefined);
  return (
    keys.length === otherKeys.length && keys.every((key) => key in other && jsonEqual(one[key], other[key]))
  );
}
