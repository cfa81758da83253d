/** Request nonces: 16 random bytes each, as 32 lower-case hex digits (PROTOCOL.md §1). */
import { randomFillSync } from 'node:crypto';
import { NONCE_BYTES } from '../protocol/constants';

/**
 * 16 random bytes per nonce, cut from a block filled 256 nonces at a time: the same CSPRNG, but
 * one native call per block instead of one per request, which would be a third of signing's cost.
 */
export class NonceSource {
  private readonly block = Buffer.alloc(NONCE_BYTES * 256);
  private offset = this.block.length;

  next(): string {
    if (this.offset === this.block.length) {
      randomFillSync(this.block);
      this.offset = 0;
    }
    const nonce = this.block.toString('hex', this.offset, this.offset + NONCE_BYTES);
    // Used bytes are wiped so that a later heap dump cannot tell which nonces were sent.
    this.block.fill(0, this.offset, this.offset + NONCE_BYTES);
    this.offset += NONCE_BYTES;
    return nonce;
  }
}
