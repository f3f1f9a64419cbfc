// A synchronous SHA-1 (FIPS 180-4) in plain JavaScript, written for the streaming benchmark so that the
// plain-JS competitor can also be measured without crypto.subtle's asynchronous round trip. To be a fair
// competitor it is the fast kind: the 80 rounds are unrolled (generated once, below, and compiled with
// `new Function`) with the working variables renamed instead of moved and the message schedule kept in 16
// local integers; whole blocks are read straight from the input, only the last one or two (padded) are
// copied. About twice the speed of the plain loop form. Checked against node:crypto by bench/stream.mjs
// before every run (lengths 0 to 300 and a few large inputs).

/** The source of `blocks(m, offset, end, H)`: compresses the 64-byte blocks of m[offset..end) into H. */
function source() {
  const names = ["a", "b", "c", "d", "e"];
  let rounds = "";
  for (let i = 0; i < 80; i++) {
    // Round i's a..e are the previous round's, renamed: no moves.
    const [a, b, c, d, e] = [0, 1, 2, 3, 4].map((k) => names[(k - (i % 5) + 5) % 5]);
    const j = i % 16;
    if (i < 16) {
      const at = 4 * i;
      rounds += `w${j} = (m[o + ${at}] << 24) | (m[o + ${at + 1}] << 16) | (m[o + ${at + 2}] << 8) | m[o + ${at + 3}];\n`;
    } else {
      rounds += `x = w${(i - 3) % 16} ^ w${(i - 8) % 16} ^ w${(i - 14) % 16} ^ w${j}; w${j} = (x << 1) | (x >>> 31);\n`;
    }
    const f = i < 20 ? `(${d} ^ (${b} & (${c} ^ ${d})))` // Ch
      : i >= 40 && i < 60 ? `((${b} & ${c}) | (${d} & (${b} | ${c})))` // Maj
        : `(${b} ^ ${c} ^ ${d})`; // Parity
    const k = i < 20 ? "0x5a827999" : i < 40 ? "0x6ed9eba1" : i < 60 ? "0x8f1bbcdc" : "0xca62c1d6";
    rounds += `${e} = (((${a} << 5) | (${a} >>> 27)) + ${f} + ${e} + w${j} + ${k}) | 0; ${b} = (${b} << 30) | (${b} >>> 2);\n`;
  }
  return `
    let h0 = H[0], h1 = H[1], h2 = H[2], h3 = H[3], h4 = H[4], x = 0;
    let w0 = 0, w1 = 0, w2 = 0, w3 = 0, w4 = 0, w5 = 0, w6 = 0, w7 = 0;
    let w8 = 0, w9 = 0, w10 = 0, w11 = 0, w12 = 0, w13 = 0, w14 = 0, w15 = 0;
    for (let o = offset; o < end; o += 64) {
      let a = h0, b = h1, c = h2, d = h3, e = h4;
      ${rounds}
      h0 = (h0 + a) | 0; h1 = (h1 + b) | 0; h2 = (h2 + c) | 0; h3 = (h3 + d) | 0; h4 = (h4 + e) | 0;
    }
    H[0] = h0; H[1] = h1; H[2] = h2; H[3] = h3; H[4] = h4;`;
}

// After 80 rounds the renaming has come full circle (80 is a multiple of 5): a..e are in place.
const blocks = new Function("m", "offset", "end", "H", source());
const H = new Int32Array(5);
const LAST = new Uint8Array(128);
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** The SHA-1 of `bytes[0..length)` (length defaults to all of it), as 40 lowercase hex digits. */
export function sha1Hex(bytes, length = bytes.length) {
  H[0] = 0x67452301; H[1] = 0xefcdab89; H[2] = 0x98badcfe; H[3] = 0x10325476; H[4] = 0xc3d2e1f0;
  const full = length - (length % 64);
  blocks(bytes, 0, full, H);
  // The rest, the 0x80 marker, zeros and the bit length (big-endian, 64 bits) in one or two blocks.
  const rest = length - full;
  LAST.fill(0);
  for (let i = 0; i < rest; i++) LAST[i] = bytes[full + i];
  LAST[rest] = 0x80;
  const tail = rest < 56 ? 64 : 128;
  const high = Math.floor(length / 0x20000000);
  const low = (length * 8) >>> 0;
  LAST[tail - 8] = high >>> 24; LAST[tail - 7] = high >>> 16; LAST[tail - 6] = high >>> 8; LAST[tail - 5] = high;
  LAST[tail - 4] = low >>> 24; LAST[tail - 3] = low >>> 16; LAST[tail - 2] = low >>> 8; LAST[tail - 1] = low;
  blocks(LAST, 0, tail, H);
  let hex = "";
  for (let k = 0; k < 5; k++) {
    const h = H[k];
    hex += HEX[(h >>> 24) & 255] + HEX[(h >>> 16) & 255] + HEX[(h >>> 8) & 255] + HEX[h & 255];
  }
  return hex;
}
