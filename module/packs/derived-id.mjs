const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const MASK = 0xffffffffffffffffn;

/**
 * A Foundry id (16 letters and digits) derived from a seed: FNV-1a over the seed's UTF-8 bytes and
 * the position, the derivation the core's importer uses for ids it has to replace
 * (src/packs/migrate.rs `derived_id`). The same seed always gives the same id, so documents
 * built again (the guide, an imported content pack) keep their UUIDs.
 * @param {string} seed
 * @returns {string}
 */
export default function derivedId(seed) {
  const bytes = new TextEncoder().encode(seed);
  let hash = 0xcbf29ce484222325n;
  let id = "";
  for (let i = 0; i < 16; i++) {
    for (const byte of [...bytes, i]) {
      hash ^= BigInt(byte);
      hash = (hash * 0x100000001b3n) & MASK;
    }
    id += ALPHABET[Number(hash % 62n)];
  }
  return id;
}
