package io.batchyard.lineage.openlineage;

import java.security.SecureRandom;
import java.util.UUID;

/**
 * Time-ordered UUIDs (version 7): 48 bits of Unix milliseconds, then random bits. OpenLineage recommends them for run
 * ids so that backends can order and partition runs by id; random bits keep two installations from colliding.
 */
final class UuidV7 {

    private static final SecureRandom RANDOM = new SecureRandom();

    private UuidV7() {
    }

    static UUID at(long epochMillis) {
        long high = (epochMillis & 0xFFFF_FFFF_FFFFL) << 16 | 0x7000L | (RANDOM.nextInt() & 0x0FFFL);
        long low = RANDOM.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL | 0x8000_0000_0000_0000L;
        return new UUID(high, low);
    }

    static UUID now() {
        return at(System.currentTimeMillis());
    }
}
