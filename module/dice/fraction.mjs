/**
 * Exact rational arithmetic on the core's reduced "n/d" strings, so that bucketed odds bars can
 * still show exact probabilities. BigInt because the core's counts may need up to 128 bits.
 */
export default class Fraction {
  /**
   * @param {bigint} numerator
   * @param {bigint} [denominator=1n]
   */
  constructor(numerator, denominator = 1n) {
    if (denominator === 0n) throw new RangeError("Fraction with a zero denominator");
    if (denominator < 0n) {
      numerator = -numerator;
      denominator = -denominator;
    }
    const g = Fraction.#gcd(numerator < 0n ? -numerator : numerator, denominator);
    /** @type {bigint} */
    this.n = numerator / g;
    /** @type {bigint} */
    this.d = denominator / g;
  }

  /** The fraction 0. */
  static ZERO = new Fraction(0n);

  /**
   * Parse "n/d" or "n".
   * @param {string} text
   * @returns {Fraction}
   */
  static parse(text) {
    const match = /^\s*(-?\d+)\s*(?:\/\s*(\d+)\s*)?$/.exec(text);
    if (!match) throw new SyntaxError(`Not a fraction: "${text}"`);
    return new Fraction(BigInt(match[1]), BigInt(match[2] ?? "1"));
  }

  /**
   * @param {bigint} a
   * @param {bigint} b
   * @returns {bigint}
   */
  static #gcd(a, b) {
    while (b) [a, b] = [b, a % b];
    return a || 1n;
  }

  /**
   * @param {Fraction} other
   * @returns {Fraction}
   */
  add(other) {
    return new Fraction((this.n * other.d) + (other.n * this.d), this.d * other.d);
  }

  /** @returns {string} "n/d", or "n" when the denominator is 1. */
  toString() {
    return this.d === 1n ? `${this.n}` : `${this.n}/${this.d}`;
  }
}
