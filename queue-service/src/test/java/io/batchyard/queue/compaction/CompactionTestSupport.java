package io.batchyard.queue.compaction;

import static io.batchyard.queue.compaction.CompactionFixture.drain;

import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the compaction tests that run merge workers share: the compaction beans, and no merge job left due by an earlier
 * test (of this class or another), which a worker of this test would otherwise claim and count.
 */
abstract class CompactionTestSupport {

    @Inject
    Compaction compaction;

    @BeforeEach
    void noLeftovers() {
        drain(compaction.worker("leftovers"));
    }
}
